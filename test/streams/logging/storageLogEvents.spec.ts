import { storageLogEvents, storedLogEvents } from '../../../streams/logging/storageLogEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

/** A random source handing out `draws` in order. */
const draws =
  (...values: number[]) =>
  () =>
    values.shift() ?? 0.99;

describe('storageLogEvents', () => {
  it('samples most kinds at 20 % (one draw each: 0.1999 in, 0.2 out); quota and version errors always, without a draw', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const reports = hot('-abq', {
        a: { type: 'IDB_NOT_SUPPORTED', message: 'IndexedDB is not supported.' },
        b: { type: 'DB_DELETED_BY_MISSING_OBJECT_STORES', message: 'deleted' },
        q: { type: 'QUOTA_EXCEEDED', message: 'quota' },
      });
      expectObservable(storageLogEvents(reports, { random: draws(0.1999, 0.2) })).toBe('-a-q', {
        a: { name: 'storageEvent', payload: { type: 'IDB_NOT_SUPPORTED', message: 'IndexedDB is not supported.', sampled: true } },
        q: { name: 'storageEvent', payload: { type: 'QUOTA_EXCEEDED', message: 'quota', sampled: false } },
      });
    });
  });
});

describe('storedLogEvents', () => {
  it('samples the end of a stored request’s life at 10 % (0.0999 in, 0.1 out); a requeue is not logged', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const outcomes = hot('-abcd', {
        a: { type: 'sent', request: { sendCount: 1 } },
        b: { type: 'sent', request: { sendCount: 1 } },
        c: { type: 'failed', outcome: 'requeued', request: { sendCount: 1 } },
        d: { type: 'failed', outcome: 'dropped', request: { sendCount: 2 } },
      });
      expectObservable(storedLogEvents(outcomes, { random: draws(0.0999, 0.1, 0.05) })).toBe('-a--d', {
        a: { name: 'storedLogRequest', payload: { action: 'resent', sendCount: 1 } },
        d: { name: 'storedLogRequest', payload: { action: 'dropped', sendCount: 2 } },
      });
    });
  });
});
