import { from, lastValueFrom, of, throwError, toArray } from 'rxjs';
import { sendErrorReports, type ErrorReportOutcome } from '../../../streams/errors/sendErrorReports';
import type { ErrorReport } from '../../../streams/errors/buildErrorReport';
import { createTestScheduler } from '../../helpers/testScheduler';

const report = (message: string): ErrorReport => ({ type: 'jserror', message, url: 'https://player.test/embed/x' });
const reports = { a: report('a'), b: report('b'), c: report('c') };

describe('sendErrorReports', () => {
  it('sends each report and says sent or failed; a failing send never errors the stream', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const source = hot('-a----b----c--|', reports);
      const sendA = cold(' --(r|)');
      const sendB = cold('      #', undefined, new Error('offline'));
      const sendC = cold('           ---r|');
      const byMessage: Record<string, ReturnType<typeof cold>> = { a: sendA, b: sendB, c: sendC };
      const outcomes: Record<string, ErrorReportOutcome> = {
        s: { report: reports.a, outcome: 'sent' },
        f: { report: reports.b, outcome: 'failed', error: new Error('offline') },
        t: { report: reports.c, outcome: 'sent' },
      };
      // a: sent when its send completes (1 + 2); b fails at once (6); c completes at 11 + 4 = 15, after the source.
      const expected = '---s--f--------(t|)';
      expectObservable(source.pipe(sendErrorReports((r) => byMessage[r.message]))).toBe(expected, outcomes);
      expectSubscriptions(sendA.subscriptions).toBe(' -^-!');
      expectSubscriptions(sendB.subscriptions).toBe(' ------(^!)');
      expectSubscriptions(sendC.subscriptions).toBe(' -----------^---!');
    });
  });

  it('a send that throws, or returns nothing (a beacon), is an outcome too', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const boom = new Error('sendBeacon is not a function');
      const send = (r: ErrorReport) => {
        if (r.message === 'a') throw boom;
      };
      expectObservable(cold('-a-b-|', reports).pipe(sendErrorReports(send))).toBe('-f-s-|', {
        f: { report: reports.a, outcome: 'failed', error: boom },
        s: { report: reports.b, outcome: 'sent' },
      });
    });
  });

  it('unsubscribing lets go of the sends in flight', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const send = cold('-----r|');
      expectObservable(hot('-a-|', reports).pipe(sendErrorReports(() => send)), '^--!').toBe('----');
      expectSubscriptions(send.subscriptions).toBe('-^-!');
    });
  });

  it('a rejected promise becomes a failed outcome, never an unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const outcomes = await lastValueFrom(
        of(reports.a, reports.b).pipe(
          sendErrorReports((r) => (r.message === 'a' ? Promise.reject(new Error('network down')) : Promise.resolve({ status: 204 }))),
          toArray(),
        ),
      );
      expect(outcomes).toEqual([
        { report: reports.a, outcome: 'failed', error: new Error('network down') },
        { report: reports.b, outcome: 'sent' },
      ]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('an observable that errors after values is still one failed outcome', async () => {
    const outcomes = await lastValueFrom(
      of(reports.a).pipe(
        sendErrorReports(() => from(throwError(() => 'no'))),
        toArray(),
      ),
    );
    expect(outcomes).toEqual([{ report: reports.a, outcome: 'failed', error: 'no' }]);
  });
});
