import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerSetting } from '../http/logging';
import { AD_STATUS_GLOBAL } from '../../streams/adStatus/adStatusGlobal';
import { createHttpServer } from '../http/createHttpServer';
import { errorBody, replyWithError } from '../http/errors';
import { registerSecurityHeaders } from '../security/securityHeaders';
import { adsIdOfRequest, newAdsId, setAdsIdCookie } from './adsIdCookie';
import { createScriptedAnswers, type ScriptedAnswer } from './scriptedAnswers';

export interface AdsHostOptions {
  /** Whether an embed origin may read the id (its `Origin` header); `allowMainServerOrigins` makes the usual one. */
  allowedOrigin: (origin: string) => boolean;
  /** Turn on the scripted answers and the request log under `/testhooks/` (tests, `VIDFRAME_TEST_HOOKS=1`). */
  testHooks?: boolean;
  /** Issue the id cookie `SameSite=None; Secure` (an https ads host) instead of `SameSite=Lax`. */
  secureCookies?: boolean;
  /** JSON log lines (`http/logging.ts`); default off. */
  logger?: LoggerSetting;
  /** With a logger, the access log; default true. */
  logRequests?: boolean;
  /** The clock of the request log (ms since the epoch). */
  now?: () => number;
}

/** The anti-hijack prefix (and line break) every id answer begins with (spec §5). */
export const ADS_ID_RESPONSE_PREFIX = ")]}'\n";
/** The ad-status script (spec §4/§7): the embed loads it and looks for {@link AD_STATUS_GLOBAL}. */
export const AD_STATUS_SCRIPT_PATH = '/pagead/ad_status.js';
/** The global the ad-status script sets, which the embed's ad-status check looks for (`window[AD_STATUS_GLOBAL]`). */
export { AD_STATUS_GLOBAL };
/**
 * How long browsers may keep the ad-status script: it never changes, and each page checks its own global anyway. Short
 * enough that a new script reaches every viewer within the hour.
 */
const AD_STATUS_MAX_AGE_S = 3_600;
/** The JSON content type of the id answers. */
const JSON_TYPE = 'application/json; charset=utf-8';
/** Body limit of the test routes. */
const TEST_HOOKS_BODY_LIMIT_BYTES = 256 * 1024;

const scriptedAnswersSchema = {
  type: 'object',
  required: ['answers'],
  additionalProperties: false,
  properties: {
    answers: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'integer', minimum: 200, maximum: 599 },
          body: { type: 'string', maxLength: 100_000 },
          delayMs: { type: 'integer', minimum: 0, maximum: 120_000 },
        },
      },
    },
  },
} as const;

/**
 * The reference ads host (spec §7): a second, small Fastify app on its own origin (another port), which
 * hands the embed its consent-gated anonymous id.
 *
 * `GET /pagead/id` answers `)]}'\n{"id":"…","type":1}` (`application/json`, `no-store`): the id of the `vf_ads_id`
 * cookie, or a new one (16 random bytes, base64url) set as that cookie (HttpOnly, one year). The player fetches it
 * with credentials from the embed's origin, so CORS is the credentialed kind: a request whose `Origin` passes
 * `allowedOrigin` gets `Access-Control-Allow-Origin: <that origin>` and `Access-Control-Allow-Credentials: true`; any
 * other `Origin` gets **403** with the server's JSON error body, no CORS headers and no cookie (the browser would
 * block the read anyway; refusing also keeps a foreign site from minting cookies here). A request without `Origin`
 * (the address typed into a browser, curl) is no CORS request and gets the id. Every answer `Vary: Origin`.
 * `OPTIONS /pagead/id` (no browser preflights this simple GET, but a proxy may ask) answers 204 with the same rule.
 *
 * With `testHooks`: `POST /testhooks/answers` `{ answers: [{ status?, body?, delayMs? }] }` queues answers the next id
 * requests play first-in first-out (a body verbatim — no prefix, `type: 2`, a 500 — or the normal body after a delay),
 * `GET /testhooks/requests` → `{ count, requests: [{ atMs, origin, hadCookie }] }` (refused requests included),
 * `DELETE /testhooks` empties both. Without `testHooks` these routes do not exist (404).
 *
 * `GET /pagead/ad_status.js` is the ad-status script of spec §4/§7: one line that sets `window.vidframeAdStatusLoaded`
 * (loaded with a `<script>`, so no CORS; no cookie is read or set). With `testHooks`, `POST /testhooks/ad-status`
 * `{ delayMs }` holds its answers that long (past the embed's 5 s: the check times out), until `DELETE /testhooks`.
 */
export async function createAdsHost({
  allowedOrigin,
  testHooks = false,
  secureCookies = false,
  logger = false,
  logRequests,
  now = Date.now,
}: AdsHostOptions): Promise<FastifyInstance> {
  const app = createHttpServer({ logger, logRequests, trustProxy: false });
  const scripted = createScriptedAnswers();

  // A scripted delay ends at once when the host closes, so a test's long "timeout" answer never holds up the stop.
  const delays = new Set<() => void>();
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        delays.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      delays.add(done);
    });
  app.addHook('preClose', async () => {
    [...delays].forEach((done) => done());
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${request.url.split('?')[0]}`));
  });
  app.setErrorHandler(replyWithError);
  await registerSecurityHeaders(app);
  await app.register(fastifyCookie);

  /** The CORS decision for a request: `refused` (a foreign origin), or the headers to add (none without `Origin`). */
  const cors = (request: FastifyRequest, reply: FastifyReply): 'refused' | 'ok' => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined) return 'ok';
    if (!allowedOrigin(origin)) return 'refused';
    reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true');
    return 'ok';
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(403)
      .header('cache-control', 'no-store')
      .send(errorBody(403, `The ads host does not answer pages of ${JSON.stringify(request.headers.origin)}.`));

  app.get('/pagead/id', { exposeHeadRoute: false }, async (request, reply) => {
    const cookieId = adsIdOfRequest(request);
    scripted.record({ atMs: now(), origin: request.headers.origin ?? null, hadCookie: cookieId !== undefined });
    if (cors(request, reply) === 'refused') return refuse(request, reply);
    reply.header('cache-control', 'no-store').type(JSON_TYPE);

    const answer: ScriptedAnswer | undefined = scripted.take();
    if (answer?.delayMs) await delay(answer.delayMs);
    if (answer?.body !== undefined) return reply.code(answer.status ?? 200).send(answer.body);

    const id = cookieId ?? newAdsId();
    if (cookieId === undefined) setAdsIdCookie(reply, id, secureCookies);
    return reply.code(answer?.status ?? 200).send(`${ADS_ID_RESPONSE_PREFIX}${JSON.stringify({ id, type: 1 })}`);
  });

  let adStatusDelayMs = 0;
  app.get(AD_STATUS_SCRIPT_PATH, { exposeHeadRoute: false }, async (_request, reply) => {
    if (adStatusDelayMs > 0) await delay(adStatusDelayMs);
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', adStatusDelayMs > 0 ? 'no-store' : `public, max-age=${AD_STATUS_MAX_AGE_S}`)
      .send(`window.${AD_STATUS_GLOBAL}=true;\n`);
  });

  app.options('/pagead/id', (request, reply) => {
    if (cors(request, reply) === 'refused') return refuse(request, reply);
    if (request.headers.origin !== undefined) reply.header('access-control-allow-methods', 'GET').header('access-control-max-age', '600');
    return reply.code(204).header('allow', 'GET, OPTIONS').send();
  });

  if (testHooks) {
    app.post<{ Body: { answers: ScriptedAnswer[] } }>(
      '/testhooks/answers',
      { bodyLimit: TEST_HOOKS_BODY_LIMIT_BYTES, schema: { body: scriptedAnswersSchema } },
      (request) => ({ pending: scripted.queue(request.body.answers) }),
    );
    app.get('/testhooks/requests', () => scripted.requests());
    app.post<{ Body: { delayMs: number } }>(
      '/testhooks/ad-status',
      { schema: { body: { type: 'object', required: ['delayMs'], properties: { delayMs: { type: 'integer', minimum: 0, maximum: 120_000 } } } } },
      (request) => {
        adStatusDelayMs = request.body.delayMs;
        return { delayMs: adStatusDelayMs };
      },
    );
    app.delete('/testhooks', () => {
      adStatusDelayMs = 0;
      scripted.reset();
      return { reset: true };
    });
  }
  return app;
}
