import Fastify, { type FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { webcrypto } from 'node:crypto';
import { ATTESTATION_CHALLENGE_PATH, ATTESTATION_PROGRAM_PATH, registerAttestation, type Attestation } from '../../../server/attestation/registerAttestation';
import type { AttestationChallenge } from '../../../server/tokens/attestationTokens';
import { solveAttestation } from '../../helpers/solveAttestation';

const rootDir = resolve(__dirname, '../../..');

async function start(options: { testHooks?: boolean; challengeRateLimit?: number | false } = {}): Promise<{ app: FastifyInstance; attestation: Attestation }> {
  const app = Fastify();
  await app.register(fastifyRateLimit, { global: false });
  const attestation = await registerAttestation(app, { rootDir, challengeRateLimit: false, ...options });
  return { app, attestation };
}

/** Runs the served program as a page would (its own global object, the platform's crypto.subtle and TextEncoder). */
function loadProgram(source: string) {
  const window: Record<string, unknown> = { crypto: webcrypto };
  runInNewContext(source, { window, TextEncoder, Promise, Uint8Array, Math });
  return window.vidframeAttestationProgram as { version: number; start(): { solve(c: unknown): Promise<string> } };
}

describe('attestation plugin', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  it('serves the program as JavaScript under a content-hash URL, cached for a year; other URLs revalidate', async () => {
    let attestation: Attestation;
    ({ app, attestation } = await start());
    const url = attestation.programUrlFor({});
    expect(url).toMatch(/^\/attestation\/program\.js\?v=[A-Za-z0-9_-]{16}$/);
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(readFileSync(resolve(rootDir, 'server/attestation/program.js'), 'utf8'));
    const plain = await app.inject({ url: ATTESTATION_PROGRAM_PATH });
    expect(plain.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({ url: ATTESTATION_PROGRAM_PATH, headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('hands out no-store challenges, and the served program turns one into a token the verifier accepts once', async () => {
    let attestation: Attestation;
    ({ app, attestation } = await start());
    const res = await app.inject({ method: 'POST', url: ATTESTATION_CHALLENGE_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = res.json() as AttestationChallenge;
    expect(challenge).toEqual({ challenge: expect.any(String), difficulty: 10, expiresAtMs: expect.any(Number) });
    const program = loadProgram((await app.inject({ url: attestation.programUrlFor({}) })).body);
    expect(program.version).toBe(1);
    const token = await program.start().solve(challenge);
    expect(attestation.verify(token)).toEqual({ ok: true });
    expect(attestation.verify(token)).toEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
  });

  it('the program refuses a malformed challenge', async () => {
    ({ app } = await start());
    const program = loadProgram((await app.inject({ url: ATTESTATION_PROGRAM_PATH })).body).start();
    await expect(program.solve({ challenge: 'x', difficulty: 99 })).rejects.toThrow('The attestation challenge is malformed');
    await expect(program.solve(undefined)).rejects.toThrow('The attestation challenge is malformed');
  });

  it('the program will not start without crypto.subtle', async () => {
    ({ app } = await start());
    const window: Record<string, unknown> = {};
    runInNewContext((await app.inject({ url: ATTESTATION_PROGRAM_PATH })).body, { window, TextEncoder, Promise, Uint8Array, Math });
    expect(() => (window.vidframeAttestationProgram as { start(): unknown }).start()).toThrow('crypto.subtle');
  });

  it('refuses a challenge body too large, and rate-limits challenges per client', async () => {
    ({ app } = await start());
    expect((await app.inject({ method: 'POST', url: ATTESTATION_CHALLENGE_PATH, payload: { x: 'y'.repeat(2000) } })).statusCode).toBe(413);
    await app.close();
    ({ app } = await start({ challengeRateLimit: 2 }));
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await app.inject({ method: 'POST', url: ATTESTATION_CHALLENGE_PATH })).statusCode);
    expect(codes).toEqual([200, 200, 429]);
  });

  it('has no test variants and no verify route without testHooks', async () => {
    let attestation: Attestation;
    ({ app, attestation } = await start());
    expect(attestation.programUrlFor({ vf_attestation: 'throw' })).toMatch(/\?v=/);
    expect((await app.inject({ url: `${ATTESTATION_PROGRAM_PATH}?variant=throw` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/attestation/testhooks/verify', payload: { response: 'x' } })).statusCode).toBe(404);
  });

  it('with testHooks: the broken variants, and a verify route over the same verifier', async () => {
    let attestation: Attestation;
    ({ app, attestation } = await start({ testHooks: true }));
    expect(attestation.programUrlFor({ vf_attestation: 'missing' })).toBe(`${ATTESTATION_PROGRAM_PATH}?variant=missing`);
    expect(attestation.programUrlFor({ vf_attestation: 'toString' })).toMatch(/\?v=/);
    const missing = await app.inject({ url: `${ATTESTATION_PROGRAM_PATH}?variant=missing` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 404 } });
    expect((await app.inject({ url: `${ATTESTATION_PROGRAM_PATH}?variant=constructor` })).statusCode).toBe(404);
    const throwing = loadProgram((await app.inject({ url: `${ATTESTATION_PROGRAM_PATH}?variant=throw` })).body);
    expect(() => throwing.start()).toThrow('refused to start');
    const failing = loadProgram((await app.inject({ url: `${ATTESTATION_PROGRAM_PATH}?variant=fail` })).body);
    await expect(failing.start().solve({})).rejects.toThrow('The attestation challenge failed');

    const challenge = (await app.inject({ method: 'POST', url: ATTESTATION_CHALLENGE_PATH })).json() as AttestationChallenge;
    const verifyRoute = (response: unknown) =>
      app!.inject({ method: 'POST', url: '/attestation/testhooks/verify', payload: { response } }).then((r) => r.json());
    const token = solveAttestation(challenge);
    expect(await verifyRoute(token)).toEqual({ ok: true });
    expect(attestation.verify(token)).toEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
    expect(await verifyRoute(42)).toEqual({ ok: false, reason: 'The attestation response is malformed: not a string' });
    const bad = await app.inject({ method: 'POST', url: '/attestation/testhooks/verify', payload: { answer: 'x' } });
    expect(bad.statusCode).toBe(400);
  });
});
