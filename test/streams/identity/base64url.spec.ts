import { decodeBase64Url, encodeBase64Url } from '../../../streams/identity/base64url';

describe('base64url', () => {
  it.each(['', 'a', 'ab', 'abc', 'abcd', '{"sub":"acc-1"}', 'héllo ✓ 𝄞', '\u0000?>>'])('round-trips %j like Node’s base64url', (text) => {
    const encoded = encodeBase64Url(text);
    expect(encoded).toBe(Buffer.from(text, 'utf8').toString('base64url'));
    expect(decodeBase64Url(encoded)).toBe(text);
  });

  it('accepts padding and refuses what is not base64url or not UTF-8', () => {
    expect(decodeBase64Url('YQ==')).toBe('a');
    expect(decodeBase64Url('YQ')).toBe('a');
    expect(decodeBase64Url('a+b/')).toBeUndefined();
    expect(decodeBase64Url('abcde')).toBeUndefined();
    expect(decodeBase64Url('a b')).toBeUndefined();
    expect(decodeBase64Url(Buffer.from([0xff, 0xfe]).toString('base64url'))).toBeUndefined();
    expect(decodeBase64Url(undefined as unknown as string)).toBeUndefined();
  });
});
