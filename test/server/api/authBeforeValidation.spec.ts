import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { createStreamTokens } from '../../../server/tokens/streamTokens';

const NOW = Date.UTC(2026, 10, 1);
const SECRET = 'an-api-auth-order-secret-of-32-chars-or-more';
const streamTokens = createStreamTokens({ secret: SECRET, now: () => NOW });

/** Every route path in Fastify's printed route tree (`printRoutes({ commonPrefix: false })`): each line's segment after its parents'. */
function routePathsOf(tree: string): string[] {
  const parents: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const match = /^(.*?)[├└]── (\S+)(?: \((.+)\))?$/.exec(line);
    if (!match) return [];
    const depth = [...match[1]!].length / 4;
    parents.length = depth;
    const parent = parents.at(-1) ?? '';
    const path = parent.endsWith('/') || match[2]!.startsWith('/') || parent === '' ? `${parent}${match[2]}` : `${parent}/${match[2]}`;
    parents.push(path);
    return match[3] ? [path] : [];
  });
}

/**
 * Every `/youtubei/v1/…` call authenticates before it reads its body: a bad bearer token or API key is answered as
 * such (401 with `WWW-Authenticate`, 400 naming the key) whatever the body, malformed, compressed wrongly or too
 * large; only a caller who passes learns what is wrong with the body. The calls are those the app registers.
 */
describe('/youtubei/v1 calls: authentication before validation', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let calls: string[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'api-auth-order-'));
    app = await buildApp({ dataDir, now: () => NOW, streamSecret: SECRET, seedDemoAccounts: false, rateLimit: false });
    await app.ready();
    calls = routePathsOf(app.printRoutes({ commonPrefix: false })).filter((path) => path.startsWith('/youtubei/v1/'));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      // The collector's calls also need their stream's token, which is checked first of all.
      headers: { 'content-type': 'application/json', 'x-vidframe-stream-token': streamTokens.issue().token, ...headers },
    });
  const BAD_BODIES = ['{"not json', '[1, 2', 'plain text'];

  it('finds the calls it checks in the app', () => {
    expect(calls).toEqual(
      expect.arrayContaining([
        '/youtubei/v1/player',
        '/youtubei/v1/player/heartbeat',
        '/youtubei/v1/next',
        '/youtubei/v1/log_event',
        '/youtubei/v1/subscription/subscribe',
      ]),
    );
    expect(calls.length).toBeGreaterThanOrEqual(10);
  });

  it('answers a bad bearer token 401, never the body’s 400, on every call', async () => {
    for (const url of calls) {
      for (const body of BAD_BODIES) {
        const answer = await post(url, body, { authorization: 'Bearer not-an-access-token' });
        expect({ url, status: answer.statusCode, scheme: answer.headers['www-authenticate'] }).toEqual({
          url,
          status: 401,
          scheme: 'Bearer error="invalid_token"',
        });
      }
    }
  });

  it('answers a wrong API key as such, never the body’s 400, on every call', async () => {
    for (const url of calls) {
      const answer = await post(`${url}?key=not-the-key`, '{"not json');
      expect({ url, status: answer.statusCode, message: answer.json().error.message }).toEqual({
        url,
        status: 400,
        message: 'API key not valid. Please pass a valid API key.',
      });
    }
  });

  it('still tells a caller without credentials what is wrong with the body', async () => {
    const answer = await post('/youtubei/v1/player', '{"not json');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.message).not.toMatch(/API key|token/i);
  });
});
