import type { HostMessageEvent } from '../sources/hostMessages';

/**
 * The host window and origin the channel is locked to (host-protocol §3.2). `origin` is null for an opaque origin (a
 * sandboxed or `file:` host, whose messages say `"null"`): nothing but its window identifies such a host, so the lock
 * then holds by the window alone, the origin is never trusted, and replies go to `"*"`.
 */
export interface HostLock {
  origin: string | null;
  source: unknown;
}

export interface HostGateOptions {
  /** The `origin` player variable, trimmed: before the lock only this exact origin may talk; absent or empty lets any. */
  originParam?: string | null;
  /** Longest message text read ({@link HOST_MESSAGE_MAX_CHARS}); a longer one is refused unread. */
  maxChars: number;
}

/**
 * The gate's answer. Accepted: the message's parsed JSON value (its shape is read after the gate: `hostInboundOf`) and
 * the channel's lock after it, which is the lock given, or, when there was none, the one a `listening` takes (null
 * for any other message before the lock).
 */
export type HostGateDecision = { accepted: false } | { accepted: true; value: unknown; lock: HostLock | null };

/** The longest message text the embed reads; real protocol messages are a few hundred characters. */
export const HOST_MESSAGE_MAX_CHARS = 100_000;

/**
 * Whether the embed accepts a host message (spec §5: "the origin matches the expected origin, the source matches the
 * registered host window when one exists, and the data is a JSON string"; host-protocol §1–§3), and how the lock is
 * taken:
 * - a message without a sending window or without a string origin is refused;
 * - the data must be a non-empty string of at most `maxChars` characters that parses as JSON;
 * - once locked, only the locked window may talk, and only from the locked origin (any origin when the lock's is
 *   opaque: the window is the host);
 * - before the lock, with an `origin` parameter, only that exact origin (scheme, host and port) may talk;
 * - the first accepted `listening` (an object whose own `event` is `listening`) locks the channel to its window and
 *   origin, the string `"null"` becoming the opaque origin `null`.
 *
 * Every reader of host messages decides through this one function: the protocol (`stepHostProtocol`), the command
 * receipts (`hostCommandReceipts`) and the page's inline responder (`earlyHandshake.ts`), which runs it as its text,
 * so it uses nothing from outside itself: no imports, no helpers, no constants of this module.
 */
export function hostGate(message: HostMessageEvent, lock: HostLock | null, options: HostGateOptions): HostGateDecision {
  const source = message.source;
  const origin = message.origin;
  const data = message.data;
  if (source === null || source === undefined || typeof origin !== 'string') return { accepted: false };
  if (typeof data !== 'string' || data.length === 0 || data.length > options.maxChars) return { accepted: false };
  if (lock) {
    if (source !== lock.source || (lock.origin !== null && origin !== lock.origin)) return { accepted: false };
  } else if (options.originParam && origin !== options.originParam) return { accepted: false };
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (e) {
    return { accepted: false };
  }
  if (lock) return { accepted: true, value: value, lock: lock };
  const listening =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.prototype.hasOwnProperty.call(value, 'event') &&
    (value as { event: unknown }).event === 'listening';
  return { accepted: true, value: value, lock: listening ? { origin: origin === 'null' ? null : origin, source: source } : null };
}
