import { negotiateEncoding } from '../../../server/static/negotiateEncoding';

describe('negotiateEncoding', () => {
  test.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['*, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=nonsense, gzip', 'gzip'],
    [' , ;q=1, br', 'br'],
  ])('Accept-Encoding %p picks %p', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  test('considers only the variants that exist', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br', ['gzip'])).toBeUndefined();
    expect(negotiateEncoding('br, gzip', [])).toBeUndefined();
  });

  test('joins a header sent more than once', () => {
    expect(negotiateEncoding(['gzip;q=0.1', 'br'])).toBe('br');
  });
});
