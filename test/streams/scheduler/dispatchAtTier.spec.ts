import { type Observable, of, tap } from 'rxjs';
import { DelayedEventTier } from '../../../streams/scheduler/delayedEventTier';
import { dispatchAtTier, type TieredEvent } from '../../../streams/scheduler/dispatchAtTier';
import { idleCallback$, type IdleDeadlineLike } from '../../../streams/scheduler/idleCallback';
import {
  DELAYED_EVENT_TIER_DEFAULT,
  DELAYED_EVENT_TIER_DISPATCH_TO_EMPTY,
  DELAYED_EVENT_TIER_FAST,
  DELAYED_EVENT_TIER_IMMEDIATE,
} from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const { DEFAULT, DISPATCH_TO_EMPTY, FAST, IMMEDIATE } = DelayedEventTier;
/** Marble letters: d DEFAULT, e DISPATCH_TO_EMPTY, f FAST, i IMMEDIATE; the event is the letter itself. */
const tiered = (tier: DelayedEventTier, event: string): TieredEvent<string> => ({ tier, event });
const events = {
  d: tiered(DEFAULT, 'd'),
  e: tiered(DISPATCH_TO_EMPTY, 'e'),
  f: tiered(FAST, 'f'),
  i: tiered(IMMEDIATE, 'i'),
  g: tiered(FAST, 'g'),
  h: tiered(FAST, 'h'),
};

/** The subscriber's work advances a fake work clock by each event's cost (ms); the budget reads that clock. */
function harness(cost: Record<string, number> = {}) {
  let clock = 0;
  return {
    now: () => clock,
    work: (o: Observable<string>) => o.pipe(tap((event) => (clock += cost[event] ?? 1))),
  };
}

describe('DelayedEventTier', () => {
  it('holds the tier values of spec §9 (production constants)', () => {
    expect(DelayedEventTier).toEqual({ DEFAULT: 100, DISPATCH_TO_EMPTY: 200, FAST: 300, IMMEDIATE: 400 });
    expect([DELAYED_EVENT_TIER_DEFAULT, DELAYED_EVENT_TIER_DISPATCH_TO_EMPTY, DELAYED_EVENT_TIER_FAST, DELAYED_EVENT_TIER_IMMEDIATE]).toEqual([
      100, 200, 300, 400,
    ]);
  });
});

describe('dispatchAtTier', () => {
  it('IMMEDIATE at once, FAST then DISPATCH_TO_EMPTY in the next frame, DEFAULT in the idle callback 300 ms later', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness();
      const source = hot('  -d-e-f-i-----', events);
      const frames = hot('  ---------F---');
      // d at 1 asks for the emulated idle callback: 1 + 300 = 301. e at 3 asks for frames; the frame at 9 runs f, e.
      // (fe) spans frames 9–12 in the diagram, so 288 ms more reach 301.
      const expected = '    -------i-(fe) 288ms d';
      expectObservable(source.pipe(dispatchAtTier({ frames$: frames, idle$: idleCallback$({}), now }), work)).toBe(expected);
      expectSubscriptions(frames.subscriptions).toBe('---^-----!');
    });
  });

  it('keeps FAST events within the 13.7 ms frame budget, and DISPATCH_TO_EMPTY behind every FAST one (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ f: 13.7, g: 1, h: 1, e: 1 });
      const source = hot('  (efgh)-------', events);
      const frames = hot('  ---F---F---F-');
      // frame 3: f spends the whole 13.7 ms; frame 7: g, h, e (3 ms).
      const expected = '    ---f---(ghe)';
      const idle = cold<IdleDeadlineLike>('-');
      expectObservable(source.pipe(dispatchAtTier({ frames$: frames, idle$: idle, now }), work)).toBe(expected);
    });
  });

  it('with a small budget override, dispatches one event per frame', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness();
      const source = hot('  (fe)------', events);
      const frames = hot('  ----F-F---');
      const idle = cold<IdleDeadlineLike>('-');
      expectObservable(source.pipe(dispatchAtTier({ frames$: frames, idle$: idle, now, budgetMs: 1 }), work)).toBe('----f-e');
    });
  });

  it('never asks for a frame for DEFAULT events', () => {
    createTestScheduler().run(({ hot, time, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness();
      const source = hot('  d-d-----', events);
      const frames = hot('  FFFFFFFF');
      const idle$ = idleCallback$({}, { emulatedDelayMs: time('-----|') });
      expectObservable(source.pipe(dispatchAtTier({ frames$: frames, idle$, now }), work)).toBe('-----(dd)');
      expectSubscriptions(frames.subscriptions).toBe([]);
    });
  });

  it('flush$ dispatches everything waiting at once (page disposal)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness();
      const source = hot('  def-----', events);
      const flush = hot('   ----x---');
      const options = { frames$: cold('-'), idle$: cold<IdleDeadlineLike>('-'), flush$: flush, now };
      expectObservable(source.pipe(dispatchAtTier(options), work)).toBe('----(fed)');
    });
  });

  it('dispatches what waits before completing, and loses nothing from a synchronous source', () => {
    const seen: string[] = [];
    let completed = false;
    const idle = of({ didTimeout: true, timeRemaining: () => 0 });
    of(events.d, events.i, events.f)
      .pipe(dispatchAtTier<string>({ frames$: of(0), idle$: idle, now: () => 0 }))
      .subscribe({ next: (e) => seen.push(e), complete: () => (completed = true) });
    expect(seen.sort()).toEqual(['d', 'f', 'i']);
    expect(completed).toBe(true);
  });

  it('reads an unknown tier by its number, a missing one as DEFAULT, and drops values that are not tiered events', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const { now, work } = harness();
      const odd = {
        u: { tier: 999, event: 'u' } as unknown as TieredEvent<string>,
        m: { event: 'm' } as unknown as TieredEvent<string>,
        n: null as unknown as TieredEvent<string>,
      };
      const source = hot('  unm-----', odd);
      const idle$ = idleCallback$({}, { emulatedDelayMs: time('----|') });
      // u (999 ≥ IMMEDIATE) at once; m waits for idle (asked at 2, runs at 6); null is dropped.
      expectObservable(source.pipe(dispatchAtTier({ frames$: hot('-'), idle$, now }), work)).toBe('u-----m');
    });
  });

  it('tears down the source and every slot on unsubscribe', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness();
      const source = hot('  -f-d----', events);
      const frames = hot('  ------F-');
      const idle = cold<IdleDeadlineLike>('------(i|)');
      const flush = hot('   --------');
      const options = { frames$: frames, idle$: idle, flush$: flush, now };
      expectObservable(source.pipe(dispatchAtTier(options), work), '^---!').toBe('-----');
      expectSubscriptions(source.subscriptions).toBe('^---!');
      expectSubscriptions(frames.subscriptions).toBe('-^--!');
      expectSubscriptions(idle.subscriptions).toBe('-^--!');
      expectSubscriptions(flush.subscriptions).toBe('^---!');
    });
  });
});
