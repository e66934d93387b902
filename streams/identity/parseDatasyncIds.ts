/** Spec §8: the message when the datasync ids answer names no id. */
export const DATASYNC_ID_NOT_SET_MESSAGE = 'Datasync ID not set';

/** Who a session is, from its datasync id (spec §6, §7). */
export interface DatasyncIds {
  /** The datasync id as the server sent it. */
  datasyncId: string;
  /** The account the session acts for (the channel's, when delegated). */
  userId: string;
  /** The page id of a delegated session: present only when the session acts for another account. */
  delegatedSessionId?: string;
}

/**
 * Reads the datasync ids answer (spec §7 "GET datasync IDs": a response field listing ids): the first of
 * `datasyncIds`.
 *
 * - `"<pageId>||<userId>"` → delegated: `delegatedSessionId` is the page id;
 * - `"<userId>||"` → not delegated;
 * - an id without `||` is taken as a plain user id.
 *
 * @throws Error `Datasync ID not set` (spec §8, exact) when the field is absent, not an array, or its first entry is
 *   not a string naming a user (empty, `||`, `pageId||` with nothing before it…).
 */
export function parseDatasyncIds(body: unknown): DatasyncIds {
  const notSet = () => new Error(DATASYNC_ID_NOT_SET_MESSAGE);
  const ids = (body as { datasyncIds?: unknown } | null | undefined)?.datasyncIds;
  if (!Array.isArray(ids)) throw notSet();
  const datasyncId: unknown = ids[0];
  if (typeof datasyncId !== 'string' || datasyncId.length === 0) throw notSet();
  const separator = datasyncId.indexOf('||');
  if (separator === -1) return { datasyncId, userId: datasyncId };
  const first = datasyncId.slice(0, separator);
  const second = datasyncId.slice(separator + 2);
  if (second.length > 0) {
    if (first.length === 0) throw notSet();
    return { datasyncId, userId: second, delegatedSessionId: first };
  }
  if (first.length === 0) throw notSet();
  return { datasyncId, userId: first };
}
