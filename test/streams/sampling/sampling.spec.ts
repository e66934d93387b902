import { isSampledIn } from '../../../streams/sampling/isSampledIn';
import { sampleStorageEvent } from '../../../streams/sampling/sampleStorageEvent';
import { sampleStoredLog } from '../../../streams/sampling/sampleStoredLog';
import { STORAGE_EVENT_SAMPLE_RATE, STORED_LOG_SAMPLE_RATE } from '../../../streams/timing';

const draw = (value: number) => () => value;
/** The largest double below x. */
const below = (x: number) => x - Number.EPSILON * Math.max(1, x);

describe('isSampledIn', () => {
  it('keeps draws strictly below the rate', () => {
    expect(isSampledIn(0.5, draw(0))).toBe(true);
    expect(isSampledIn(0.5, draw(below(0.5)))).toBe(true);
    expect(isSampledIn(0.5, draw(0.5))).toBe(false);
    expect(isSampledIn(0.5, draw(0.99))).toBe(false);
  });

  it('keeps nothing at rate 0 and everything at rate 1', () => {
    expect(isSampledIn(0, draw(0))).toBe(false);
    expect(isSampledIn(1, draw(below(1)))).toBe(true);
    expect(isSampledIn(2, draw(below(1)))).toBe(true);
  });

  it('never throws on bad rates or a broken random source, and samples such draws out', () => {
    for (const rate of [NaN, -1, Infinity, -Infinity]) expect(isSampledIn(rate, draw(0))).toBe(false);
    for (const bad of [NaN, -0.1, 1, 1.5, Infinity]) expect(isSampledIn(1, draw(bad))).toBe(false);
  });

  it('draws exactly once per call', () => {
    const random = jest.fn(() => 0.3);
    isSampledIn(0.5, random);
    expect(random).toHaveBeenCalledTimes(1);
  });

  it('keeps about the rate of uniform draws (deterministic grid)', () => {
    let i = 0;
    const grid = () => (i++ % 1000) / 1000; // 0, 0.001, … 0.999
    let kept = 0;
    for (let n = 0; n < 1000; n++) if (isSampledIn(0.1, grid)) kept++;
    expect(kept).toBe(100);
  });
});

describe('sampleStoredLog', () => {
  it('samples at 10 % (production constant)', () => {
    expect(STORED_LOG_SAMPLE_RATE).toBe(0.1);
    expect(sampleStoredLog(draw(0))).toBe(true);
    expect(sampleStoredLog(draw(0.0999))).toBe(true);
    expect(sampleStoredLog(draw(0.1))).toBe(false);
    expect(sampleStoredLog(draw(0.19))).toBe(false);
  });

  it('takes a rate override', () => {
    expect(sampleStoredLog(draw(0.19), 0.2)).toBe(true);
    expect(sampleStoredLog(draw(0.2), 0.2)).toBe(false);
  });

  it('uses Math.random by default', () => {
    const spy = jest.spyOn(Math, 'random').mockReturnValue(0.05);
    try {
      expect(sampleStoredLog()).toBe(true);
      spy.mockReturnValue(0.5);
      expect(sampleStoredLog()).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('sampleStorageEvent', () => {
  it('samples at 20 % (production constant)', () => {
    expect(STORAGE_EVENT_SAMPLE_RATE).toBe(0.2);
    expect(sampleStorageEvent(draw(0.1))).toBe(true);
    expect(sampleStorageEvent(draw(0.1999))).toBe(true);
    expect(sampleStorageEvent(draw(0.2))).toBe(false);
    expect(sampleStorageEvent(draw(0.9))).toBe(false);
  });

  it('takes a rate override', () => {
    expect(sampleStorageEvent(draw(0.1), 0.05)).toBe(false);
    expect(sampleStorageEvent(draw(0.04), 0.05)).toBe(true);
  });
});
