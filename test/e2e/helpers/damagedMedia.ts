/** Reads an EBML variable-length integer at `at`: its length in bytes and its value (the length marker removed). */
function vint(buf: Buffer, at: number, keepMarker: boolean): { len: number; value: number; unknown: boolean } {
  const first = buf[at];
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  let value = keepMarker ? first : first & (0xff >> len);
  let allOnes = value === 0xff >> len;
  for (let i = 1; i < len; i++) {
    value = value * 256 + buf[at + i];
    if (buf[at + i] !== 0xff) allOnes = false;
  }
  return { len, value, unknown: !keepMarker && allOnes };
}
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const SIMPLE_BLOCK = 0xa3;
/**
 * A copy of a WebM file whose blocks (frames) in the clusters that start at or after byte `from` have their frame
 * data zeroed, sizes and structure kept: the file still parses, its metadata and first part play, then the decoder
 * fails on the damaged frames (MediaError 3).
 */
export function damageFramesAfter(file: Buffer, from: number): Buffer {
  const out = Buffer.from(file);
  const walk = (start: number, end: number, inCluster: boolean, clusterAt: number) => {
    let p = start;
    while (p < end) {
      const id = vint(out, p, true);
      const size = vint(out, p + id.len, false);
      const body = p + id.len + size.len;
      const bodyEnd = size.unknown ? end : Math.min(end, body + size.value);
      if (id.value === SEGMENT) walk(body, bodyEnd, false, 0);
      // A cluster of unknown size runs to the end of its parent: walking its children finds the next cluster.
      else if (id.value === CLUSTER) walk(body, bodyEnd, true, p);
      else if (id.value === SIMPLE_BLOCK && inCluster && clusterAt >= from) {
        const track = vint(out, body, false);
        out.fill(0, body + track.len + 3, bodyEnd);
      }
      p = bodyEnd;
    }
  };
  walk(0, out.length, false, 0);
  return out;
}
