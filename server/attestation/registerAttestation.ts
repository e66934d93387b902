import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ATTESTATION_CHALLENGE_RATE_LIMIT_PER_MINUTE } from '../../streams/timing';
import { ATTESTATION_CHALLENGE_PATH } from '../../streams/attestation/attestationStates';
import { errorBody } from '../http/errors';
import { createAttestationVerifier, createChallengeIssuer, type AttestationVerdict, type UsedNonces } from '../tokens/attestationTokens';

/** Where the program is served (root-relative: the page may sit behind a proxy under another host name). */
export const ATTESTATION_PROGRAM_PATH = '/attestation/program.js';
/** Where the page fetches a challenge (shared with the page, which fetches it). */
export { ATTESTATION_CHALLENGE_PATH };

/**
 * The broken programs the browser tests serve under `testHooks` (an embed URL's `vf_attestation=` picks one):
 * `missing` answers 404 (state 3), `throw` is a program whose start throws (state 4), `fail` one whose every solve
 * fails (state 7).
 */
const TEST_VARIANTS: Record<string, string | null> = {
  missing: null,
  throw: `window.vidframeAttestationProgram={version:1,start:function(){throw new Error('The attestation program refused to start (test variant)');}};\n`,
  fail: `window.vidframeAttestationProgram={version:1,start:function(){return{solve:function(){return Promise.reject(new Error('The attestation challenge failed (test variant)'));}};}};\n`,
};

export interface AttestationOptions {
  /** The project folder `server/attestation/program.js` is read from (`buildApp`'s `rootDir`). */
  rootDir: string;
  /** The challenges' HMAC key; random per process when absent (challenges live 2 min, a restart only costs a retry). */
  secret?: string;
  now?: () => number;
  /** Serve the broken program variants and `POST /attestation/testhooks/verify`. */
  testHooks?: boolean;
  /** Challenges per client address and minute; `false` for none (tests). */
  challengeRateLimit?: number | false;
  /** Where accepted tokens are remembered: shared by servers on one database (`cluster/`); default this process. */
  usedNonces?: UsedNonces;
}

/** What the rest of the server needs of attestation. */
export interface Attestation {
  /** Checks a `botguardResponse` (the platform routes' `verifyAttestation`): single use, so call it once per request. */
  verify: (response: unknown) => AttestationVerdict | Promise<AttestationVerdict>;
  /** The program URL an embed page's configuration carries (`vf_attestation=` picks a test variant under testHooks). */
  programUrlFor: (query: Record<string, unknown>) => string;
}

/**
 * Attestation (spec §4/§7/§8), as one encapsulated plugin:
 *
 * - `GET /attestation/program.js`: the program (`program.js` beside this file), `text/javascript`, named by a `v=`
 *   content hash in the URL the page is given, so that URL is cached for a year and a new program is a new URL
 *   (any other `v` is answered `no-cache`, with an ETag);
 * - `POST /attestation/challenge` (no body) → `{ challenge, difficulty, expiresAtMs }`, `no-store`, rate-limited per
 *   client address;
 * - the verifier of the tokens the program makes from them, returned for the routes that take a `botguardResponse`.
 */
export async function registerAttestation(
  app: FastifyInstance,
  { rootDir, secret, now = Date.now, testHooks = false, challengeRateLimit = ATTESTATION_CHALLENGE_RATE_LIMIT_PER_MINUTE, usedNonces }: AttestationOptions,
): Promise<Attestation> {
  const key = secret ?? randomBytes(32).toString('base64url');
  const issue = createChallengeIssuer({ secret: key, now });
  const verify = createAttestationVerifier({ secret: key, now, usedNonces });
  const program = readFileSync(resolve(rootDir, 'server/attestation/program.js'), 'utf8');
  const version = createHash('sha256').update(program).digest('base64url').slice(0, 16);
  const etag = `"${version}"`;

  const sendScript = (reply: FastifyReply, source: string, cacheControl: string) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', cacheControl).send(source);

  await app.register(async (scope) => {
    scope.get<{ Querystring: { v?: string; variant?: string } }>(
      ATTESTATION_PROGRAM_PATH,
      { schema: { querystring: { type: 'object', properties: { v: { type: 'string', maxLength: 64 }, variant: { type: 'string', maxLength: 16 } } } } },
      (request, reply) => {
        const { v, variant } = request.query;
        if (variant !== undefined) {
          const source = testHooks && Object.hasOwn(TEST_VARIANTS, variant) ? TEST_VARIANTS[variant] : undefined;
          if (!source) return reply.code(404).send(errorBody(404, `No attestation program variant ${JSON.stringify(variant)}`));
          return sendScript(reply, source, 'no-store');
        }
        reply.header('etag', etag);
        if (v === version) return sendScript(reply, program, 'public, max-age=31536000, immutable');
        if (request.headers['if-none-match'] === etag) return reply.code(304).header('cache-control', 'no-cache').send();
        return sendScript(reply, program, 'no-cache');
      },
    );

    scope.post(
      ATTESTATION_CHALLENGE_PATH,
      { bodyLimit: 1024, config: challengeRateLimit ? { rateLimit: { max: challengeRateLimit, timeWindow: 60_000 } } : {} },
      (_request, reply) => reply.header('cache-control', 'no-store').send(issue()),
    );

    if (testHooks) {
      scope.post<{ Body: { response?: unknown } }>(
        '/attestation/testhooks/verify',
        { schema: { body: { type: 'object', required: ['response'], properties: { response: {} } } } },
        async (request) => verify(request.body.response),
      );
    }
  });

  return {
    verify,
    programUrlFor: (query) => {
      const variant =
        testHooks && typeof query.vf_attestation === 'string' && Object.hasOwn(TEST_VARIANTS, query.vf_attestation) ? query.vf_attestation : undefined;
      return variant ? `${ATTESTATION_PROGRAM_PATH}?variant=${variant}` : `${ATTESTATION_PROGRAM_PATH}?v=${version}`;
    },
  };
}
