import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';

const NOW = 1_700_000_000_000;
const ADMIN = 'admin-token-for-the-collector-tests';
const SECRET = 'a-shared-stream-secret-of-at-least-32-chars';
const streamTokens = createStreamTokens({ secret: SECRET, now: () => NOW });
const { antiForgeryToken } = apiTokensFor(SECRET, () => NOW);

/** A credential no stored byte may contain. */
const CREDENTIAL = 'ctt-SECRET-5f1d0c9e-never-stored';

const logBody = (extra: Record<string, unknown>, id = 'p:1') =>
  JSON.stringify({
    session_token: antiForgeryToken(),
    context: { client: { clientName: 'WEB_EMBEDDED_PLAYER', clientVersion: '1.0' } },
    events: [{ eventTimeMs: 1000, clientEventId: id, playerStateChange: { state: 1 } }],
    requestTimeMs: 2000,
    serializedClientEventId: { serializedEventId: 'page', clientCounter: 1 },
    ...extra,
  });

/** Every file under `dir` (the SQLite database, its WAL, the secrets folder), as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, bytes: readFileSync(path) }];
  });
}

describe('collector: log_event credentialTransferTokens (spec §7)', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let stream: { stream: string; token: string };

  const post = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload,
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': stream.token },
    });
  const admin = async (url: string) => (await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost:8080' } })).json();

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'collector-ctt-'));
    app = await buildApp({ dataDir, now: () => NOW, testHooks: true, adminToken: ADMIN, streamSecret: SECRET });
    stream = streamTokens.issue();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('accepts valid tokens, stores the request and its events, and stores nothing of the tokens', async () => {
    const res = await post(logBody({ credentialTransferTokens: [{ token: CREDENTIAL, scope: 'youtube' }, { token: `${CREDENTIAL}-2` }] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().collector).toEqual({ accepted: 1, duplicates: 0, conflicts: 0, refused: [] });

    const requests = (await admin('/collector/api/requests?limit=500')).items;
    const events = (await admin('/collector/api/events?limit=500')).items;
    expect(requests).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(requests)).not.toContain(CREDENTIAL);
    expect(JSON.stringify(requests)).not.toContain('credentialTransferTokens');
    expect(JSON.stringify(events)).not.toContain(CREDENTIAL);
    expect(JSON.stringify(await admin('/collector/api/stats'))).not.toContain(CREDENTIAL);

    // Nor on disk: not in the database, not in its write-ahead log (checked after the store closed and checkpointed).
    await app.close();
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.path.endsWith('.sqlite'))).toBe(true);
    for (const file of files) expect({ path: file.path, leaks: file.bytes.includes(CREDENTIAL) }).toEqual({ path: file.path, leaks: false });
    app = await buildApp({ dataDir, now: () => NOW, testHooks: true, adminToken: ADMIN, streamSecret: SECRET });
  });

  it('takes a request without them, or with none, as before', async () => {
    expect((await post(logBody({}, 'p:1'))).statusCode).toBe(200);
    expect((await post(logBody({ credentialTransferTokens: [] }, 'p:2'))).statusCode).toBe(200);
    expect((await admin('/collector/api/events?limit=500')).items).toHaveLength(2);
  });

  it.each<[string, unknown, string]>([
    ['not an array', { token: CREDENTIAL }, '"credentialTransferTokens" must be an array of objects of strings'],
    ['more than 10', Array.from({ length: 11 }, () => ({ token: 't' })), '"credentialTransferTokens" carries at most 10 tokens, not 11'],
    ['a string entry', [CREDENTIAL], '"credentialTransferTokens"[0] must be an object of strings'],
    ['a number value', [{ token: 't', expiresAt: 5 }], '"credentialTransferTokens"[0].expiresAt must be a string'],
    ['a too long token', [{ token: 'x'.repeat(5000) }], '"credentialTransferTokens"[0] is longer than 4096 characters'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_name, value, message) => {
    const res = await post(logBody({ credentialTransferTokens: value }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 400, message } });
    expect((await admin('/collector/api/requests?limit=500')).items).toEqual([]);
    expect((await admin('/collector/api/events?limit=500')).items).toEqual([]);
  });
});
