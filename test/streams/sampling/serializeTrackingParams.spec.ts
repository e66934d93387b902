import { serializeTrackingParams } from '../../../streams/sampling/serializeTrackingParams';
import { TRACKING_PARAMS_MAX_CHARS } from '../../../streams/timing';

describe('serializeTrackingParams', () => {
  it('keeps 499 and 500 characters and cuts 501 to 500 (production constant)', () => {
    expect(TRACKING_PARAMS_MAX_CHARS).toBe(500);
    expect(serializeTrackingParams('x'.repeat(499))).toBe('x'.repeat(499));
    expect(serializeTrackingParams('x'.repeat(500))).toBe('x'.repeat(500));
    expect(serializeTrackingParams('x'.repeat(501))).toBe('x'.repeat(500));
    expect(serializeTrackingParams('abc' + 'x'.repeat(10_000))).toHaveLength(500);
  });

  it('cuts a record at the limit too', () => {
    // 'k=' is 2 chars: values of 497, 498, 499 chars give 499, 500, 501 chars.
    expect(serializeTrackingParams({ k: 'v'.repeat(497) })).toHaveLength(499);
    expect(serializeTrackingParams({ k: 'v'.repeat(498) })).toBe('k=' + 'v'.repeat(498));
    expect(serializeTrackingParams({ k: 'v'.repeat(499) })).toBe('k=' + 'v'.repeat(498));
  });

  it('serialises a record as encoded key=value pairs in key order, skipping null and undefined', () => {
    expect(serializeTrackingParams({ a: 'x y', b: 2, c: true, d: null, e: undefined, 'f&g': 'h=i' })).toBe('a=x%20y&b=2&c=true&f%26g=h%3Di');
  });

  it('never cuts inside an escape sequence, so the result always decodes', () => {
    // '€' encodes to the 9 chars %E2%82%AC; 'k=' + 55 × 9 = 497 chars, so one more '€' would end at 506.
    const text = serializeTrackingParams({ k: '€'.repeat(60) });
    expect(text).toBe('k=' + '%E2%82%AC'.repeat(55));
    expect(decodeURIComponent(text)).toBe('k=' + '€'.repeat(55));
    for (let limit = 0; limit <= 40; limit++) {
      const cut = serializeTrackingParams({ k: 'a€😀%' }, limit);
      expect(cut.length).toBeLessThanOrEqual(limit);
      expect(() => decodeURIComponent(cut)).not.toThrow();
    }
  });

  it('never leaves half a surrogate pair at the end of a string', () => {
    const text = 'x'.repeat(499) + '😀'; // 501 UTF-16 units, the emoji at 499–500
    expect(serializeTrackingParams(text)).toBe('x'.repeat(499));
  });

  it('takes a limit override', () => {
    expect(serializeTrackingParams('abcdef', 3)).toBe('abc');
    expect(serializeTrackingParams({ a: 1, b: 2 }, 5)).toBe('a=1&b');
  });

  it('never throws on bad input', () => {
    for (const bad of [null, undefined, 42, true, Symbol('s'), ['a'], () => 1]) {
      expect(serializeTrackingParams(bad)).toBe('');
    }
    expect(serializeTrackingParams({ a: { nested: 1 }, b: 'ok' })).toBe('b=ok');
    expect(serializeTrackingParams('abc', NaN)).toBe('');
    expect(serializeTrackingParams('abc', -5)).toBe('');
    expect(serializeTrackingParams('abcdef', 2.9)).toBe('ab');
  });
});
