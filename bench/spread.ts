/** The spread of a set of figures: count, median, 95th percentile, least and most (non-finite values left out). */
export interface Spread {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN };
  const at = (q: number) => v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
  const median = v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  return { n: v.length, median, p95: at(0.95), min: v[0], max: v[v.length - 1] };
}
