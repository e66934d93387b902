/** One message from the embed, after parsing (host-protocol §1, §5). */
export interface EmbedMessage {
  event: string;
  info: unknown;
  id: number | string;
  channel?: string;
}

/**
 * Reads `event.data` from the embed: a JSON string of an object with a string `event` and an `id` (the host routes
 * replies by id and ignores one without it). Anything else — not a string, not JSON, not an object, another channel —
 * is `undefined`, never an exception.
 */
export function parseEmbedMessage(data: unknown): EmbedMessage | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { event, info, id, channel } = value as Record<string, unknown>;
  if (typeof event !== 'string' || event === '') return undefined;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  if (channel !== undefined && channel !== 'widget') return undefined;
  return { event, info: info ?? null, id, channel: channel as string | undefined };
}
