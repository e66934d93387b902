import { buildErrorReport } from '../../../streams/errors/buildErrorReport';
import { ERROR_STACK_MAX_CHARS } from '../../../streams/timing';
import { ERROR_MESSAGE_MAX_CHARS } from '../../../streams/timing';

const pageUrl = 'https://player.test/embed/VFsunrise01?autoplay=1';

describe('buildErrorReport', () => {
  it('builds a jserror report: message, page URL, file, line, column, stack', () => {
    expect(
      buildErrorReport(
        { kind: 'error', message: 'Uncaught Error: boom', file: 'https://player.test/a.js', line: 3, column: 9, stack: 'Error: boom\n  at a.js:3:9' },
        { pageUrl },
      ),
    ).toEqual({
      type: 'jserror',
      message: 'Uncaught Error: boom',
      url: pageUrl,
      file: 'https://player.test/a.js',
      line: 3,
      column: 9,
      stack: 'Error: boom\n  at a.js:3:9',
    });
  });

  it('leaves out what the error does not have (a rejection has no file)', () => {
    expect(buildErrorReport({ kind: 'unhandledrejection', message: 'Unhandled promise rejection: nope' }, { pageUrl })).toEqual({
      type: 'jserror',
      message: 'Unhandled promise rejection: nope',
      url: pageUrl,
    });
  });

  it('cuts the message at 250 characters (249 and 250 kept) and bounds the stack', () => {
    expect(ERROR_MESSAGE_MAX_CHARS).toBe(250);
    const report = (message: string, stack?: string) => buildErrorReport({ kind: 'error', message, stack }, { pageUrl });
    expect(report('m'.repeat(249)).message).toHaveLength(249);
    expect(report('m'.repeat(250)).message).toHaveLength(250);
    expect(report('m'.repeat(251)).message).toBe('m'.repeat(250));
    expect(report('m', 's'.repeat(ERROR_STACK_MAX_CHARS + 1)).stack).toBe('s'.repeat(ERROR_STACK_MAX_CHARS));
    expect(report('m', 's'.repeat(ERROR_STACK_MAX_CHARS)).stack).toHaveLength(ERROR_STACK_MAX_CHARS);
  });

  it('takes smaller limits as options', () => {
    expect(buildErrorReport({ kind: 'error', message: 'abcdef', stack: '123456' }, { pageUrl, maxMessageChars: 3, maxStackChars: 2 })).toMatchObject({
      message: 'abc',
      stack: '12',
    });
  });
});
