import { reportHandledError, startErrorReporting } from '../../../../src/embed/services/errorReporting';
import type { ErrorReport } from '../../../../streams/errors/buildErrorReport';

describe('reportHandledError', () => {
  it('does nothing where error reporting was not started, and says so', () => {
    expect(reportHandledError(window, new Error('Unable to load Botguard'))).toBe(false);
  });

  it('sends a handled error through the page reporting: once, as a jserror, with the same per-page de-duplication', () => {
    const sent: ErrorReport[] = [];
    const reporting = startErrorReporting(window, { send: (report) => void sent.push(report) });
    try {
      expect(reportHandledError(window, new Error('Unable to load Botguard'))).toBe(true);
      reportHandledError(window, new Error('Unable to load Botguard'));
      reportHandledError(window, 'Cannot initialize botguard without program');
      expect(sent.map((r) => [r.type, r.message])).toEqual([
        ['jserror', 'Error: Unable to load Botguard'],
        ['jserror', 'Cannot initialize botguard without program'],
      ]);
      expect(sent[0]!.stack).toContain('Unable to load Botguard');
      expect(sent[0]!.url).toBe(window.location.href);
    } finally {
      reporting.stop();
    }
    // Stopped: nothing is taken any more.
    expect(reportHandledError(window, new Error('late'))).toBe(false);
    expect(sent).toHaveLength(2);
  });
});
