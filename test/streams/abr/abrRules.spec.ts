import { bolaMinBufferFor, bolaRule, insufficientBufferGuard, segmentBytesOf, throughputRule } from '../../../streams/abr/abrRules';
import { ABR_BOLA_MIN_BUFFER_S, ABR_BOLA_TARGET_BUFFER_S, ABR_HOLD_SAFETY, ABR_INSUFFICIENT_BUFFER_SAFETY, ABR_UP_SAFETY } from '../../../streams/timing';
import { ladder } from './fixtures';

describe('throughputRule', () => {
  it('goes up to the highest rung within 0.7 × the estimate (production constant)', () => {
    expect(ABR_UP_SAFETY).toBe(0.7);
    expect(throughputRule(ladder, 5_000_000)).toBe(5); // 3.5 Mbps ≤ 3.5
    expect(throughputRule(ladder, 4_999_000)).toBe(4);
    expect(throughputRule(ladder, 1_300_000)).toBe(3); // 0.9 ≤ 0.91
    expect(throughputRule(ladder, 100_000)).toBe(0); // none fits: the lowest
  });

  it('holds the current rung while it is within 0.95 × the estimate (production constant)', () => {
    expect(ABR_HOLD_SAFETY).toBe(0.95);
    expect(throughputRule(ladder, 3_700_000, 5)).toBe(5); // 3.5 ≤ 3.515: held, though 0.7 × 3.7 = 2.59 → 4
    expect(throughputRule(ladder, 3_600_000, 5)).toBe(4); // 3.5 > 3.42: down to what 0.7 allows
    expect(throughputRule(ladder, 3_700_000, 2)).toBe(4); // going up ignores the hold
    expect(throughputRule(ladder, 3_700_000, 5, { holdSafety: 0.9 })).toBe(4);
  });
});

describe('bolaRule', () => {
  it('picks the lowest rung up to the minimum buffer and the highest from the target (production constants)', () => {
    expect([ABR_BOLA_MIN_BUFFER_S, ABR_BOLA_TARGET_BUFFER_S]).toEqual([10, 24]);
    expect(bolaRule(ladder, 0, 2)).toBe(0);
    expect(bolaRule(ladder, 10, 2)).toBe(0);
    expect(bolaRule(ladder, 24, 2)).toBe(5);
    expect(bolaRule(ladder, 60, 2)).toBe(5);
  });

  it('climbs with the buffer, one threshold per rung, each where bolaMinBufferFor says', () => {
    const choices = Array.from({ length: 61 }, (_, i) => bolaRule(ladder, i / 2, 2));
    choices.slice(1).forEach((c, i) => expect(c).toBeGreaterThanOrEqual(choices[i]!));
    expect(new Set(choices).size).toBe(ladder.length);
    for (let rung = 1; rung < ladder.length; rung++) {
      const level = bolaMinBufferFor(ladder, rung);
      expect(bolaRule(ladder, level + 0.01, 2)).toBeGreaterThanOrEqual(rung);
      expect(bolaRule(ladder, level - 0.01, 2)).toBeLessThan(rung);
    }
    expect(bolaMinBufferFor(ladder, 0)).toBe(0);
  });

  it('moves its thresholds with the buffer levels it is given', () => {
    expect(bolaRule(ladder, 12, 2, undefined, { minBufferS: 4, targetBufferS: 12 })).toBe(5);
    expect(bolaRule(ladder, 4, 2, undefined, { minBufferS: 4, targetBufferS: 12 })).toBe(0);
  });

  it('uses the listed segment sizes: a segment that is dear in a rung makes that rung less attractive', () => {
    const level = bolaMinBufferFor(ladder, 5) + 1;
    expect(bolaRule(ladder, level, 2, 0)).toBe(5);
    const sized = ladder.map((rung) => ({ ...rung, segmentBytes: [(rung.bitrate * 2) / 8, (rung.bitrate * 2) / 8] }));
    // Segment 1 of the top rung is three times its average size (a hard scene the encoder spent bits on).
    const dearTop = sized.map((rung, i) => (i === 5 ? { ...rung, segmentBytes: [rung.segmentBytes[0]!, rung.segmentBytes[1]! * 3] } : rung));
    expect(bolaRule(dearTop, level, 2, 0)).toBe(5);
    expect(bolaRule(dearTop, level, 2, 1)).toBe(4);
  });
});

describe('segmentBytesOf', () => {
  it('reads the listed size, else the bitrate over the duration', () => {
    const rung = { quality: 'tiny', bitrate: 100_000, segmentBytes: [1_000, 2_000] };
    expect(segmentBytesOf(rung, 2, 1)).toBe(2_000);
    expect(segmentBytesOf(rung, 2, 5)).toBe(25_000);
    expect(segmentBytesOf(rung, 2)).toBe(25_000);
  });
});

describe('insufficientBufferGuard', () => {
  it('never keeps a rung whose next segment takes more than 0.7 × the buffer to fetch (production constant)', () => {
    expect(ABR_INSUFFICIENT_BUFFER_SAFETY).toBe(0.7);
    // 4 s buffered at 1 Mbps: 2.8 s to spare. hd720's 450 kB take 3.6 s; large's 225 kB take 1.8 s.
    expect(insufficientBufferGuard(ladder, 5, 4, 1_000_000, 2)).toBe(3);
    expect(insufficientBufferGuard(ladder, 2, 4, 1_000_000, 2)).toBe(2);
    expect(insufficientBufferGuard(ladder, 5, 40, 1_000_000, 2)).toBe(5);
    expect(insufficientBufferGuard(ladder, 5, 0, 1_000_000, 2)).toBe(0);
  });
});
