import { type AbrState, decide, type DecisionInput, initialAbrState } from '../../../streams/abr/abrDecision';
import { bolaMinBufferFor, bolaRule } from '../../../streams/abr/abrRules';
import { ABR_BOLA_ENTER_S, ABR_BOLA_LEAVE_S, ABR_REPLACE_KEEP_S, ABR_UP_SAFETY, ABR_UP_SWITCH_AFTER_DOWN_MS } from '../../../streams/timing';
import { ladder } from './fixtures';

const input = (overrides: Partial<DecisionInput> = {}): DecisionInput => ({
  ladder,
  nowMs: 100_000,
  bufferSeconds: 4,
  estimateBps: 5_000_000,
  preference: 'auto',
  segmentSeconds: 2,
  ...overrides,
});
const playing = (overrides: Partial<AbrState> = {}): AbrState => ({ ...initialAbrState, index: 2, ...overrides });

describe('decide', () => {
  it('starts at the lowest rung before any sample; with one, at the throughput rule’s rung if it arrives quickly', () => {
    expect(decide(initialAbrState, input({ estimateBps: null, bufferSeconds: 0 })).decision).toEqual({ index: 0, reason: 'startup' });
    // 5 Mbps: the throughput rule says hd720 (1.8 Mbps), but 2 s of it take 720 ms; 2 s of large (900 kbps) take 360 ms.
    expect(decide(initialAbrState, input({ estimateBps: 5_000_000, bufferSeconds: 0 })).decision).toEqual({ index: 3, reason: 'startup' });
    expect(decide(initialAbrState, input({ estimateBps: 5_000_000, bufferSeconds: 0 }), { startupFetchMs: 800 }).decision).toEqual({
      index: 4,
      reason: 'startup',
    });
    // 20 Mbps: the throughput rule's hd1080 arrives in 350 ms.
    expect(decide(initialAbrState, input({ estimateBps: 20_000_000, bufferSeconds: 0 })).decision).toEqual({ index: 5, reason: 'startup' });
    // 1.3 Mbps: the rule says large, but only small (62.5 kB in 385 ms) arrives within 500 ms.
    expect(decide(initialAbrState, input({ estimateBps: 1_300_000, bufferSeconds: 0 })).decision).toEqual({ index: 1, reason: 'startup' });
  });

  it('restarts after a seek at the throughput rule, whatever rule was in charge', () => {
    const { state, decision } = decide(playing({ index: 5, bola: true }), input({ seek: true, bufferSeconds: 0, estimateBps: 1_300_000 }));
    expect(decision).toEqual({ index: 3, reason: 'seek' });
    expect(state.bola).toBe(false);
  });

  it('plays a fixed rung whatever the buffer and the estimate say', () => {
    expect(decide(playing(), input({ preference: { fixed: 5 }, bufferSeconds: 0, estimateBps: 100_000 })).decision).toEqual({ index: 5, reason: 'fixed' });
    expect(decide(playing(), input({ preference: { fixed: 9 } })).decision).toEqual({ index: 5, reason: 'fixed' });
    expect(decide(initialAbrState, input({ preference: { fixed: 1 }, estimateBps: null })).decision).toEqual({ index: 1, reason: 'fixed' });
  });

  it('reads a preference that is not a rung number as no limit', () => {
    expect(decide(playing(), input({ preference: { fixed: NaN } })).decision).toEqual({ index: 5, reason: 'fixed' });
    expect(decide(playing(), input({ preference: { cap: -Infinity } })).decision).toEqual({ index: 5, reason: 'throughput' });
    expect(decide(playing(), input({ preference: { cap: -3 } })).decision).toEqual({ index: 0, reason: 'cap' });
  });

  it('caps the automatic choice, and a cap lifted is no switch down to wait after', () => {
    const capped = decide(playing({ index: 5 }), input({ preference: { cap: 3 } }));
    expect(capped.decision).toEqual({ index: 3, reason: 'cap' });
    expect(decide(playing(), input({ preference: { cap: 4 }, estimateBps: 1_300_000 })).decision).toEqual({ index: 3, reason: 'throughput' });
    const lifted = decide(capped.state, input({ nowMs: 100_001 }));
    expect(lifted.decision).toEqual({ index: 5, reason: 'throughput' });
  });

  it('keeps the throughput rule from going up within 8 s of a switch down (production constant)', () => {
    expect(ABR_UP_SWITCH_AFTER_DOWN_MS).toBe(8_000);
    const down = decide(playing({ index: 4 }), input({ nowMs: 10_000, estimateBps: 800_000 }));
    expect(down.decision).toEqual({ index: 2, reason: 'throughput' });
    expect(decide(down.state, input({ nowMs: 17_999 })).decision).toEqual({ index: 2, reason: 'throughput' });
    expect(decide(down.state, input({ nowMs: 18_000 })).decision).toEqual({ index: 5, reason: 'throughput' });
  });

  it('hands over to BOLA at 10 s of buffer and back under 6 s (production constants)', () => {
    expect([ABR_BOLA_ENTER_S, ABR_BOLA_LEAVE_S]).toEqual([10, 6]);
    const below = decide(playing({ index: 3 }), input({ bufferSeconds: 9.9, estimateBps: 1_300_000 }));
    expect(below.decision.reason).toBe('throughput');
    const entered = decide(below.state, input({ bufferSeconds: 10, estimateBps: 1_300_000 }));
    expect(entered.decision.reason).toBe('buffer');
    expect(decide(entered.state, input({ bufferSeconds: 6, estimateBps: 1_300_000 })).decision.reason).toBe('buffer');
    expect(decide(entered.state, input({ bufferSeconds: 5.9, estimateBps: 1_300_000 })).decision.reason).toBe('throughput');
  });

  it('keeps the rung the throughput rule chose when BOLA takes over', () => {
    // At 10 s BOLA alone picks the lowest rung; the placeholder lifts its level to where it picks hd720.
    expect(bolaRule(ladder, 10, 2)).toBe(0);
    const { state, decision } = decide(playing({ index: 4 }), input({ bufferSeconds: 10, estimateBps: 2_600_000 }));
    expect(decision).toEqual({ index: 4, reason: 'buffer' });
    expect(state.placeholderS).toBeCloseTo(bolaMinBufferFor(ladder, 4) - 10, 6);
  });

  it('lets BOLA climb with the buffer only as far as the estimate sustains (0.95 × the estimate)', () => {
    const bola = playing({ index: 3, bola: true });
    expect(decide(bola, input({ bufferSeconds: 30, estimateBps: 2_000_000 })).decision).toEqual({ index: 4, reason: 'buffer' });
    expect(decide(bola, input({ bufferSeconds: 30, estimateBps: 3_700_000 })).decision).toEqual({ index: 5, reason: 'buffer' });
    // A low estimate never takes BOLA down: only the buffer does.
    expect(decide(bola, input({ bufferSeconds: 30, estimateBps: 500_000 })).decision).toEqual({ index: 3, reason: 'buffer' });
  });

  it('lets the throughput rule’s climb win over BOLA’s buffer when the link carries more (0.7 × the estimate)', () => {
    // 11 s buffered on small: BOLA alone would stay low and climb a rung as the buffer grows.
    const bola = playing({ index: 1, bola: true });
    expect(bolaRule(ladder, 11, 2)).toBeLessThan(5);
    expect(decide(bola, input({ bufferSeconds: 11, estimateBps: 5_000_000 })).decision).toEqual({ index: 5, reason: 'throughput' });
    // Not within 8 s of a switch down: the link fell short lately.
    const afterDown = playing({ index: 1, bola: true, lastDownMs: 100_000 - ABR_UP_SWITCH_AFTER_DOWN_MS + 1 });
    expect(decide(afterDown, input({ bufferSeconds: 11, estimateBps: 5_000_000 })).decision.reason).toBe('buffer');
  });

  it('lets BOLA go down only when two more segments of buffer would not keep the rung', () => {
    const bola = playing({ index: 5, bola: true });
    const top = bolaMinBufferFor(ladder, 5);
    // 4 Mbps: hd1080 (3.5 Mbps) is above 0.7 × the estimate, so the buffer decides.
    expect(decide(bola, input({ bufferSeconds: top - 3.9, estimateBps: 4_000_000 })).decision).toEqual({ index: 5, reason: 'buffer' });
    expect(decide(bola, input({ bufferSeconds: top - 4.1, estimateBps: 4_000_000 })).decision).toEqual({ index: 4, reason: 'buffer' });
  });

  it('keeps BOLA on its rung while the estimate carries it with the up-switch margin (0.7), however low the buffer', () => {
    expect(ABR_UP_SAFETY).toBe(0.7);
    const bola = playing({ index: 5, bola: true });
    // 5 Mbps carries hd1080 (3.5 Mbps) at 0.7: a buffer held back (by a replacement) is no reason to go down.
    expect(decide(bola, input({ bufferSeconds: ABR_BOLA_LEAVE_S, estimateBps: 5_000_000 })).decision).toEqual({ index: 5, reason: 'buffer' });
    expect(decide(bola, input({ bufferSeconds: ABR_BOLA_LEAVE_S, estimateBps: 4_900_000 })).decision.index).toBeLessThan(5);
  });

  it('replaces what lies beyond 3 s on an automatic switch up over more than 5 s, when the link carries the rung easily', () => {
    expect(ABR_REPLACE_KEEP_S).toBe(3);
    // 8 Mbps: hd1080 (3.5 Mbps) is within 0.6 × the estimate; at 5 Mbps it is not.
    expect(decide(playing({ index: 2 }), input({ bufferSeconds: 9, estimateBps: 8_000_000 })).decision).toEqual({
      index: 5,
      reason: 'throughput',
      replaceFromS: ABR_REPLACE_KEEP_S,
    });
    expect(decide(playing({ index: 2 }), input({ bufferSeconds: 9 })).decision).toEqual({ index: 5, reason: 'throughput' });
    // Nothing to gain over 5 s or less: the new rung's segments come next anyway.
    expect(decide(playing({ index: 2 }), input({ bufferSeconds: 5, estimateBps: 8_000_000 })).decision).toEqual({ index: 5, reason: 'throughput' });
    // BOLA's climb to hd720 at 2 Mbps (within 0.95 × the estimate, not 0.7 ×) keeps the buffer.
    expect(decide(playing({ index: 3, bola: true }), input({ bufferSeconds: 30, estimateBps: 2_000_000 })).decision).toEqual({ index: 4, reason: 'buffer' });
    // A switch down, a fixed rung, the start and a seek never replace.
    expect(decide(playing({ index: 5 }), input({ bufferSeconds: 9, estimateBps: 1_300_000 })).decision).toEqual({ index: 3, reason: 'throughput' });
    expect(decide(playing(), input({ bufferSeconds: 9, preference: { fixed: 5 } })).decision).toEqual({ index: 5, reason: 'fixed' });
    expect(decide(initialAbrState, input({ bufferSeconds: 9 })).decision).toEqual({ index: 3, reason: 'startup' });
    expect(decide(playing(), input({ bufferSeconds: 9, seek: true })).decision).toEqual({ index: 5, reason: 'seek' });
  });

  it('leaves room for the other tracks on the link (the audio) when it replaces', () => {
    // 8 Mbps: 0.6 × the estimate is 4.8 Mbps; hd1080's 3.5 Mbps fit beside 1.3 Mbps of audio, not beside 1.4.
    const climb = (otherTracksBps: number) => decide(playing({ index: 2 }), input({ bufferSeconds: 9, estimateBps: 8_000_000, otherTracksBps })).decision;
    expect(climb(1_300_000)).toEqual({ index: 5, reason: 'throughput', replaceFromS: ABR_REPLACE_KEEP_S });
    expect(climb(1_400_000)).toEqual({ index: 5, reason: 'throughput' });
  });

  it('replaces, at a later decision, what is buffered below the rung once the link carries that rung easily', () => {
    // Already on hd1080; the video beyond 3 s is medium (a climb made before the link had room to spare).
    const onTop = playing({ index: 5 });
    expect(decide(onTop, input({ bufferSeconds: 9, estimateBps: 8_000_000, lowestAheadRung: 2 })).decision).toEqual({
      index: 5,
      reason: 'throughput',
      replaceFromS: ABR_REPLACE_KEEP_S,
    });
    // All of it already on the rung: nothing to fetch again, climb or not.
    expect(decide(onTop, input({ bufferSeconds: 9, estimateBps: 8_000_000, lowestAheadRung: 5 })).decision).toEqual({ index: 5, reason: 'throughput' });
    expect(decide(playing({ index: 2 }), input({ bufferSeconds: 9, estimateBps: 8_000_000, lowestAheadRung: 5 })).decision).toEqual({
      index: 5,
      reason: 'throughput',
    });
    // Not while the rung is above 0.6 × the estimate (3.3 Mbps of 5.5), nor within 8 s of a switch down.
    expect(decide(onTop, input({ bufferSeconds: 9, estimateBps: 5_500_000, lowestAheadRung: 2 })).decision).toEqual({ index: 5, reason: 'throughput' });
    const afterDown = playing({ index: 5, lastDownMs: 100_000 - ABR_UP_SWITCH_AFTER_DOWN_MS + 1 });
    expect(decide(afterDown, input({ bufferSeconds: 9, estimateBps: 8_000_000, lowestAheadRung: 2 })).decision).toEqual({ index: 5, reason: 'throughput' });
  });

  it('never picks a rung whose next segment would drain the buffer before it arrives', () => {
    // hd1080's 875 kB take 1.4 s at 5 Mbps: within 0.7 × 3 s, not within 0.7 × 1.5 s (hd720's 450 kB take 0.72 s).
    expect(decide(playing({ index: 5 }), input({ bufferSeconds: 3 })).decision).toEqual({ index: 5, reason: 'throughput' });
    expect(decide(playing({ index: 5 }), input({ bufferSeconds: 1.5 })).decision).toEqual({ index: 4, reason: 'insufficientBuffer' });
    expect(decide(playing({ index: 5 }), input({ bufferSeconds: 0 })).decision).toEqual({ index: 0, reason: 'insufficientBuffer' });
  });
});
