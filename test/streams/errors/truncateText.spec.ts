import { truncateText } from '../../../streams/errors/truncateText';
import { ERROR_MESSAGE_MAX_CHARS } from '../../../streams/timing';

describe('truncateText', () => {
  it('keeps 249 and 250 characters, cuts 251 to 250 (production limit)', () => {
    expect(ERROR_MESSAGE_MAX_CHARS).toBe(250);
    const of = (n: number) => 'x'.repeat(n - 1) + 'E'; // the last character tells whether it was kept
    expect(truncateText(of(249), ERROR_MESSAGE_MAX_CHARS)).toBe(of(249));
    expect(truncateText(of(250), ERROR_MESSAGE_MAX_CHARS)).toBe(of(250));
    expect(truncateText(of(251), ERROR_MESSAGE_MAX_CHARS)).toBe('x'.repeat(250));
    expect(truncateText('x'.repeat(10_000), ERROR_MESSAGE_MAX_CHARS)).toHaveLength(250);
  });

  it('never splits a surrogate pair: the character that does not fit whole is dropped whole', () => {
    expect(truncateText('abc😀', 4)).toBe('abc');
    expect(truncateText('ab😀c', 4)).toBe('ab😀');
    expect(truncateText('😀😀', 3)).toBe('😀');
  });

  it('copes with odd limits: 0, negative, fractional', () => {
    expect(truncateText('abc', 0)).toBe('');
    expect(truncateText('abc', -1)).toBe('');
    expect(truncateText('abcdef', 2.9)).toBe('ab');
    expect(truncateText('', 5)).toBe('');
  });
});
