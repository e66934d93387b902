import type { NotificationLevel } from '../../streams/platform/payloads';
import type { Kysely } from 'kysely';
import { inTransaction } from '../db/inTransaction';
import type { StateDatabase } from '../db/openStateDatabase';
import type { StateTables } from '../db/stateTables';

/** Who a feedback row belongs to: the signed-in account, or the verified visitor id of an anonymous viewer. */
export type FeedbackOwner = { accountId: string } | { visitorId: string };

export interface FeedbackRecord {
  tokenId: string;
  videoId: string;
  kind: 'not_interested' | 'report';
  reason?: string;
}

/**
 * The platform's reads and writes, each one statement or one transaction (`inTransaction`: on PostgreSQL, locked per
 * account or feedback owner, so servers sharing the database do not interleave an edit's count and its insert). The
 * same on SQLite and PostgreSQL. Inputs are validated by the routes before they get here.
 */
export function createPlatformStore(state: StateDatabase, { now }: { now: () => number }) {
  const { db } = state;
  const watchLaterOf = async (trx: Kysely<StateTables>, accountId: string) =>
    (await trx.selectFrom('watch_later').select('video_id').where('account_id', '=', accountId).orderBy('position').execute()).map((r) => r.video_id);
  const inWatchLater = async (trx: Kysely<StateTables>, accountId: string, videoId: string) =>
    (await trx.selectFrom('watch_later').select('video_id').where('account_id', '=', accountId).where('video_id', '=', videoId).executeTakeFirst()) !==
    undefined;

  return {
    /** The bell level while subscribed, `undefined` when not subscribed. */
    subscription: async (accountId: string, channelId: string): Promise<NotificationLevel | undefined> =>
      (
        await db
          .selectFrom('subscriptions')
          .select('notification_level')
          .where('account_id', '=', accountId)
          .where('channel_id', '=', channelId)
          .executeTakeFirst()
      )?.notification_level,
    /** Subscribes to every channel (idempotent: an existing subscription keeps its bell level). */
    async subscribe(accountId: string, channelIds: readonly string[]): Promise<void> {
      if (channelIds.length === 0) return;
      const at = now();
      await db
        .insertInto('subscriptions')
        .values(
          channelIds.map((channelId) => ({ account_id: accountId, channel_id: channelId, notification_level: 'personalized' as const, subscribed_at_ms: at })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    /** Unsubscribes from every channel (idempotent). */
    async unsubscribe(accountId: string, channelIds: readonly string[]): Promise<void> {
      if (channelIds.length === 0) return;
      await db.deleteFrom('subscriptions').where('account_id', '=', accountId).where('channel_id', 'in', channelIds).execute();
    },
    /** Sets the bell level of a subscription; `false` when the account is not subscribed (nothing changes then). */
    setNotificationLevel: async (accountId: string, channelId: string, level: NotificationLevel): Promise<boolean> =>
      Number(
        (
          await db
            .updateTable('subscriptions')
            .set({ notification_level: level })
            .where('account_id', '=', accountId)
            .where('channel_id', '=', channelId)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,
    watchLater: (accountId: string): Promise<string[]> => watchLaterOf(db, accountId),
    isInWatchLater: (accountId: string, videoId: string): Promise<boolean> => inWatchLater(db, accountId, videoId),
    /**
     * Applies the actions in order, all or none: `full` is thrown (and everything rolled back) when an add would take
     * the list past `maxVideos`. A duplicate add and the remove of an absent video change nothing.
     */
    editWatchLater: (accountId: string, actions: readonly ({ add: string } | { remove: string })[], maxVideos: number): Promise<string[]> =>
      inTransaction(state, { scope: 'watch-later', key: accountId }, async (trx) => {
        for (const action of actions) {
          if ('add' in action) {
            if (await inWatchLater(trx, accountId, action.add)) continue;
            const { n, last } = await trx
              .selectFrom('watch_later')
              .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('position').as('last')])
              .where('account_id', '=', accountId)
              .executeTakeFirstOrThrow();
            if (Number(n) >= maxVideos) throw new WatchLaterFull(maxVideos);
            await trx
              .insertInto('watch_later')
              .values({ account_id: accountId, video_id: action.add, position: Number(last ?? 0) + 1, added_at_ms: now() })
              .execute();
          } else {
            await trx.deleteFrom('watch_later').where('account_id', '=', accountId).where('video_id', '=', action.remove).execute();
          }
        }
        return watchLaterOf(trx, accountId);
      }),
    /**
     * Records each feedback under its owner; with `merge`, a token this owner already sent bumps the count of its row
     * instead of adding a second one. The cpn of the latest sending is kept.
     */
    recordFeedback(owner: FeedbackOwner, records: readonly FeedbackRecord[], cpn: string, merge: boolean): Promise<void> {
      const accountId = 'accountId' in owner ? owner.accountId : null;
      const visitorId = 'visitorId' in owner ? owner.visitorId : null;
      return inTransaction(state, { scope: 'feedback', key: accountId ?? `visitor:${visitorId}` }, (trx) =>
        recordFeedbackIn(trx, { accountId, visitorId }, records, { cpn, merge, now }),
      );
    },
  };
}

/** The feedback rows of one request, inside its transaction (see `recordFeedback`). */
async function recordFeedbackIn(
  trx: Kysely<StateTables>,
  { accountId, visitorId }: { accountId: string | null; visitorId: string | null },
  records: readonly FeedbackRecord[],
  { cpn, merge, now }: { cpn: string; merge: boolean; now: () => number },
): Promise<void> {
  for (const record of records) {
    const existing = merge
      ? await trx
          .selectFrom('feedback')
          .select('id')
          .where('token_id', '=', record.tokenId)
          .where('account_id', accountId === null ? 'is' : '=', accountId)
          .where('visitor_id', visitorId === null ? 'is' : '=', visitorId)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    if (existing) {
      await trx
        .updateTable('feedback')
        .set((eb) => ({ times: eb('times', '+', 1), last_at_ms: now(), cpn }))
        .where('id', '=', existing.id)
        .execute();
    } else {
      await trx
        .insertInto('feedback')
        .values({
          token_id: record.tokenId,
          account_id: accountId,
          visitor_id: visitorId,
          video_id: record.videoId,
          kind: record.kind,
          reason: record.reason ?? null,
          cpn,
          first_at_ms: now(),
          last_at_ms: now(),
        })
        .execute();
    }
  }
}

export type PlatformStore = ReturnType<typeof createPlatformStore>;

/** An edit that would take watch later past its bound (the route answers 400 with this message). */
export class WatchLaterFull extends Error {
  constructor(readonly maxVideos: number) {
    super(`Watch later holds at most ${maxVideos} videos: remove some before adding more`);
  }
}
