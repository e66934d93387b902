import { errorReports } from '../../../streams/errors/errorReports';
import { buildErrorReport } from '../../../streams/errors/buildErrorReport';
import { errorReportKey } from '../../../streams/errors/errorReportKey';
import type { WindowError } from '../../../streams/sources/windowErrors';
import { ERROR_REPORTS_MAX_PER_PAGE } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const pageUrl = 'https://player.test/embed/VFsunrise01';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36';
const error = (name: string, extra: Partial<WindowError> = {}): WindowError => ({
  kind: 'error',
  message: `Uncaught Error: ${name}`,
  file: 'https://player.test/app.js',
  line: name.charCodeAt(0),
  ...extra,
});
const errors = { a: error('a'), b: error('b'), c: error('c'), d: error('d'), e: error('e'), f: error('f'), g: error('g') };
const reports = Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, buildErrorReport(e, { pageUrl })]));

describe('errorReports', () => {
  it('reports at most 5 per page (production limit): the 6th distinct error is dropped and the source let go', () => {
    expect(ERROR_REPORTS_MAX_PER_PAGE).toBe(5);
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-d-e-f-g-|', errors);
      const subs = '      ^--------!      '; // let go at the 5th report, frame 9
      const expected = '  -a-b-c-d-(e|)   ';
      expectObservable(source.pipe(errorReports({ pageUrl, userAgent: CHROME }))).toBe(expected, reports);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('drops duplicates, and duplicates do not count against the cap', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // a three times, c twice: still five distinct reports a b c d e; f is the 6th distinct and never reported.
      const source = hot('-a-a-b-a-c-c-d-e-f-|', errors);
      const subs = '      ^--------------!    ';
      const expected = '  -a---b---c---d-(e|)';
      expectObservable(source.pipe(errorReports({ pageUrl, userAgent: CHROME }))).toBe(expected, reports);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('takes a smaller cap as an option', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-a-b-c-|', errors);
      const subs = '      ^----!    ';
      const expected = '  -a---(b|) ';
      expectObservable(source.pipe(errorReports({ pageUrl, userAgent: CHROME, maxReports: 2 }))).toBe(expected, reports);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('skips bots and scanners entirely: nothing reported, the window never listened to', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-|', errors);
      const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      expectObservable(source.pipe(errorReports({ pageUrl, userAgent: bot }))).toBe('|');
      expectSubscriptions(source.subscriptions).toBe([]);
    });
  });

  it('tears down: unsubscribing before the cap lets go of the source', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-c-d-|', errors);
      const unsub = '     ^----!    ';
      expectObservable(source.pipe(errorReports({ pageUrl, userAgent: CHROME })), unsub).toBe('-a-b--', reports);
      expectSubscriptions(source.subscriptions).toBe(unsub);
    });
  });

  it('completes with its source and passes on nothing but reports', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-|', errors).pipe(errorReports({ pageUrl }))).toBe('-a-|', reports);
    });
  });

  it('one error is message + file + line: another column or stack is a duplicate, another line is not', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const base = error('x', { line: 10, column: 1, stack: 'one' });
      const values = {
        x: base,
        y: { ...base, column: 99, stack: 'another path' },
        z: { ...base, line: 11 },
        w: { ...base, file: 'https://player.test/other.js' },
        // differs only beyond the 250th character: the same report once cut
        v: { ...base, message: 'q'.repeat(250) + 'tail one' },
        u: { ...base, message: 'q'.repeat(250) + 'tail two' },
      };
      const built = Object.fromEntries(Object.entries(values).map(([k, e]) => [k, buildErrorReport(e, { pageUrl })]));
      expectObservable(hot('-x-y-z-w-v-u-|', values).pipe(errorReports({ pageUrl, userAgent: CHROME }))).toBe('-x---z-w-v---|', built);
    });
    expect(errorReportKey({ message: 'm', file: 'a:1', line: undefined })).not.toBe(errorReportKey({ message: 'm', file: 'a', line: 1 }));
  });
});
