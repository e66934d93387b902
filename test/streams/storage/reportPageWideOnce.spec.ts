import { reportPageWideOnce } from '../../../streams/storage/reportPageWideOnce';
import { createTestScheduler } from '../../helpers/testScheduler';

const report = (type: string, name: string) => ({ type, message: `${type} ${name}` });

describe('reportPageWideOnce', () => {
  it('a refusal or a missing IndexedDB is reported once per page, whichever database met it; per-database reports each time', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = {
        a: report('IDB_ACCESS_DENIED', 'LogsDatabaseV2'),
        c: report('IDB_ACCESS_DENIED', 'ConfigDatabase'),
        d: report('DB_DELETED_BY_MISSING_OBJECT_STORES', 'LogsRequestsStore'),
        e: report('DB_DELETED_BY_MISSING_OBJECT_STORES', 'ConfigDatabase'),
        b: report('IDB_NOT_SUPPORTED', 'LogsDatabaseV2'),
        n: report('IDB_NOT_SUPPORTED', 'ConfigDatabase'),
      };
      const reports = hot('  -a-c-d-b-e-n-|', values);
      expectObservable(reports.pipe(reportPageWideOnce())).toBe('-a---d-b-e---|', values);
      expectSubscriptions(reports.subscriptions).toBe('^------------!');
    });
  });

  it('each subscription keeps its own "once"', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const values = { a: report('IDB_ACCESS_DENIED', 'x'), c: report('IDB_ACCESS_DENIED', 'y') };
      const once = cold('-a-c|', values).pipe(reportPageWideOnce());
      expectObservable(once).toBe('-a--|', values);
      expectObservable(once).toBe('-a--|', values);
    });
  });
});
