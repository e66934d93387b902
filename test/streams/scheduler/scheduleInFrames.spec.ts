import { type Observable, Subject, tap } from 'rxjs';
import { idleCallback$, type IdleDeadlineLike } from '../../../streams/scheduler/idleCallback';
import { scheduleInFrames, type ScheduleInFramesOptions } from '../../../streams/scheduler/scheduleInFrames';
import { SCHEDULER_FRAME_BUDGET_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

/**
 * Jobs are letters; the subscriber's "work" on each one advances a fake work clock by its cost, which is the clock
 * the budget reads. Virtual time (frames) and work time are separate, as in a browser where a frame is a moment.
 */
function harness<T extends string>(cost: Record<string, number>) {
  let clock = 0;
  const now = () => clock;
  const work = (o: Observable<T>) => o.pipe(tap((job) => (clock += cost[job] ?? 0)));
  return { now, work };
}

const noIdle = { didTimeout: false, timeRemaining: () => Infinity } satisfies IdleDeadlineLike;

describe('scheduleInFrames', () => {
  it('runs another job while less than 13.7 ms of work is used (production constant)', () => {
    expect(SCHEDULER_FRAME_BUDGET_MS).toBe(13.7);
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 13.6, b: 1, c: 1 });
      const jobs = hot('   (abc)------');
      const frames = hot(' --f-----f--');
      const idle = cold<IdleDeadlineLike>('-');
      // frame 2: a uses 13.6 < 13.7, so b runs too (14.6); c waits for the frame at 8.
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: frames, idle$: idle, now }), work)).toBe('--(ab)--c--');
    });
  });

  it('leaves the rest for the next frame once 13.7 ms are used (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 13.7, b: 1, c: 1 });
      const jobs = hot('   (abc)------');
      const frames = hot(' --f-----f--');
      const idle = cold<IdleDeadlineLike>('-');
      // frame 2: a uses exactly 13.7, the budget is spent; b and c (2 ms) fit in the frame at 8.
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: frames, idle$: idle, now }), work)).toBe('--a-----(bc)');
    });
  });

  it('runs a job longer than the budget alone, and still makes progress', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 50, b: 50 });
      const jobs = hot('   ab------');
      const frames = hot(' --f--f--');
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: frames, idle$: cold('-'), now }), work)).toBe('--a--b--');
    });
  });

  it('with a small budget override, runs two 1 ms jobs per frame, highest priority first, FIFO within a priority', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 1, b: 1, c: 1, d: 1, e: 1 });
      const priorities: Record<string, number> = { a: 1, b: 2, c: 1, d: 2, e: 3 };
      const jobs = hot('   (abcde)-----------');
      const frames = hot(' -------f----f----f');
      const options: ScheduleInFramesOptions<string> = {
        frames$: frames,
        idle$: cold('-'),
        now,
        budgetMs: 2,
        priorityOf: (j) => priorities[j],
      };
      // order e(3) b d(2) a c(1); two per frame at 7, 12 and the last at 17.
      expectObservable(jobs.pipe(scheduleInFrames(options), work)).toBe('-------(eb)-(da)-c');
    });
  });

  it('subscribes frames and idle only while work waits, and releases them when the queue empties', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness({ a: 1 });
      const jobs = hot('   -a-------a---');
      const frames = hot(' ---f--f----f-');
      const idle = cold<IdleDeadlineLike>('-----(i|)', { i: noIdle });
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: frames, idle$: idle, now }), work)).toBe('---a-------a-');
      expectSubscriptions(frames.subscriptions).toBe(['-^-!', '---------^-!']);
      expectSubscriptions(idle.subscriptions).toBe(['-^-!', '---------^-!']);
    });
  });

  it('runs idle-only jobs in the emulated idle callback 300 ms later (production constant), never asking for a frame', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness({ a: 1, b: 1 });
      const jobs = hot('   -ab---');
      const frames = hot(' f-f-f-f');
      const options = { frames$: frames, idle$: idleCallback$({}), now, priorityOf: () => 0, framesFrom: 1 };
      // the idle callback is asked for when a arrives at 1, and runs at 1 + 300 = 301, with b.
      expectObservable(jobs.pipe(scheduleInFrames(options), work)).toBe('- 300ms (ab)');
      expectSubscriptions(frames.subscriptions).toBe([]);
    });
  });

  it('runs frame jobs before idle-only ones in an idle slot, and stops when the deadline has no time left', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 1, b: 1, c: 1 });
      const priorities: Record<string, number> = { a: 0, b: 5, c: 0 };
      const jobs = hot('   (abc)---------');
      const spent = { didTimeout: false, timeRemaining: () => 0 };
      const idle = cold<IdleDeadlineLike>('--(i|)', { i: spent });
      const options = { frames$: cold('-'), idle$: idle, now, priorityOf: (j: string) => priorities[j], framesFrom: 10 };
      // one job per idle slot (the deadline is spent after it): b (5) first, then a and c in order.
      expectObservable(jobs.pipe(scheduleInFrames(options), work)).toBe('--b-a-c');
    });
  });

  it('an idle callback that timed out still runs up to the budget', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 1, b: 1 });
      const idle = cold<IdleDeadlineLike>('--(i|)', { i: { didTimeout: true, timeRemaining: () => 0 } });
      const jobs = hot('(ab)---');
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: cold('-'), idle$: idle, now, framesFrom: 1 }), work)).toBe('--(ab)');
    });
  });

  it('flush$ dispatches everything waiting at once, without a budget', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 10, b: 10, c: 10 });
      const jobs = hot('   (abc)-------');
      const flush = hot('  ----x-------');
      const options = { frames$: cold('-'), idle$: cold<IdleDeadlineLike>('-'), flush$: flush, now };
      expectObservable(jobs.pipe(scheduleInFrames(options), work)).toBe('----(abc)');
    });
  });

  it('a flush asked for by a subscriber during a slot empties the queue in that slot', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ x: 20, a: 20, b: 20 });
      const flush = new Subject<void>();
      const jobs = hot('   (xab)-----');
      const frames = hot(' --f-----f');
      const options = { frames$: frames, idle$: cold<IdleDeadlineLike>('-'), flush$: flush, now };
      // x alone would spend the frame at 2; handling x asks for a flush, so a and b follow in the same frame.
      const flushed = jobs.pipe(
        scheduleInFrames(options),
        work,
        tap((job) => job === 'x' && flush.next()),
      );
      expectObservable(flushed).toBe('--(xab)');
    });
  });

  it('delivers what waits before completing or failing with the source', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 1, b: 1 });
      const frames = hot(' -----f---f');
      const idle = cold<IdleDeadlineLike>('-');
      const options = { frames$: frames, idle$: idle, now, budgetMs: 1 };
      expectObservable(hot('ab|').pipe(scheduleInFrames(options), work)).toBe('-----a---(b|)');
      expectObservable(hot('ab#').pipe(scheduleInFrames(options), work)).toBe('-----a---(b#)');
      expectObservable(hot('--|').pipe(scheduleInFrames(options), work)).toBe('--|');
    });
  });

  it('tears down the source, frames, idle callback and flush trigger on unsubscribe', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness({ a: 1 });
      const jobs = hot('   -a-a----');
      const frames = hot(' -------f');
      const idle = cold<IdleDeadlineLike>('-------(i|)', { i: noIdle });
      const flush = hot('  --------');
      const options = { frames$: frames, idle$: idle, flush$: flush, now };
      expectObservable(jobs.pipe(scheduleInFrames(options), work), '^----!').toBe('------');
      expectSubscriptions(jobs.subscriptions).toBe('^----!');
      expectSubscriptions(flush.subscriptions).toBe('^----!');
      expectSubscriptions(frames.subscriptions).toBe('-^---!');
      expectSubscriptions(idle.subscriptions).toBe('-^---!');
    });
  });

  it('subscribes a finite frames$ again when work next arrives', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const { now, work } = harness({ a: 1 });
      const jobs = hot('   -a---a--');
      const oneFrame = cold('-(f|)');
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: oneFrame, idle$: cold('-'), now }), work)).toBe('--a---a-');
      expectSubscriptions(oneFrame.subscriptions).toBe(['-^!', '-----^!']);
    });
  });

  it('reads a priority that throws or is not a number as 0', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const { now, work } = harness({ a: 1, b: 1, c: 1 });
      const priorityOf = (j: string) => {
        if (j === 'a') throw new Error('bad job');
        return j === 'b' ? (NaN as number) : 1;
      };
      const jobs = hot('   (abc)---');
      const frames = hot(' ------f-');
      expectObservable(jobs.pipe(scheduleInFrames({ frames$: frames, idle$: cold('-'), now, priorityOf }), work)).toBe('------(cab)');
    });
  });
});
