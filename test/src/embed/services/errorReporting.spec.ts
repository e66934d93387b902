import { startErrorReporting } from '../../../../src/embed/services/errorReporting';
import type { ErrorReport } from '../../../../streams/errors/buildErrorReport';
import type { ErrorReportOutcome } from '../../../../streams/errors/sendErrorReports';

describe('startErrorReporting: handled errors (report)', () => {
  it('reports a caught error through the same send, next to the uncaught ones, capped and de-duplicated with them', () => {
    const sent: ErrorReport[] = [];
    const outcomes: ErrorReportOutcome[] = [];
    const reporting = startErrorReporting(window, { send: (report) => void sent.push(report) });
    reporting.outcome$.subscribe((o) => outcomes.push(o));

    reporting.report(new Error('API fetch failed'), 'platform feedback');
    reporting.report(new Error('API fetch failed'), 'platform feedback'); // a duplicate: dropped, does not count
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught Error: boom', error: new Error('boom') }));
    for (let i = 1; i <= 5; i++) reporting.report(new Error(`failure ${i}`));

    expect(sent.map((r) => r.message)).toEqual([
      'platform feedback: Error: API fetch failed',
      'Uncaught Error: boom',
      'Error: failure 1',
      'Error: failure 2',
      'Error: failure 3',
    ]);
    expect(sent[0]).toMatchObject({ type: 'jserror', url: window.location.href, stack: expect.stringContaining('API fetch failed') });
    expect(outcomes.map((o) => o.outcome)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    reporting.stop();
  });

  it('never throws: not for a hostile value, not after stop', () => {
    const sent: ErrorReport[] = [];
    const reporting = startErrorReporting(window, { send: (report) => void sent.push(report) });
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(() => reporting.report(hostile)).not.toThrow();
    reporting.stop();
    expect(() => reporting.report(new Error('late'))).not.toThrow();
    expect(sent).toHaveLength(1);
  });
});
