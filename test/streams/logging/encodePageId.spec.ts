import { encodePageId, PAGE_ID_BYTES, randomPageId } from '../../../streams/logging/encodePageId';

describe('encodePageId (issue 15): 12 random bytes as 16 base64url characters', () => {
  it('is the unpadded base64url text of the bytes (RFC 4648 §5), checked against Node’s encoder', () => {
    expect(PAGE_ID_BYTES).toBe(12);
    const samples = [new Uint8Array(12), new Uint8Array(12).fill(255), Uint8Array.from([0xfb, 0xff, 0xbf, 0, 1, 2, 3, 4, 5, 0xf8, 0x3e, 0x0f])];
    for (let s = 0; s < 200; s++) samples.push(Uint8Array.from({ length: 12 }, (_, i) => (s * 37 + i * 101 + ((s * i) % 7)) & 255));
    for (const bytes of samples) {
      const id = encodePageId(bytes);
      expect(id).toBe(Buffer.from(bytes).toString('base64url'));
      expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(JSON.stringify(id)).toBe(`"${id}"`); // nothing to escape in JSON
      expect(encodeURIComponent(id)).toBe(id); // nor in a query string (the collector's ?pageId=)
    }
    expect(encodePageId(new Uint8Array(12).fill(255))).toBe('________________');
  });

  it('keeps every byte: different bytes, different ids', () => {
    const base = new Uint8Array(12);
    const ids = new Set([encodePageId(base)]);
    for (let i = 0; i < 12; i++) {
      for (const bit of [1, 128]) {
        const bytes = base.slice();
        bytes[i] ^= bit;
        ids.add(encodePageId(bytes));
      }
    }
    expect(ids.size).toBe(1 + 12 * 2);
  });

  it('refuses any other number of bytes', () => {
    expect(() => encodePageId(new Uint8Array(11))).toThrow(RangeError);
    expect(() => encodePageId(new Uint8Array(13))).toThrow(RangeError);
  });

  it('randomPageId: the bytes of the crypto given (the page’s), or of Math.random where there is none', () => {
    const fill = (array: Uint8Array<ArrayBuffer>) => array.fill(7);
    expect(randomPageId({ getRandomValues: fill })).toBe(encodePageId(new Uint8Array(PAGE_ID_BYTES).fill(7)));
    const ids = new Set(Array.from({ length: 20 }, () => randomPageId({})));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(randomPageId()).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});
