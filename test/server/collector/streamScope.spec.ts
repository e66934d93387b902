import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';

const NOW = 1_700_000_000_000;
const ADMIN = 'admin-token-for-the-stream-scope-tests';
const SECRET = 'a-shared-stream-secret-of-at-least-32-chars';
const tokens = createStreamTokens({ secret: SECRET, now: () => NOW });
const { antiForgeryToken } = apiTokensFor(SECRET, () => NOW);

const ids = (pageId: string, from: number, count: number) => Array.from({ length: count }, (_, i) => `${pageId}:${from + i}`);
const stateChange = (id: string, state = 1) => ({ eventTimeMs: 1000, clientEventId: id, playerStateChange: { state } });
/** A log request body as the page `pageId` sends it (its id is the request's `serializedEventId`). */
const logBody = (pageId: string, events: unknown[]) =>
  JSON.stringify({
    session_token: antiForgeryToken(),
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events,
    requestTimeMs: 2000,
    serializedClientEventId: { serializedEventId: pageId, clientCounter: 1 },
  });

/** What a stream token reaches, through the whole app and a real SQLite store. */
describe('collector: everything a stream token reaches is scoped to that stream', () => {
  let dataDir: string;
  let app: VidFrameApp;

  const send = async (token: string, pageId: string, events: unknown[]) => {
    const res = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: logBody(pageId, events),
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': token },
    });
    expect(res.statusCode).toBe(200);
    return res.json().collector as Record<string, unknown>;
  };
  const admin = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080' } });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const listed = async (url: string) => (await admin(url)).items as { stream: string; clientEventId?: string; event: Record<string, unknown> }[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'collector-scope-'));
    app = await buildApp({ dataDir, now: () => NOW, testHooks: true, adminToken: ADMIN, streamSecret: SECRET });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists under a page id only the events and requests of that page's own stream", async () => {
    const pageA = tokens.issue();
    const pageB = tokens.issue();
    await send(
      pageB.token,
      'pageB',
      ids('pageB', 1, 3).map((id) => stateChange(id)),
    );
    // Page A, with its own valid token, sends 20 events with page B's id prefix: under its own page id, and under B's.
    await send(
      pageA.token,
      'pageA',
      ids('pageB', 100, 10).map((id) => stateChange(id, 2)),
    );
    await send(
      pageA.token,
      'pageB',
      ids('pageB', 110, 10).map((id) => stateChange(id, 2)),
    );

    const bEvents = await listed('/collector/api/events?limit=500&pageId=pageB');
    expect(bEvents.map((e) => e.clientEventId)).toEqual(ids('pageB', 1, 3));
    expect(new Set(bEvents.map((e) => e.stream))).toEqual(new Set([pageB.stream]));
    const bRequests = await listed('/collector/api/requests?limit=500&pageId=pageB');
    expect(bRequests.map((r) => r.stream)).toEqual([pageB.stream]);
    // A's events are still stored, on A's stream.
    expect(await listed(`/collector/api/events?limit=500&stream=${pageA.stream}`)).toHaveLength(20);
    // A page id no request named lists nothing.
    expect(await listed('/collector/api/events?limit=500&pageId=pageC')).toEqual([]);
  });

  it('keeps a repeated event id with another payload as a conflict: a leaked token loses none of the page’s events', async () => {
    const pageB = tokens.issue();
    const real = ids('pageB', 1, 20).map((id) => stateChange(id, 1));
    const junk = ids('pageB', 1, 20).map((id) => stateChange(id, 5));
    // Someone with B's leaked token claims B's next 20 ids first, with junk payloads…
    expect(await send(pageB.token, 'pageB', junk)).toEqual({ accepted: 20, duplicates: 0, conflicts: 0, refused: [] });
    // …then B's real request: its 20 events are stored, as conflicts, not dropped as duplicates.
    expect(await send(pageB.token, 'pageB', real)).toEqual({ accepted: 0, duplicates: 0, conflicts: 20, refused: [] });
    // A resend of either copy is a duplicate of the copy it repeats, not a new conflict.
    expect(await send(pageB.token, 'pageB', real)).toEqual({ accepted: 0, duplicates: 20, conflicts: 0, refused: [] });
    expect(await send(pageB.token, 'pageB', junk)).toEqual({ accepted: 0, duplicates: 20, conflicts: 0, refused: [] });

    // All 40 kept: the first arrivals in the events, the conflicting copies in the conflicts, with their payloads.
    const events = await listed('/collector/api/events?limit=500&pageId=pageB');
    expect(events.map((e) => e.event)).toEqual(junk);
    const conflicts = await listed('/collector/api/conflicts?limit=500');
    expect(conflicts.map((e) => e.event)).toEqual(real);
    expect(await listed(`/collector/api/conflicts?limit=500&stream=${pageB.stream}&pageId=pageB`)).toHaveLength(20);
    expect(await admin('/collector/api/stats')).toMatchObject({ events: 20, conflicts: 20, duplicatesDropped: 40 });
    const requests = await listed('/collector/api/requests?limit=500&pageId=pageB');
    expect(requests.map((r) => r as unknown as { accepted: number; duplicates: number; conflicts: number })).toEqual([
      expect.objectContaining({ accepted: 20, duplicates: 0, conflicts: 0 }),
      expect.objectContaining({ accepted: 0, duplicates: 0, conflicts: 20 }),
      expect.objectContaining({ accepted: 0, duplicates: 20, conflicts: 0 }),
      expect.objectContaining({ accepted: 0, duplicates: 20, conflicts: 0 }),
    ]);
  });

  it('refuses a bad conflicts query with a clear 400', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/collector/api/conflicts?limit=0',
      headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message ?? res.json().error?.message).toBeTruthy();
  });
});
