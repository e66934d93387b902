import type { NotificationLevel } from '../../streams/platform/payloads';
import type { SqliteDatabase } from '../db/openDatabase';

/** Who a feedback row belongs to: the signed-in account, or the verified visitor id of an anonymous viewer. */
export type FeedbackOwner = { accountId: string } | { visitorId: string };

export interface FeedbackRecord {
  tokenId: string;
  videoId: string;
  kind: 'not_interested' | 'report';
  reason?: string;
}

/**
 * The platform's reads and writes, each one statement or one transaction (better-sqlite3 is synchronous, so a
 * transaction is never interleaved with another request's). Inputs are validated by the routes before they get here.
 */
export function createPlatformStore(db: SqliteDatabase, { now }: { now: () => number }) {
  const subscriptionOf = db.prepare<[string, string], { level: NotificationLevel }>(
    'SELECT notification_level AS level FROM subscriptions WHERE account_id = ? AND channel_id = ?',
  );
  const subscribe = db.prepare(
    "INSERT INTO subscriptions (account_id, channel_id, notification_level, subscribed_at_ms) VALUES (?, ?, 'personalized', ?) ON CONFLICT DO NOTHING",
  );
  const unsubscribe = db.prepare('DELETE FROM subscriptions WHERE account_id = ? AND channel_id = ?');
  const setLevel = db.prepare('UPDATE subscriptions SET notification_level = ? WHERE account_id = ? AND channel_id = ?');
  const watchLaterIds = db.prepare<[string], { video_id: string }>('SELECT video_id FROM watch_later WHERE account_id = ? ORDER BY position');
  const inWatchLater = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM watch_later WHERE account_id = ? AND video_id = ?');
  const watchLaterCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM watch_later WHERE account_id = ?');
  const addToWatchLater = db.prepare(
    'INSERT INTO watch_later (account_id, video_id, position, added_at_ms) SELECT @accountId, @videoId, coalesce(max(position), 0) + 1, @at FROM watch_later WHERE account_id = @accountId ON CONFLICT DO NOTHING',
  );
  const removeFromWatchLater = db.prepare('DELETE FROM watch_later WHERE account_id = ? AND video_id = ?');
  const findFeedback = db.prepare<[string, string | null, string | null], { id: number }>(
    'SELECT id FROM feedback WHERE token_id = ? AND account_id IS ? AND visitor_id IS ? ORDER BY id LIMIT 1',
  );
  const mergeFeedback = db.prepare('UPDATE feedback SET times = times + 1, last_at_ms = ?, cpn = ? WHERE id = ?');
  const insertFeedback = db.prepare(
    'INSERT INTO feedback (token_id, account_id, visitor_id, video_id, kind, reason, cpn, first_at_ms, last_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );

  return {
    /** The bell level while subscribed, `undefined` when not subscribed. */
    subscription: (accountId: string, channelId: string): NotificationLevel | undefined => subscriptionOf.get(accountId, channelId)?.level,
    /** Subscribes to every channel (idempotent: an existing subscription keeps its bell level). */
    subscribe: db.transaction((accountId: string, channelIds: readonly string[]) => {
      for (const channelId of channelIds) subscribe.run(accountId, channelId, now());
    }),
    /** Unsubscribes from every channel (idempotent). */
    unsubscribe: db.transaction((accountId: string, channelIds: readonly string[]) => {
      for (const channelId of channelIds) unsubscribe.run(accountId, channelId);
    }),
    /** Sets the bell level of a subscription; `false` when the account is not subscribed (nothing changes then). */
    setNotificationLevel: (accountId: string, channelId: string, level: NotificationLevel): boolean => setLevel.run(level, accountId, channelId).changes > 0,
    watchLater: (accountId: string): string[] => watchLaterIds.all(accountId).map((r) => r.video_id),
    isInWatchLater: (accountId: string, videoId: string): boolean => inWatchLater.get(accountId, videoId) !== undefined,
    /**
     * Applies the actions in order, all or none: `full` is thrown (and everything rolled back) when an add would take
     * the list past `maxVideos`. A duplicate add and the remove of an absent video change nothing.
     */
    editWatchLater: db.transaction((accountId: string, actions: readonly ({ add: string } | { remove: string })[], maxVideos: number): string[] => {
      for (const action of actions) {
        if ('add' in action) {
          if (watchLaterCount.get(accountId)!.n >= maxVideos && inWatchLater.get(accountId, action.add) === undefined) throw new WatchLaterFull(maxVideos);
          addToWatchLater.run({ accountId, videoId: action.add, at: now() });
        } else {
          removeFromWatchLater.run(accountId, action.remove);
        }
      }
      return watchLaterIds.all(accountId).map((r) => r.video_id);
    }),
    /**
     * Records each feedback under its owner; with `merge`, a token this owner already sent bumps the count of its row
     * instead of adding a second one. The cpn of the latest sending is kept.
     */
    recordFeedback: db.transaction((owner: FeedbackOwner, records: readonly FeedbackRecord[], cpn: string, merge: boolean) => {
      const accountId = 'accountId' in owner ? owner.accountId : null;
      const visitorId = 'visitorId' in owner ? owner.visitorId : null;
      for (const record of records) {
        const existing = merge ? findFeedback.get(record.tokenId, accountId, visitorId) : undefined;
        if (existing) mergeFeedback.run(now(), cpn, existing.id);
        else insertFeedback.run(record.tokenId, accountId, visitorId, record.videoId, record.kind, record.reason ?? null, cpn, now(), now());
      }
    }),
  };
}

export type PlatformStore = ReturnType<typeof createPlatformStore>;

/** An edit that would take watch later past its bound (the route answers 400 with this message). */
export class WatchLaterFull extends Error {
  constructor(readonly maxVideos: number) {
    super(`Watch later holds at most ${maxVideos} videos: remove some before adding more`);
  }
}
