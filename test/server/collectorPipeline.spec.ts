import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { buildApp, type VidFrameApp } from '../../server/app';
import { createStreamTokens } from '../../server/tokens/streamTokens';
import { apiTokensFor } from '../helpers/apiTokens';
import { createLogSink } from '../../streams/logging/createLogSink';
import { playerEvents } from '../../streams/logging/playerEvents';
import type { ClientEvent } from '../../streams/logging/stampEvent';
import type { ApiRequest } from '../../streams/transport/buildApiRequest';
import { buildClientContext } from '../../streams/transport/buildClientContext';
import { createApiTransport, type FetchLike } from '../../streams/transport/createApiTransport';
import { configDatabase } from '../../streams/storage/configDatabase';
import { createConfigStore } from '../../streams/storage/createConfigStore';
import { createMemoryDatabase } from '../../streams/storage/createMemoryDatabase';

/**
 * The client pieces against the real collector: the real transport (real gzip via CompressionStream) and the real log
 * sink, with `fetch` bridged to Fastify's inject. Source streams complete, so the sink drains and completes: no sleeps.
 */
describe('transport + log sink → collector', () => {
  let dataDir: string;
  let app: VidFrameApp;
  const SECRET = 'pipeline-stream-secret-of-32-characters-or-more';
  const ADMIN = 'pipeline-admin-token-for-tests';
  const streamToken = createStreamTokens({ secret: SECRET }).issue().token;
  /** The collector's admin API, as the dashboard or a test reads it. */
  const admin = async (url: string, payload?: object) =>
    (
      await app.inject({
        method: payload ? 'POST' : 'GET',
        url,
        ...(payload ? { payload } : {}),
        headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost' },
      })
    ).json();
  let fetchCalls: { url: string; encoding?: string; keepalive?: boolean }[];

  const fetch: FetchLike = async (url, init) => {
    fetchCalls.push({ url, encoding: init.headers['Content-Encoding'], keepalive: init.keepalive });
    const res = await app.inject({ method: 'POST', url, headers: init.headers, payload: Buffer.from(init.body) });
    return { status: res.statusCode, headers: { get: (n: string) => (res.headers[n.toLowerCase()] as string) ?? null }, text: async () => res.body };
  };
  const VISITOR = apiTokensFor(SECRET).visitorData();
  const context = buildClientContext({ timeZone: 'Europe/Paris', utcOffsetMinutes: 60, page: { visitorData: VISITOR } });
  const xsrfToken = apiTokensFor(SECRET).antiForgeryToken();
  const transport = () => createApiTransport({ fetch, settings: () => ({ context, streamToken, xsrfToken }) });

  /** Enough events (≥ 500 bytes) that the transport compresses the request. */
  const session: ClientEvent[] = [
    playerEvents.load({ videoId: 'VFsunrise01', autoplay: false, hostOrigin: 'http://localhost:8081' }),
    playerEvents.ready({ videoId: 'VFsunrise01', latencyMs: 321.4 }),
    playerEvents.stateChange({ videoId: 'VFsunrise01', previousState: -1, state: 1, mediaTimeSec: 0 }),
    playerEvents.seek({ videoId: 'VFsunrise01', fromSec: 1, toSec: 5 }),
    playerEvents.watchTimeSegment({ videoId: 'VFsunrise01', startSec: 0, endSec: 1, playbackRate: 1, muted: false, volume: 100 }),
    playerEvents.hostCommand({ command: 'seekTo', hostOrigin: 'http://localhost:8081', accepted: true }),
    playerEvents.asDebug(playerEvents.error({ internalError: 'fmt.decode', hostErrorCode: 5 })),
  ];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pipeline-'));
    app = await buildApp({ dataDir, testHooks: true, adminToken: ADMIN, streamSecret: SECRET });
    await app.ready();
    fetchCalls = [];
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a session gzipped, with its context, debug events to video_stats', async () => {
    const t = transport();
    const sink = createLogSink({ buildRequest: t.buildRequest, send: t.send, sendKeepalive: t.sendKeepalive, store: jest.fn(), pageId: 'pg' });
    const outcomes = await lastValueFrom(sink(from(session)).pipe(toArray()));
    expect(outcomes.map((o) => o.type)).toEqual(['sent', 'sent']);
    expect(fetchCalls.find((c) => c.url === '/youtubei/v1/log_event')?.encoding).toBe('gzip');
    const { items: events } = await admin('/collector/api/events?endpoint=log_event');
    expect(events.map((e: { name: string }) => e.name)).toEqual([
      'playerLoad',
      'playerReady',
      'playerStateChange',
      'playerSeek',
      'watchTimeSegment',
      'hostCommandReceived',
    ]);
    expect(events[1].event.playerReady.latencyMs).toBe(321);
    expect((await admin('/collector/api/events?endpoint=video_stats')).items[0].name).toBe('playerError');
    const [request] = (await admin('/collector/api/requests')).items;
    expect(request).toMatchObject({
      compressed: true,
      context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', timeZone: 'Europe/Paris' } },
      headers: { 'x-goog-visitor-id': VISITOR, 'x-youtube-client-name': '56', 'x-youtube-utc-offset': '60' },
    });
  });

  it('a collector answering 415 to gzip makes the client resend uncompressed (and stay uncompressed)', async () => {
    await admin('/collector/api/faults', { status: 415, count: 1 });
    const t = transport();
    const sink = createLogSink({ buildRequest: t.buildRequest, send: t.send, store: jest.fn(), pageId: 'pg' });
    await lastValueFrom(sink(from(session.slice(0, 6))).pipe(toArray()));
    expect(fetchCalls.map((c) => c.encoding ?? 'identity')).toEqual(['gzip', 'identity']);
    expect(t.compressionDisabled).toBe(true);
    expect(await admin('/collector/api/stats')).toMatchObject({ events: 6, faultsPlayed: 1, compressedRequests: 0 });
  });

  it('a failed request goes to store exactly as the retry queue keeps it; resending it never counts twice', async () => {
    await admin('/collector/api/faults', { status: 500, count: 1 });
    const stored: ApiRequest[] = [];
    const t = transport();
    const sink = createLogSink({ buildRequest: t.buildRequest, send: t.send, store: (r) => void stored.push(r), pageId: 'pg' });
    const outcomes = await lastValueFrom(sink(from(session.slice(0, 6))).pipe(toArray()));
    expect(outcomes.map((o) => o.type)).toEqual(['stored']);
    expect(stored).toHaveLength(1);
    expect(Object.keys(stored[0])).toEqual(['url', 'options']);
    expect(stored[0].options.headers['Content-Encoding']).toBeUndefined();
    // The retry queue resends the stored request (twice here, as after a lost answer): six events, counted once.
    await lastValueFrom(t.send(stored[0]));
    await lastValueFrom(t.send(stored[0]));
    expect(await admin('/collector/api/stats')).toMatchObject({ events: 6, duplicatesDropped: 6 });
  });

  it('the lifecycle flush goes out uncompressed with keepalive', async () => {
    const t = transport();
    const sink = createLogSink({ buildRequest: t.buildRequest, send: t.send, sendKeepalive: t.sendKeepalive, store: jest.fn(), pageId: 'pg' });
    const events$ = new Subject<ClientEvent>();
    const lifecycle$ = new Subject<'document_disposed'>();
    const done = lastValueFrom(sink(events$, lifecycle$).pipe(toArray()));
    session.slice(0, 6).forEach((e) => events$.next(e));
    lifecycle$.next('document_disposed'); // everything queued goes out through the keepalive path at once
    events$.complete(); // nothing left to drain: no further request
    const outcomes = await done;
    expect(outcomes).toEqual([expect.objectContaining({ type: 'sent', keepalive: true, eventCount: 6 })]);
    expect(fetchCalls).toEqual([{ url: '/youtubei/v1/log_event', encoding: undefined, keepalive: true }]);
    expect((await admin('/collector/api/stats')).events).toBe(6);
  });

  it("the log_event answer carries a globalConfigGroup the client's config store accepts", async () => {
    const response = await lastValueFrom(transport().fetchApi('log_event', { events: [], requestTimeMs: 0 }));
    const configStore = createConfigStore(createMemoryDatabase(configDatabase()));
    await expect(configStore.writeFromResponse(response.body, 1)).resolves.toEqual({ hot: true, cold: true });
    const stored = await configStore.read();
    expect(stored.hot?.hashData).toEqual(expect.any(String));
    expect(stored.cold?.configData).toEqual(expect.any(String));
  });
});
