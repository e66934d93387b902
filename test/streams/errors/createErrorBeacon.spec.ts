import { lastValueFrom, of, toArray } from 'rxjs';
import { createErrorBeacon, ERROR_REPORT_PATH } from '../../../streams/errors/createErrorBeacon';
import { errorReportForm } from '../../../streams/errors/errorReportForm';
import { sendErrorReports } from '../../../streams/errors/sendErrorReports';
import type { ErrorReport } from '../../../streams/errors/buildErrorReport';

const full: ErrorReport = {
  type: 'jserror',
  message: 'Uncaught Error: boom & more',
  url: 'https://p.test/embed/x?a=1',
  file: 'https://p.test/app.js',
  line: 4,
  column: 2,
  stack: 'Error: boom\n at app.js:4:2',
};
const bare: ErrorReport = { type: 'jserror', message: 'Unhandled promise rejection: x', url: 'https://p.test/embed/x' };

describe('errorReportForm', () => {
  it('is the form the collector reads, without the fields a report lacks', () => {
    expect(Object.fromEntries(errorReportForm(full))).toEqual({
      type: 'jserror',
      message: full.message,
      url: full.url,
      file: full.file,
      line: '4',
      column: '2',
      stack: full.stack,
    });
    expect(Object.fromEntries(errorReportForm(bare))).toEqual({ type: 'jserror', message: bare.message, url: bare.url });
    expect(errorReportForm(bare).toString()).toBe('type=jserror&message=Unhandled+promise+rejection%3A+x&url=https%3A%2F%2Fp.test%2Fembed%2Fx');
  });
});

describe('createErrorBeacon', () => {
  it('uses sendBeacon to the root-relative /error_204 when the browser has it and accepts', () => {
    const sendBeacon = jest.fn(() => true);
    const fetch = jest.fn(() => Promise.resolve());
    expect(createErrorBeacon({ sendBeacon, fetch })(full)).toBeUndefined();
    expect(ERROR_REPORT_PATH).toBe('/error_204');
    expect(sendBeacon).toHaveBeenCalledWith('/error_204', errorReportForm(full));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('falls back to fetch with keepalive when there is no beacon or it refuses the report', () => {
    const fetch = jest.fn(() => Promise.resolve({ status: 204 }));
    const refusing = jest.fn(() => false);
    for (const transport of [{ fetch }, { sendBeacon: refusing, fetch }]) createErrorBeacon(transport)(bare);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledWith('/error_204', { method: 'POST', body: errorReportForm(bare), keepalive: true, credentials: 'same-origin' });
  });

  it('with neither, fails clearly, and through sendErrorReports that is a failed outcome', async () => {
    expect(() => createErrorBeacon({})(bare)).toThrow('neither sendBeacon nor fetch');
    const outcomes = await lastValueFrom(
      of(bare).pipe(sendErrorReports(createErrorBeacon({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) })), toArray()),
    );
    expect(outcomes).toEqual([{ report: bare, outcome: 'failed', error: new TypeError('Failed to fetch') }]);
  });
});
