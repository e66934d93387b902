import { migrateState } from '../../../server/db/migrateState';
import type { StateDatabase } from '../../../server/db/openStateDatabase';
import { platformMigrations } from '../../../server/platform/migrations';
import { createPlatformStore, WatchLaterFull } from '../../../server/platform/platformStore';
import type { FreshState, StateFixture } from './stateFixture';

const CHANNEL_A = 'UCvidframeSamples0000000';
const CHANNEL_B = 'UCvidframeStudio00000000';

/** The platform's rules (subscriptions and bells, watch later, feedback) on one engine. */
export function describePlatformConformance(name: string, fixture: StateFixture): void {
  describe(`${name}: platform state`, () => {
    let fresh: FreshState;
    let state: StateDatabase;
    const storeOf = (on: StateDatabase) => createPlatformStore(on, { now: () => 1 });
    beforeEach(async () => {
      fresh = await fixture.fresh();
      state = await fresh.open();
      await migrateState(state, 'platform', platformMigrations);
    });
    afterEach(() => fresh.cleanup());

    it('subscribes idempotently with a personalized bell, changes the bell only while subscribed, and unsubscribes', async () => {
      const store = storeOf(state);
      expect(await store.subscription('acc_a', CHANNEL_A)).toBeUndefined();
      expect(await store.setNotificationLevel('acc_a', CHANNEL_A, 'all')).toBe(false);
      expect(await store.subscription('acc_a', CHANNEL_A)).toBeUndefined();
      await store.subscribe('acc_a', [CHANNEL_A, CHANNEL_B]);
      expect(await store.subscription('acc_a', CHANNEL_A)).toBe('personalized');
      expect(await store.setNotificationLevel('acc_a', CHANNEL_A, 'none')).toBe(true);
      await store.subscribe('acc_a', [CHANNEL_A]); // again: keeps its bell
      expect(await store.subscription('acc_a', CHANNEL_A)).toBe('none');
      expect(await store.subscription('acc_b', CHANNEL_A)).toBeUndefined();
      await store.unsubscribe('acc_a', [CHANNEL_A]);
      await store.unsubscribe('acc_a', [CHANNEL_A]);
      expect(await store.subscription('acc_a', CHANNEL_A)).toBeUndefined();
      expect(await store.subscription('acc_a', CHANNEL_B)).toBe('personalized');
    });

    it('refuses an edit that would pass the watch-later bound, rolling the whole request back', async () => {
      const store = storeOf(state);
      expect(await store.editWatchLater('acc_a', [{ add: 'VFsunrise01' }], 2)).toEqual(['VFsunrise01']);
      await expect(store.editWatchLater('acc_a', [{ add: 'VFcitylight' }, { add: 'VFoceanwave' }], 2)).rejects.toThrow(WatchLaterFull);
      expect(await store.watchLater('acc_a')).toEqual(['VFsunrise01']);
      // At the bound, a duplicate add is still a no-op, and a remove makes room; a re-add goes last.
      expect(await store.editWatchLater('acc_a', [{ add: 'VFcitylight' }, { add: 'VFcitylight' }], 2)).toEqual(['VFsunrise01', 'VFcitylight']);
      expect(await store.editWatchLater('acc_a', [{ remove: 'VFsunrise01' }, { add: 'VFoceanwave' }], 2)).toEqual(['VFcitylight', 'VFoceanwave']);
      expect(await store.editWatchLater('acc_a', [{ remove: 'VFcitylight' }, { add: 'VFcitylight' }], 2)).toEqual(['VFoceanwave', 'VFcitylight']);
      expect(await store.isInWatchLater('acc_a', 'VFoceanwave')).toBe(true);
      expect(await store.isInWatchLater('acc_b', 'VFoceanwave')).toBe(false);
      expect(new WatchLaterFull(2).message).toBe('Watch later holds at most 2 videos: remove some before adding more');
    });

    it('keeps the watch-later bound when adds arrive at once', async () => {
      const stores = fixture.concurrentConnections ? [storeOf(state), storeOf(await fresh.open())] : [storeOf(state)];
      const videos = ['VFsunrise01', 'VFcitylight', 'VFoceanwave', 'VFforest001', 'VFdesert001'];
      const answers = await Promise.allSettled(videos.map((v, i) => stores[i % stores.length].editWatchLater('acc_a', [{ add: v }], 3)));
      expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
      expect(answers.filter((a) => a.status === 'rejected' && a.reason instanceof WatchLaterFull)).toHaveLength(2);
      expect(await stores[0].watchLater('acc_a')).toHaveLength(3);
    });

    it('merges a repeated token of the same owner only when asked, and never across owners', async () => {
      const store = storeOf(state);
      const record = { tokenId: 'nonce-1', videoId: 'VFsunrise01', kind: 'report' as const, reason: 'spam' };
      await store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000001', true);
      await store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000002', true);
      await store.recordFeedback({ visitorId: 'visitor-b' }, [record], 'cpn0000000000003', true);
      await store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000004', false);
      await store.recordFeedback(
        { visitorId: 'visitor-b' },
        [{ tokenId: 'nonce-2', videoId: 'VFsunrise01', kind: 'not_interested' }],
        'cpn0000000000005',
        true,
      );
      const rows = await state.db.selectFrom('feedback').select(['account_id', 'visitor_id', 'times', 'cpn', 'reason', 'kind']).orderBy('id').execute();
      expect(rows).toEqual([
        { account_id: 'acc_a', visitor_id: null, times: 2, cpn: 'cpn0000000000002', reason: 'spam', kind: 'report' },
        { account_id: null, visitor_id: 'visitor-b', times: 1, cpn: 'cpn0000000000003', reason: 'spam', kind: 'report' },
        { account_id: 'acc_a', visitor_id: null, times: 1, cpn: 'cpn0000000000004', reason: 'spam', kind: 'report' },
        { account_id: null, visitor_id: 'visitor-b', times: 1, cpn: 'cpn0000000000005', reason: null, kind: 'not_interested' },
      ]);
    });
  });
}
