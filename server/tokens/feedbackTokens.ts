import { randomBytes } from 'node:crypto';
import { fixedKey, keyFileOf, purposeSecret, sharedSecretKey } from './keys';
import { FEEDBACK_TOKEN_LIFETIME_MS, FEEDBACK_TOKEN_MAX_CHARS } from './limits';
import { readClaimsWithKeys, signClaims } from './signing';

/** The report reasons a viewer can pick, with the labels the embed shows (in this order): a report token names one. */
export const REPORT_REASONS = [
  { reason: 'spam', label: 'Spam or misleading' },
  { reason: 'violent', label: 'Violent or repulsive content' },
  { reason: 'hateful', label: 'Hateful or abusive content' },
  { reason: 'rights', label: 'Infringes my rights' },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]['reason'];

/** What a feedback token stands for. */
export type FeedbackMeaning = { videoId: string; kind: 'not_interested' } | { videoId: string; kind: 'report'; reason: ReportReason };

export interface FeedbackTokens {
  /** A fresh token for this feedback on this video (each one with its own nonce). */
  issue(meaning: FeedbackMeaning): string;
  /** What a token means and its nonce (`tokenId`), or why it is refused. */
  verify(token: unknown): ({ ok: true; tokenId: string } & FeedbackMeaning) | { ok: false; reason: string };
}

const PREFIX = 'vffb1';
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * Feedback tokens (spec §7 `feedback`): the server hands them out with a video's viewer state (`next {videoId}`) and
 * takes back only its own, so a client cannot make up feedback about a video or a reason it was never offered.
 *
 *   `vffb1.{base64url(JSON {"v": videoId, "k": kind, "r"?: reason, "n": nonce, "t": issued ms})}.{base64url HMAC-SHA256}`
 *
 * The token is signed, not encrypted (`isFeedbackTokenUnencrypted` is accepted either way): what it says is no secret.
 * It lives {@link FEEDBACK_TOKEN_LIFETIME_MS}, long enough for the client's retry queue. The key is a shared secret
 * (several servers; the app derives it from `VIDFRAME_STREAM_SECRET`) or 32 random bytes generated into `keyFile`.
 */
export function createFeedbackTokens({
  secret,
  previousSecret,
  keyFile,
  now = Date.now,
  lifetimeMs = FEEDBACK_TOKEN_LIFETIME_MS,
}: {
  secret?: string;
  /** The shared secret `secret` replaced: tokens it signed still verify. */
  previousSecret?: string;
  keyFile?: string;
  now?: () => number;
  lifetimeMs?: number;
}): FeedbackTokens {
  const key = fixedKey({ secret, keyFile }, 'feedback-token', 'createFeedbackTokens');
  const keys = secret !== undefined && previousSecret ? [key, sharedSecretKey(previousSecret, 'The previous feedback-token secret')] : [key];
  const malformed = { ok: false, reason: 'is not a feedback token of this server' } as const;

  return {
    issue(meaning) {
      const claims = {
        v: meaning.videoId,
        k: meaning.kind,
        ...(meaning.kind === 'report' && { r: meaning.reason }),
        n: randomBytes(12).toString('base64url'),
        t: now(),
      };
      return signClaims(key, PREFIX, claims);
    },
    verify(token) {
      const read = readClaimsWithKeys(keys, PREFIX, token, FEEDBACK_TOKEN_MAX_CHARS);
      if (!read.ok) return read.problem === 'signature' ? { ok: false, reason: 'has a wrong signature (forged or from another server)' } : malformed;
      const claims = read.claims as { v?: unknown; k?: unknown; r?: unknown; n?: unknown; t?: unknown } | null;
      if (typeof claims !== 'object' || claims === null || typeof claims.v !== 'string' || !VIDEO_ID.test(claims.v)) return malformed;
      if (typeof claims.n !== 'string' || !Number.isSafeInteger(claims.t)) return malformed;
      if (now() - (claims.t as number) > lifetimeMs) return { ok: false, reason: 'has expired; ask for the video again' };
      if (claims.k === 'not_interested') return { ok: true, tokenId: claims.n, videoId: claims.v, kind: 'not_interested' };
      const reason = REPORT_REASONS.find((r) => r.reason === claims.r)?.reason;
      if (claims.k === 'report' && reason) return { ok: true, tokenId: claims.n, videoId: claims.v, kind: 'report', reason };
      return malformed;
    },
  };
}

/** The feedback tokens with their key (`keys.ts`): derived from the shared secret, else `secrets/feedback-token-key`. */
export const createFeedbackTokensFor = ({
  dataDir,
  sharedSecret,
  previousSharedSecret,
  now,
}: {
  dataDir: string;
  sharedSecret?: string;
  previousSharedSecret?: string;
  now?: () => number;
}): FeedbackTokens =>
  createFeedbackTokens(
    sharedSecret !== undefined
      ? { secret: purposeSecret(sharedSecret, 'feedback'), previousSecret: previousSharedSecret && purposeSecret(previousSharedSecret, 'feedback'), now }
      : { keyFile: keyFileOf(dataDir, 'feedback'), now },
  );
