import { migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/openDatabase';
import { platformMigrations } from '../../../server/platform/migrations';
import { createPlatformStore, WatchLaterFull } from '../../../server/platform/platformStore';

/** The store's own rules where the sample catalogue is too small to reach them through the routes. */
describe('platform store', () => {
  const open = () => {
    const db = openDatabase(':memory:');
    expect(migrate(db, 'platform', platformMigrations)).toEqual([1]);
    expect(migrate(db, 'platform', platformMigrations)).toEqual([]); // a second start changes nothing
    return { db, store: createPlatformStore(db, { now: () => 1 }) };
  };

  it('refuses an edit that would pass the watch-later bound, rolling the whole request back', () => {
    const { db, store } = open();
    expect(store.editWatchLater('acc_a', [{ add: 'VFsunrise01' }], 2)).toEqual(['VFsunrise01']);
    expect(() => store.editWatchLater('acc_a', [{ add: 'VFcitylight' }, { add: 'VFoceanwave' }], 2)).toThrow(WatchLaterFull);
    expect(store.watchLater('acc_a')).toEqual(['VFsunrise01']);
    // At the bound, a duplicate add is still a no-op, and a remove makes room.
    expect(store.editWatchLater('acc_a', [{ add: 'VFcitylight' }, { add: 'VFcitylight' }], 2)).toEqual(['VFsunrise01', 'VFcitylight']);
    expect(store.editWatchLater('acc_a', [{ remove: 'VFsunrise01' }, { add: 'VFoceanwave' }], 2)).toEqual(['VFcitylight', 'VFoceanwave']);
    expect(new WatchLaterFull(2).message).toBe('Watch later holds at most 2 videos: remove some before adding more');
    db.close();
  });

  it('merges a repeated token of the same owner only when asked, and never across owners', () => {
    const { db, store } = open();
    const record = { tokenId: 'nonce-1', videoId: 'VFsunrise01', kind: 'report' as const, reason: 'spam' };
    store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000001', true);
    store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000002', true);
    store.recordFeedback({ visitorId: 'visitor-b' }, [record], 'cpn0000000000003', true);
    store.recordFeedback({ accountId: 'acc_a' }, [record], 'cpn0000000000004', false);
    const rows = db.prepare('SELECT account_id, visitor_id, times, cpn, reason FROM feedback ORDER BY id').all();
    expect(rows).toEqual([
      { account_id: 'acc_a', visitor_id: null, times: 2, cpn: 'cpn0000000000002', reason: 'spam' },
      { account_id: null, visitor_id: 'visitor-b', times: 1, cpn: 'cpn0000000000003', reason: 'spam' },
      { account_id: 'acc_a', visitor_id: null, times: 1, cpn: 'cpn0000000000004', reason: 'spam' },
    ]);
    db.close();
  });
});
