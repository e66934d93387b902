import { createHash, randomBytes } from 'node:crypto';
import { ATTESTATION_CHALLENGE_LIFETIME_MS, ATTESTATION_DIFFICULTY_BITS } from '../../streams/timing';
import { signatureMatches, signBody } from './signing';

/**
 * The attestation challenge and its response token (spec §7 "optional botguard response").
 *
 * A challenge is `ac1.{nonce}.{expiresAtMs}.{difficulty}.{signature}`: 16 random bytes (base64url), when it stops being
 * accepted, how many leading zero bits the proof needs, and the HMAC-SHA256 of the first four parts under the server's
 * secret (base64url). The program answers `{challenge}.{counter}`, a decimal counter such that
 * SHA-256(`{challenge}:{counter}`) starts with `difficulty` zero bits. The server keeps nothing per challenge it issues:
 * the signature proves it issued it; only the nonces of accepted tokens are kept, until they expire, to refuse replays.
 */
export interface AttestationChallenge {
  challenge: string;
  difficulty: number;
  expiresAtMs: number;
}

export type AttestationVerdict = { ok: true } | { ok: false; reason: string };

/** Where accepted nonces are kept: `claim` records a nonce and says whether it was new (false: a replay). */
export interface UsedNonces {
  claim(nonce: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** The used nonces in this process's memory, swept of expired ones as time passes. */
function usedNoncesInMemory(now: () => number): UsedNonces {
  const used = new Map<string, number>();
  let nextSweepAtMs = 0;
  return {
    claim(nonce, expiresAtMs) {
      const atMs = now();
      if (atMs >= nextSweepAtMs) {
        nextSweepAtMs = atMs + 1_000;
        for (const [kept, keptUntil] of used) if (keptUntil <= atMs) used.delete(kept);
      }
      if (used.has(nonce)) return false;
      used.set(nonce, expiresAtMs);
      return true;
    },
  };
}

const REPLAYED: AttestationVerdict = { ok: false, reason: 'The attestation response was replayed: already used' };

interface TokenOptions {
  /** The HMAC key; several servers that verify each other's challenges share it. */
  secret: string;
  /** Milliseconds since the epoch (tests fix it). */
  now?: () => number;
}

const VERSION = 'ac1';
/** A challenge and a counter: the version, 22 base64url characters of nonce, digits, digits, 43 of signature, digits. */
const RESPONSE_SHAPE = /^ac1\.([A-Za-z0-9_-]{22})\.(\d{1,15})\.(\d{1,2})\.([A-Za-z0-9_-]{43})\.(\d{1,10})$/;
/** The strongest difficulty a challenge may name: 24 bits is 16 M hashes on average, already far too slow for a page. */
const MAX_DIFFICULTY_BITS = 24;

/** The number of leading zero bits of `bytes`. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** Issues signed challenges of {@link ATTESTATION_DIFFICULTY_BITS}, valid for {@link ATTESTATION_CHALLENGE_LIFETIME_MS}. */
export function createChallengeIssuer({
  secret,
  now = Date.now,
  difficulty = ATTESTATION_DIFFICULTY_BITS,
  lifetimeMs = ATTESTATION_CHALLENGE_LIFETIME_MS,
}: TokenOptions & { difficulty?: number; lifetimeMs?: number }) {
  if (!Number.isInteger(difficulty) || difficulty < 1 || difficulty > MAX_DIFFICULTY_BITS)
    throw new RangeError(`difficulty must be 1–${MAX_DIFFICULTY_BITS} bits`);
  return (): AttestationChallenge => {
    const expiresAtMs = Math.floor(now()) + lifetimeMs;
    const body = `${VERSION}.${randomBytes(16).toString('base64url')}.${expiresAtMs}.${difficulty}`;
    return { challenge: `${body}.${signBody(secret, body)}`, difficulty, expiresAtMs };
  };
}

/**
 * The check of a response token (what the subscribe call's `botguardResponse` carries): `{ ok: true }` for a token made
 * from a challenge this secret signed, not expired, with a correct proof of at least `minDifficulty` bits, seen for the
 * first time; otherwise `{ ok: false, reason }` saying which of missing, malformed, forged (signature or proof), stale
 * or replayed it is. Never throws, whatever it is given.
 *
 * The accepted nonces are kept until their challenge expires: in this verifier's memory by default (one server), or in
 * `usedNonces` that several servers share (`cluster/`), so that a token is accepted once whichever server sees it. With
 * a shared memory the verdict of a well-formed token comes as a promise.
 */
export function createAttestationVerifier({
  secret,
  now = Date.now,
  minDifficulty = ATTESTATION_DIFFICULTY_BITS,
  usedNonces = usedNoncesInMemory(now),
}: TokenOptions & { minDifficulty?: number; usedNonces?: UsedNonces }): (response: unknown) => AttestationVerdict | Promise<AttestationVerdict> {
  return (response) => {
    if (response === undefined || response === null || response === '') return { ok: false, reason: 'The attestation response is missing' };
    if (typeof response !== 'string') return { ok: false, reason: 'The attestation response is malformed: not a string' };
    const parts = RESPONSE_SHAPE.exec(response);
    if (!parts) return { ok: false, reason: 'The attestation response is malformed' };
    const [, nonce, expires, bits, signature, counter] = parts;
    const body = `${VERSION}.${nonce}.${expires}.${bits}`;
    if (!signatureMatches(secret, body, signature!)) return { ok: false, reason: 'The attestation response is forged: bad signature' };
    const atMs = now();
    if (Number(expires) <= atMs) return { ok: false, reason: 'The attestation response is stale: its challenge expired' };
    if (Number(bits) < minDifficulty) return { ok: false, reason: 'The attestation response is forged: too easy a challenge' };
    const digest = createHash('sha256').update(`${body}.${signature}:${counter}`).digest();
    if (leadingZeroBits(digest) < Number(bits)) return { ok: false, reason: 'The attestation response is forged: wrong proof of work' };
    const claimed = usedNonces.claim(nonce!, Number(expires));
    const verdictOf = (isNew: boolean): AttestationVerdict => (isNew ? { ok: true } : REPLAYED);
    return typeof claimed === 'boolean' ? verdictOf(claimed) : claimed.then(verdictOf);
  };
}
