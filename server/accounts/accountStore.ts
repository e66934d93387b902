import type { SqliteDatabase } from '../db/openDatabase';
import { newSessionSecret, sessionIdHashOf, sessionIdOf } from './sessionSecrets';

/** An account as the routes show it (never its password hash, except to the sign-in check). */
export interface Account {
  id: string;
  email: string;
  displayName: string;
}

/** A channel an account may act for, and why. */
export interface ChannelAccess {
  id: string;
  title: string;
  relation: 'owner' | 'manager';
}

/** A live (unexpired) session. */
export interface Session {
  /** `sessions.id_hash`. */
  idHash: string;
  /** The public id access tokens carry (`sid`). */
  sessionId: string;
  accountId: string;
  actingChannelId: string | null;
  createdAtMs: number;
  expiresAtMs: number;
}

/**
 * The accounts tables behind small, synchronous calls (better-sqlite3: a lookup is microseconds, and
 * `verifyAuthorization` stays synchronous for its callers). Expired sessions are deleted as they are met, and all at
 * once by {@link AccountStore.pruneExpiredSessions} at start-up.
 */
export interface AccountStore {
  /** The account with this email (any case), with its password hash for the sign-in check. */
  accountByEmail(email: string): (Account & { passwordHash: string }) | undefined;
  accountById(id: string): Account | undefined;
  channelTitle(channelId: string): string | undefined;
  /** The channels an account owns, then those it manages, each by title. */
  channelsOf(accountId: string): ChannelAccess[];
  canActFor(accountId: string, channelId: string): boolean;
  /** Starts a session; the secret is returned once and never stored. */
  createSession(accountId: string, lifetimeMs: number): { secret: string; session: Session };
  /** The live session a secret opens, or undefined (unknown, signed out or expired — an expired one is deleted). */
  sessionBySecret(secret: string): Session | undefined;
  /** The live session an access token's `sid` names. */
  sessionById(sessionId: string): Session | undefined;
  setActingChannel(idHash: string, channelId: string | null): void;
  /** Signs a session out; true when there was one. */
  deleteSession(idHash: string): boolean;
  /** Deletes every expired session; returns how many. */
  pruneExpiredSessions(): number;
}

type SessionRow = { id_hash: string; account_id: string; acting_channel_id: string | null; created_at_ms: number; expires_at_ms: number };
type AccountRow = { id: string; email: string; display_name: string; password_hash: string };

const toAccount = (row: AccountRow): Account => ({ id: row.id, email: row.email, displayName: row.display_name });
const toSession = (row: SessionRow): Session => ({
  idHash: row.id_hash,
  sessionId: sessionIdOf(row.id_hash),
  accountId: row.account_id,
  actingChannelId: row.acting_channel_id,
  createdAtMs: row.created_at_ms,
  expiresAtMs: row.expires_at_ms,
});
const SESSION_ID = /^[0-9a-f]{32}$/;

export function createAccountStore(db: SqliteDatabase, { now = Date.now }: { now?: () => number } = {}): AccountStore {
  const byEmail = db.prepare<[string], AccountRow>('SELECT id, email, display_name, password_hash FROM accounts WHERE email = ?');
  const byId = db.prepare<[string], AccountRow>('SELECT id, email, display_name, password_hash FROM accounts WHERE id = ?');
  const title = db.prepare<[string], { title: string }>('SELECT title FROM channels WHERE id = ?');
  const channels = db.prepare<[string, string], ChannelAccess>(`
    SELECT id, title, 'owner' AS relation FROM channels WHERE owner_account_id = ?
    UNION ALL
    SELECT c.id, c.title, 'manager' AS relation FROM channel_managers m JOIN channels c ON c.id = m.channel_id
     WHERE m.account_id = ? AND c.owner_account_id <> m.account_id
    ORDER BY relation DESC, title, id`);
  const mayAct = db.prepare<[string, string, string, string], { ok: number }>(`
    SELECT 1 AS ok FROM channels WHERE id = ? AND owner_account_id = ?
    UNION ALL
    SELECT 1 FROM channel_managers WHERE channel_id = ? AND account_id = ?
    LIMIT 1`);
  const insertSession = db.prepare('INSERT INTO sessions (id_hash, account_id, acting_channel_id, created_at_ms, expires_at_ms) VALUES (?, ?, NULL, ?, ?)');
  const sessionByHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?');
  // A range on the primary key: the rows whose hash starts with the 32 hex characters of the id ('g' sorts after 'f').
  const sessionByPrefix = db.prepare<[string, string], SessionRow>('SELECT * FROM sessions WHERE id_hash >= ? AND id_hash < ? LIMIT 2');
  const setActing = db.prepare('UPDATE sessions SET acting_channel_id = ? WHERE id_hash = ?');
  const deleteOne = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const deleteExpired = db.prepare('DELETE FROM sessions WHERE expires_at_ms <= ?');

  /** The row if it is live; an expired one is deleted on the way (lazy expiry). */
  const live = (row: SessionRow | undefined): Session | undefined => {
    if (!row) return undefined;
    if (row.expires_at_ms <= now()) {
      deleteOne.run(row.id_hash);
      return undefined;
    }
    return toSession(row);
  };

  return {
    accountByEmail(email) {
      const row = byEmail.get(email.trim());
      return row && { ...toAccount(row), passwordHash: row.password_hash };
    },
    accountById(id) {
      const row = byId.get(id);
      return row && toAccount(row);
    },
    channelTitle: (channelId) => title.get(channelId)?.title,
    channelsOf: (accountId) => channels.all(accountId, accountId).map((c) => ({ id: c.id, title: c.title, relation: c.relation })),
    canActFor: (accountId, channelId) => mayAct.get(channelId, accountId, channelId, accountId) !== undefined,
    createSession(accountId, lifetimeMs) {
      const secret = newSessionSecret();
      const idHash = sessionIdHashOf(secret);
      const createdAtMs = now();
      const expiresAtMs = createdAtMs + lifetimeMs;
      insertSession.run(idHash, accountId, createdAtMs, expiresAtMs);
      return { secret, session: { idHash, sessionId: sessionIdOf(idHash), accountId, actingChannelId: null, createdAtMs, expiresAtMs } };
    },
    sessionBySecret: (secret) => live(sessionByHash.get(sessionIdHashOf(secret))),
    sessionById(sessionId) {
      if (!SESSION_ID.test(sessionId)) return undefined;
      const rows = sessionByPrefix.all(sessionId, `${sessionId}g`);
      return rows.length === 1 ? live(rows[0]) : undefined;
    },
    setActingChannel(idHash, channelId) {
      setActing.run(channelId, idHash);
    },
    deleteSession: (idHash) => deleteOne.run(idHash).changes > 0,
    pruneExpiredSessions: () => deleteExpired.run(now()).changes,
  };
}
