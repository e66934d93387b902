export interface TrustedPeer {
  /** The embed's origin: scheme, host and port. */
  origin: string;
  /** The embed's window (`iframe.contentWindow`); `null` while the iframe is detached, which trusts nothing. */
  source: MessageEventSource | null;
}

/**
 * The host's origin check (spec §5): a message counts only when it comes from the iframe's own window and that
 * window's origin is the embed origin. Another frame on the same origin, or the same frame after it navigated away
 * to another origin, is ignored.
 */
export function isTrustedMessage(event: Pick<MessageEvent, 'origin' | 'source'>, peer: TrustedPeer): boolean {
  return peer.source !== null && event.source === peer.source && event.origin === peer.origin;
}
