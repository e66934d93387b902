import { sql, type Expression, type SqlBool } from 'kysely';
import type { StateDatabase } from '../db/openStateDatabase';
import type { StateTables } from '../db/stateTables';
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
 * The accounts tables behind small asynchronous calls, the same on SQLite and PostgreSQL (`StateDatabase`). Expired
 * sessions are deleted as they are met, and all at once by {@link AccountStore.pruneExpiredSessions} at start-up.
 */
export interface AccountStore {
  /** The account with this email (any ASCII case), with its password hash for the sign-in check. */
  accountByEmail(email: string): Promise<(Account & { passwordHash: string }) | undefined>;
  accountById(id: string): Promise<Account | undefined>;
  channelTitle(channelId: string): Promise<string | undefined>;
  /** The channels an account owns, then those it manages, each by title. */
  channelsOf(accountId: string): Promise<ChannelAccess[]>;
  canActFor(accountId: string, channelId: string): Promise<boolean>;
  /** Starts a session; the secret is returned once and never stored. */
  createSession(accountId: string, lifetimeMs: number): Promise<{ secret: string; session: Session }>;
  /** The live session a secret opens, or undefined (unknown, signed out or expired — an expired one is deleted). */
  sessionBySecret(secret: string): Promise<Session | undefined>;
  /** The live session an access token's `sid` names. */
  sessionById(sessionId: string): Promise<Session | undefined>;
  setActingChannel(idHash: string, channelId: string | null): Promise<void>;
  /** Signs a session out; true when there was one. */
  deleteSession(idHash: string): Promise<boolean>;
  /** Deletes every expired session; returns how many. */
  pruneExpiredSessions(): Promise<number>;
}

type SessionRow = StateTables['sessions'];
type AccountRow = StateTables['accounts'];

const toAccount = (row: Pick<AccountRow, 'id' | 'email' | 'display_name'>): Account => ({ id: row.id, email: row.email, displayName: row.display_name });
const toSession = (row: SessionRow): Session => ({
  idHash: row.id_hash,
  sessionId: sessionIdOf(row.id_hash),
  accountId: row.account_id,
  actingChannelId: row.acting_channel_id,
  createdAtMs: row.created_at_ms,
  expiresAtMs: row.expires_at_ms,
});
const SESSION_ID = /^[0-9a-f]{32}$/;

/**
 * The email lookup of each engine, each served by its unique index: SQLite's column compares `NOCASE`; PostgreSQL's
 * index is on `lower(email)` (ASCII folding under the column's `"C"` collation).
 */
export function emailIs(state: StateDatabase, email: string): Expression<SqlBool> {
  // The given email folds under "C" too, whatever the database's own collation, so both sides fold ASCII alone.
  return state.engine === 'sqlite' ? sql<SqlBool>`email = ${email}` : sql<SqlBool>`lower(email) = lower(CAST(${email} AS TEXT) COLLATE "C")`;
}

export function createAccountStore(state: StateDatabase, { now = Date.now }: { now?: () => number } = {}): AccountStore {
  const { db } = state;
  const deleteOne = async (idHash: string) => Number((await db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst()).numDeletedRows);

  /** The row if it is live; an expired one is deleted on the way (lazy expiry). */
  const live = async (row: SessionRow | undefined): Promise<Session | undefined> => {
    if (!row) return undefined;
    if (row.expires_at_ms <= now()) {
      await deleteOne(row.id_hash);
      return undefined;
    }
    return toSession(row);
  };

  return {
    async accountByEmail(email) {
      const row = await db
        .selectFrom('accounts')
        .select(['id', 'email', 'display_name', 'password_hash'])
        .where(emailIs(state, email.trim()))
        .executeTakeFirst();
      return row && { ...toAccount(row), passwordHash: row.password_hash };
    },
    async accountById(id) {
      const row = await db.selectFrom('accounts').select(['id', 'email', 'display_name']).where('id', '=', id).executeTakeFirst();
      return row && toAccount(row);
    },
    channelTitle: async (channelId) => (await db.selectFrom('channels').select('title').where('id', '=', channelId).executeTakeFirst())?.title,
    async channelsOf(accountId) {
      const rows = await db
        .selectFrom('channels')
        .select(['id', 'title', sql<ChannelAccess['relation']>`'owner'`.as('relation')])
        .where('owner_account_id', '=', accountId)
        .unionAll(
          db
            .selectFrom('channel_managers as m')
            .innerJoin('channels as c', 'c.id', 'm.channel_id')
            .select(['c.id', 'c.title', sql<ChannelAccess['relation']>`'manager'`.as('relation')])
            .where('m.account_id', '=', accountId)
            .whereRef('c.owner_account_id', '<>', 'm.account_id'),
        )
        .orderBy('relation', 'desc')
        .orderBy('title')
        .orderBy('id')
        .execute();
      return rows.map((c) => ({ id: c.id, title: c.title, relation: c.relation }));
    },
    async canActFor(accountId, channelId) {
      const row = await db
        .selectFrom('channels')
        .select(sql<number>`1`.as('ok'))
        .where('id', '=', channelId)
        .where('owner_account_id', '=', accountId)
        .unionAll(
          db
            .selectFrom('channel_managers')
            .select(sql<number>`1`.as('ok'))
            .where('channel_id', '=', channelId)
            .where('account_id', '=', accountId),
        )
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async createSession(accountId, lifetimeMs) {
      const secret = newSessionSecret();
      const idHash = sessionIdHashOf(secret);
      const createdAtMs = now();
      const expiresAtMs = createdAtMs + lifetimeMs;
      await db
        .insertInto('sessions')
        .values({ id_hash: idHash, account_id: accountId, acting_channel_id: null, created_at_ms: createdAtMs, expires_at_ms: expiresAtMs })
        .execute();
      return { secret, session: { idHash, sessionId: sessionIdOf(idHash), accountId, actingChannelId: null, createdAtMs, expiresAtMs } };
    },
    sessionBySecret: async (secret) => live(await db.selectFrom('sessions').selectAll().where('id_hash', '=', sessionIdHashOf(secret)).executeTakeFirst()),
    async sessionById(sessionId) {
      if (!SESSION_ID.test(sessionId)) return undefined;
      // A range on the primary key: the rows whose hash starts with the 32 hex characters of the id ('g' sorts after
      // 'f' byte by byte, the keys' collation on both engines).
      const rows = await db.selectFrom('sessions').selectAll().where('id_hash', '>=', sessionId).where('id_hash', '<', `${sessionId}g`).limit(2).execute();
      return rows.length === 1 ? live(rows[0]) : undefined;
    },
    async setActingChannel(idHash, channelId) {
      await db.updateTable('sessions').set({ acting_channel_id: channelId }).where('id_hash', '=', idHash).execute();
    },
    deleteSession: async (idHash) => (await deleteOne(idHash)) > 0,
    pruneExpiredSessions: async () => Number((await db.deleteFrom('sessions').where('expires_at_ms', '<=', now()).executeTakeFirst()).numDeletedRows),
  };
}
