/**
 * The one sampling rule every sampler of spec §9 shares: a draw `random()` in [0, 1) is kept when it is below
 * `rate`. So a rate of 0 keeps nothing, a rate of 1 keeps everything, and a rate of 0.1 keeps draws 0 … 0.0999….
 *
 * Bad input never throws: a rate that is not a finite number keeps nothing, a rate is clamped to [0, 1], and a
 * draw that is not a finite number in [0, 1) (a broken random source) is not sampled in.
 *
 * ```
 * random():  0    0.05  0.0999  0.1   0.5   NaN
 * rate 0.1:  in   in    in      out   out   out
 * ```
 */
export function isSampledIn(rate: number, random: () => number = Math.random): boolean {
  if (!Number.isFinite(rate) || rate <= 0) return false;
  const draw = random();
  if (!Number.isFinite(draw) || draw < 0 || draw >= 1) return false;
  return draw < Math.min(rate, 1);
}
