import type { ConsistencyTokenJar } from '../transport/buildClientContext';
import { numberText } from '../shared/numberText';

export interface ConsistencyTokenStore {
  /**
   * Reads `responseContext.consistencyTokenJar` of an API answer (`{encryptedTokenJarContents, expirationSeconds}`).
   * A usable jar replaces the one held; an answer without one, or with an unusable one, changes nothing.
   */
  absorb(responseBody: unknown): void;
  /** The jar to send in `context.request.consistencyTokenJars`: the newest one while it has not expired, else none. */
  current(): ConsistencyTokenJar[];
  /** Forgets the jar (sign-out, account switch). */
  clear(): void;
}

export interface ConsistencyTokenStoreOptions {
  /** The clock, ms since the epoch. */
  now: () => number;
}

/**
 * The consistency tokens of spec §3 (client context) and §7 (`responseContext`): the server hands a signed-in
 * viewer a jar after a write, and the client sends it back with every request until it expires, so a read right
 * after a write sees that write.
 *
 * - `expirationSeconds` is the jar's lifetime from the moment it is absorbed (a string of seconds, as innertube
 *   sends it; a number is taken too). The jar is current while `now() < absorbedAt + expirationSeconds · 1000`.
 * - A jar without `expirationSeconds` is kept until a newer one replaces it or {@link ConsistencyTokenStore.clear}.
 * - An empty or non-string `encryptedTokenJarContents`, or an `expirationSeconds` that is not a non-negative number,
 *   makes the jar unusable: it is ignored and the one held stays.
 * - The jar is handed back exactly as it came.
 *
 * ```
 * absorb({ responseContext: { consistencyTokenJar: { encryptedTokenJarContents: 'J1', expirationSeconds: '600' } } })
 * current() → [{ encryptedTokenJarContents: 'J1', expirationSeconds: '600' }]   … 600 s later → []
 * ```
 */
export function createConsistencyTokenStore({ now }: ConsistencyTokenStoreOptions): ConsistencyTokenStore {
  let held: { jar: ConsistencyTokenJar; expiresAtMs: number } | undefined;
  return {
    absorb(responseBody) {
      const jar = (responseBody as { responseContext?: { consistencyTokenJar?: unknown } } | null | undefined)?.responseContext?.consistencyTokenJar as
        { encryptedTokenJarContents?: unknown; expirationSeconds?: unknown } | undefined;
      if (!jar || typeof jar !== 'object') return;
      const { encryptedTokenJarContents: contents, expirationSeconds } = jar;
      if (typeof contents !== 'string' || contents.length === 0) return;
      let expiresAtMs = Infinity;
      if (expirationSeconds !== undefined) {
        const seconds =
          typeof expirationSeconds === 'number'
            ? expirationSeconds
            : typeof expirationSeconds === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(expirationSeconds)
              ? Number(expirationSeconds)
              : NaN;
        if (!Number.isFinite(seconds) || seconds < 0) return;
        expiresAtMs = now() + seconds * 1000;
      }
      const kept: ConsistencyTokenJar = { encryptedTokenJarContents: contents };
      if (expirationSeconds !== undefined)
        kept.expirationSeconds = typeof expirationSeconds === 'number' ? numberText(expirationSeconds) : String(expirationSeconds);
      held = { jar: kept, expiresAtMs };
    },
    current() {
      if (held && now() >= held.expiresAtMs) held = undefined;
      return held ? [{ ...held.jar }] : [];
    },
    clear() {
      held = undefined;
    },
  };
}
