import { createHash } from 'node:crypto';
import { solveAttestation as solve } from '../../helpers/solveAttestation';
import { createAttestationVerifier, createChallengeIssuer, leadingZeroBits, type AttestationChallenge } from '../../../server/tokens/attestationTokens';
import { ATTESTATION_CHALLENGE_LIFETIME_MS, ATTESTATION_DIFFICULTY_BITS } from '../../../streams/timing';

const SECRET = 'test-secret';
const T0 = Date.UTC(2026, 0, 1);

/** A counter that does not prove the work (the first one that misses). */
function wrongProof({ challenge, difficulty }: AttestationChallenge): string {
  for (let counter = 0; ; counter++) {
    if (leadingZeroBits(createHash('sha256').update(`${challenge}:${counter}`).digest()) < difficulty) return `${challenge}.${counter}`;
  }
}

describe('attestation tokens', () => {
  let clock = T0;
  const now = () => clock;
  beforeEach(() => (clock = T0));

  it('issues signed challenges of the configured difficulty, valid for 2 min (product choices)', () => {
    expect(ATTESTATION_DIFFICULTY_BITS).toBe(10);
    expect(ATTESTATION_CHALLENGE_LIFETIME_MS).toBe(120_000);
    const c = createChallengeIssuer({ secret: SECRET, now })();
    expect(c).toEqual({ challenge: expect.stringMatching(/^ac1\.[A-Za-z0-9_-]{22}\.\d+\.10\.[A-Za-z0-9_-]{43}$/), difficulty: 10, expiresAtMs: T0 + 120_000 });
    expect(createChallengeIssuer({ secret: SECRET, now })().challenge).not.toBe(c.challenge);
  });

  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Uint8Array.of(0x00, 0x0f))).toBe(12);
    expect(leadingZeroBits(Uint8Array.of(0x80))).toBe(0);
    expect(leadingZeroBits(Uint8Array.of(0, 0))).toBe(16);
  });

  it('accepts a good token once, then refuses it as replayed', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const token = solve(createChallengeIssuer({ secret: SECRET, now })());
    expect(verify(token)).toEqual({ ok: true });
    expect(verify(token)).toEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
  });

  it('refuses a missing token', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    for (const missing of [undefined, null, '']) expect(verify(missing)).toEqual({ ok: false, reason: 'The attestation response is missing' });
  });

  it('refuses a malformed token, whatever its type or shape', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const good = solve(createChallengeIssuer({ secret: SECRET, now })());
    for (const bad of [42, {}, ['x'], true]) expect(verify(bad)).toEqual({ ok: false, reason: 'The attestation response is malformed: not a string' });
    for (const bad of ['x', good.replace(/\.\d+$/, ''), `${good}0000000000`, good.replace('ac1.', 'ac2.'), `${good}\n`, 'a'.repeat(100_000)]) {
      expect(verify(bad)).toEqual({ ok: false, reason: 'The attestation response is malformed' });
    }
  });

  it('refuses a forged token: another key, or a changed nonce, expiry or difficulty', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const forged = { ok: false, reason: 'The attestation response is forged: bad signature' };
    expect(verify(solve(createChallengeIssuer({ secret: 'another-secret', now })()))).toEqual(forged);
    const c = createChallengeIssuer({ secret: SECRET, now })();
    const [v, nonce, expires, bits, signature] = c.challenge.split('.');
    const otherNonce = `${nonce!.slice(0, -1)}${nonce!.endsWith('A') ? 'B' : 'A'}`;
    expect(verify(solve({ ...c, challenge: [v, otherNonce, expires, bits, signature].join('.') }))).toEqual(forged);
    expect(verify(solve({ ...c, challenge: [v, nonce, Number(expires) + 3_600_000, bits, signature].join('.') }))).toEqual(forged);
    expect(verify(solve({ ...c, challenge: [v, nonce, expires, 1, signature].join('.'), difficulty: 1 }))).toEqual(forged);
    // The genuine challenge still works: none of the forgeries used it up.
    expect(verify(solve(c))).toEqual({ ok: true });
  });

  it('refuses a token whose counter does not prove the work', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const c = createChallengeIssuer({ secret: SECRET, now })();
    expect(verify(wrongProof(c))).toEqual({ ok: false, reason: 'The attestation response is forged: wrong proof of work' });
    // A wrong proof does not burn the nonce.
    expect(verify(solve(c))).toEqual({ ok: true });
  });

  it('refuses a signed challenge easier than the verifier demands', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now, minDifficulty: 10 });
    const easy = createChallengeIssuer({ secret: SECRET, now, difficulty: 2 })();
    expect(verify(solve(easy))).toEqual({ ok: false, reason: 'The attestation response is forged: too easy a challenge' });
  });

  it('refuses a stale token: its challenge expired (at the 2 min lifetime)', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const issue = createChallengeIssuer({ secret: SECRET, now });
    const justInTime = solve(issue());
    const late = solve(issue());
    clock = T0 + ATTESTATION_CHALLENGE_LIFETIME_MS - 1;
    expect(verify(justInTime)).toEqual({ ok: true });
    clock = T0 + ATTESTATION_CHALLENGE_LIFETIME_MS;
    expect(verify(late)).toEqual({ ok: false, reason: 'The attestation response is stale: its challenge expired' });
  });

  it('still refuses a replay after forgetting expired nonces (it is then stale)', () => {
    const verify = createAttestationVerifier({ secret: SECRET, now });
    const token = solve(createChallengeIssuer({ secret: SECRET, now })());
    expect(verify(token)).toEqual({ ok: true });
    clock = T0 + ATTESTATION_CHALLENGE_LIFETIME_MS + 5_000;
    expect(verify(token)).toEqual({ ok: false, reason: 'The attestation response is stale: its challenge expired' });
  });
});
