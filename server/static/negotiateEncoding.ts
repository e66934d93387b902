/** The encodings the build writes next to a file (`precompressDir`), best first. */
export type ContentEncoding = 'br' | 'gzip';

const PREFERENCE: readonly ContentEncoding[] = ['br', 'gzip'];

/**
 * Picks the best pre-compressed variant the request accepts (RFC 9110 §12.5.3): `br` before `gzip`, honouring
 * `q=0` refusals and `*`. `undefined` means the plain file. Only the encodings in `available` are considered.
 */
export function negotiateEncoding(
  acceptEncoding: string | string[] | undefined,
  available: readonly ContentEncoding[] = PREFERENCE,
): ContentEncoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const value = /^\s*q\s*=\s*(.*?)\s*$/i.exec(p)?.[1];
      if (value === undefined) continue;
      // A malformed weight counts as a refusal (RFC 9110 qvalue: 0 to 1, at most three decimals).
      weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : 0;
    }
    q.set(name, weight);
  }
  const weightOf = (e: ContentEncoding) => q.get(e) ?? (e === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  let best: ContentEncoding | undefined;
  let bestWeight = 0;
  for (const e of PREFERENCE) {
    if (!available.includes(e)) continue;
    const w = weightOf(e);
    if (w > bestWeight) {
      best = e;
      bestWeight = w;
    }
  }
  return best;
}
