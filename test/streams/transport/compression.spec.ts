import { gunzipSync } from 'node:zlib';
import { CompressionUnavailableError, gzipBody, utf8ByteLength } from '../../../streams/transport/gzipBody';
import { shouldCompress } from '../../../streams/transport/shouldCompress';
import { COMPRESSION_MAX_BODY_BYTES, COMPRESSION_MIN_BODY_BYTES } from '../../../streams/timing';

describe('shouldCompress (spec §5/§9: 500 ≤ bytes ≤ 500000)', () => {
  it('uses the production bounds', () => {
    expect([COMPRESSION_MIN_BODY_BYTES, COMPRESSION_MAX_BODY_BYTES]).toEqual([500, 500_000]);
  });
  it.each([
    [0, false],
    [499, false],
    [500, true],
    [20_000, true],
    [500_000, true],
    [500_001, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('%d bytes → %s', (bytes, expected) => {
    expect(shouldCompress(bytes)).toBe(expected);
  });
  it('takes overridden bounds', () => {
    expect(shouldCompress(10, 10, 20)).toBe(true);
    expect(shouldCompress(21, 10, 20)).toBe(false);
  });
});

describe('gzipBody', () => {
  it('gzips with the platform CompressionStream (round trip through zlib)', async () => {
    const body = JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ i, text: 'héllo wörld' })) });
    const gz = await gzipBody(body);
    expect(gz[0]).toBe(0x1f);
    expect(gz[1]).toBe(0x8b);
    expect(gz.byteLength).toBeLessThan(utf8ByteLength(body));
    expect(gunzipSync(gz).toString('utf8')).toBe(body);
  });
  it('rejects with CompressionUnavailableError without CompressionStream', async () => {
    await expect(gzipBody('x', null)).rejects.toBeInstanceOf(CompressionUnavailableError);
  });
  it('counts UTF-8 bytes, not characters', () => {
    expect(utf8ByteLength('é')).toBe(2);
  });
});
