import { batchEvents, type EventFlush, type FlushReason } from '../../../streams/logging/batchEvents';
import {
  LOG_BATCH_DEBOUNCE_MS,
  LOG_BATCH_FORCE_FLUSH_QUEUED_EVENTS,
  LOG_BATCH_INITIAL_TIMEOUT_MS,
  LOG_BATCH_MAX_EVENTS,
  LOG_BATCH_MAX_QUEUE_WAIT_MS,
  LOG_BATCH_MIN_EVENTS,
  LOG_PAYLOAD_EXTRACTION_LIMIT,
} from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const flushOf = (reason: FlushReason, ...batches: string[]): EventFlush<string> => ({
  reason,
  batches: batches.map((b) => b.split('')),
});

/** `count` events named `e`, cut into batches of `size`. */
const chunks = (count: number, size: number): string[][] => {
  const out: string[][] = [];
  for (let i = 0; i < count; i += size) out.push(Array(Math.min(size, count - i)).fill('e'));
  return out;
};

describe('batchEvents at the production constants (spec §9)', () => {
  it('uses the numbers of spec §9', () => {
    expect([
      LOG_BATCH_INITIAL_TIMEOUT_MS,
      LOG_BATCH_DEBOUNCE_MS,
      LOG_BATCH_MAX_QUEUE_WAIT_MS,
      LOG_BATCH_MIN_EVENTS,
      LOG_BATCH_MAX_EVENTS,
      LOG_BATCH_FORCE_FLUSH_QUEUED_EVENTS,
      LOG_PAYLOAD_EXTRACTION_LIMIT,
    ]).toEqual([2000, 10000, 60000, 5, 100, 1000, 1000]);
  });

  it('sends the first batch 2000 ms after the first event, whatever its size', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // a at 0, b at 1 + 1997 = 1998, c at 1999 + 2 = 2001 (after the initial flush at 2000).
      const events = hot('a 1997ms b 2ms c');
      // I at 2000 holds [a, b]; c stays: it is alone (< 5), so the debounce at 12001 does nothing
      // and the max queue wait flushes it 60000 ms after it arrived: 2001 + 60000 = 62001 (2001 + 60000ms marker).
      const expected = '  2000ms I 60000ms M';
      expectObservable(events.pipe(batchEvents())).toBe(expected, { I: flushOf('initial', 'ab'), M: flushOf('maxWait', 'c') });
    });
  });

  it('after the first batch, flushes 10000 ms after the last event once 5 are queued', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // a at 0 (initial flush at 2000); b..f at 1 + 2999 = 3000 … 3004.
      const events = hot('a 2999ms bcdef');
      // D at 3004 + 10000 = 13004 = 2001 + 11003.
      const expected = '  2000ms I 11003ms D';
      expectObservable(events.pipe(batchEvents())).toBe(expected, { I: flushOf('initial', 'a'), D: flushOf('debounce', 'bcdef') });
    });
  });

  it('does not debounce-flush 4 events: they wait for the 60000 ms max queue wait', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // b..e at 3000 … 3003; the debounce fires at 13003 with 4 < 5 events and flushes nothing;
      // M at 3000 + 60000 = 63000 = 2001 + 60999.
      const events = hot('a 2999ms bcde');
      const expected = '  2000ms I 60999ms M';
      expectObservable(events.pipe(batchEvents())).toBe(expected, { I: flushOf('initial', 'a'), M: flushOf('maxWait', 'bcde') });
    });
  });

  it('flushes after 60000 ms even while events keep the 10000 ms debounce from firing', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // b at 3000, then one event every 9999 ms (each marker adds 1 frame for the letter + 9998 ms):
      // c 12999, d 22998, e 32997, f 42996, g 52995, h 62994 — the debounce never gets 10000 quiet ms.
      const events = hot('a 2999ms b 9998ms c 9998ms d 9998ms e 9998ms f 9998ms g 9998ms h');
      // M at b + 60000 = 63000 = 2001 + 60999, holding b..h.
      const expected = '  2000ms I 60999ms M';
      expectObservable(events.pipe(batchEvents())).toBe(expected, { I: flushOf('initial', 'a'), M: flushOf('maxWait', 'bcdefgh') });
    });
  });

  it('takes the arrival time from arrivedAt when given (the log sink read the clock for its stamp): the max wait runs from it', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // As the 4-event case above, each event said to have arrived 1000 ms before it is queued: b..e at 2000 … 2003,
      // so M at 2000 + 60000 = 62000 = 2001 + 59999.
      const events = hot('a 2999ms bcde');
      const expected = '  2000ms I 59999ms M';
      expectObservable(events.pipe(batchEvents({ arrivedAt: () => scheduler.now() - 1000 }))).toBe(expected, {
        I: flushOf('initial', 'a'),
        M: flushOf('maxWait', 'bcde'),
      });
    });
  });

  it('forces a flush when the 1000th event is queued, in batches of 100', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // 1000 events at frames 0 … 999, long before the 2000 ms initial timeout; 999 queued events do not force.
      const events = hot('e'.repeat(1000));
      const expected = '  999ms F';
      expectObservable(events.pipe(batchEvents())).toBe(expected, { F: { reason: 'force', batches: chunks(1000, 100) } });
    });
  });

  it('extracts at most 1000 events per flush; the rest stay queued', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // With the forced flush moved to 1500, the 1500th event (frame 1499) flushes 1000 (10 × 100) and leaves 500.
      // Those 500 go out with the debounce: 1499 + 10000 = 11499 = 1500 + 9999.
      const events = hot('e'.repeat(1500));
      const expected = '  1499ms F 9999ms D';
      expectObservable(events.pipe(batchEvents({ forceFlushQueuedEvents: 1500 }))).toBe(expected, {
        F: { reason: 'force', batches: chunks(1000, 100) },
        D: { reason: 'debounce', batches: chunks(500, 100) },
      });
    });
  });
});

describe('batchEvents logic (small overrides)', () => {
  it('initial, debounce with minimum batch, and max wait', () => {
    createTestScheduler().run(({ hot, time, expectObservable, expectSubscriptions }) => {
      const initialTimeoutMs = time('---|'); // 3
      const debounceMs = time('    ----|'); // 4
      const maxQueueWaitMs = time('----------|'); // 10
      // prettier-ignore
      const events = hot('  a-b---c-d-e----------fg---------------');
      const subs = '        ^-------------------------------------!';
      // I at 3 [a,b]. c,d,e (6, 8, 10): debounce at 14 sees 3 < 4 → waits; max wait from c (6) → 16.
      // f,g at 21, 22: debounce at 26 sees 2 < 4 → waits; max wait from f → 31.
      const expected = '    ---I------------M--------------N------';
      const result = events.pipe(batchEvents({ initialTimeoutMs, debounceMs, maxQueueWaitMs, minBatchEvents: 4 }));
      expectObservable(result, subs).toBe(expected, {
        I: flushOf('initial', 'ab'),
        M: flushOf('maxWait', 'cde'),
        N: flushOf('maxWait', 'fg'),
      });
      expectSubscriptions(events.subscriptions).toBe(subs);
    });
  });

  it('a debounce flush needs the minimum batch; each event restarts the debounce', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // prettier-ignore
      const events = hot('a---bc-d-e---');
      // I at 2; b,c,d at 4,5,7 → debounce from 7 fires at 10 only if 3 are queued… e at 9 restarts it → 12 with 4.
      const expected = '  --I---------D';
      expectObservable(events.pipe(batchEvents({ initialTimeoutMs: 2, debounceMs: 3, minBatchEvents: 4, maxQueueWaitMs: 100 }))).toBe(expected, {
        I: flushOf('initial', 'a'),
        D: flushOf('debounce', 'bcde'),
      });
    });
  });

  it('cuts a flush into batches of maxBatchEvents and forces at the threshold', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const events = hot('abcde-fg');
      // The 5th event (frame 4) forces [a..e] in batches of 2. That was the first flush, so f, g (6, 7) wait for the
      // debounce, not the initial timeout: 7 + 3 = 10, with 2 ≥ minBatchEvents 2.
      const expected = '  ----F-----D';
      expectObservable(events.pipe(batchEvents({ forceFlushQueuedEvents: 5, maxBatchEvents: 2, debounceMs: 3, minBatchEvents: 2, initialTimeoutMs: 50 }))).toBe(
        expected,
        { F: flushOf('force', 'ab', 'cd', 'e'), D: flushOf('debounce', 'fg') },
      );
    });
  });

  it('flushes everything on a lifecycle flush, then goes back to batching as before', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const events = hot('  ab-c-------d----');
      const flush = hot('   ---x--x---------');
      const flushSubs = '   ^--------------!';
      // x at 3 flushes a,b,c at once (before the initial timeout of 5); x at 6 finds nothing and emits nothing.
      // d at 11 → first flush already done → debounce 2 → 13 (min batch 1).
      const expected = '    ---L---------D';
      const result = events.pipe(batchEvents({ flush$: flush, initialTimeoutMs: 5, debounceMs: 2, minBatchEvents: 1 }));
      expectObservable(result, flushSubs).toBe(expected, { L: flushOf('lifecycle', 'abc'), D: flushOf('debounce', 'd') });
      expectSubscriptions(flush.subscriptions).toBe(flushSubs);
    });
  });

  it('a lifecycle flush drains past the payload extraction limit', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const events = hot('abcdefg');
      const flush = hot(' -------x');
      // 7 queued, 3 per extraction → three emissions in the same frame.
      const expected = '  -------(LMN)';
      expectObservable(events.pipe(batchEvents({ flush$: flush, payloadExtractionLimit: 3, initialTimeoutMs: 50 }))).toBe(expected, {
        L: flushOf('lifecycle', 'abc'),
        M: flushOf('lifecycle', 'def'),
        N: flushOf('lifecycle', 'g'),
      });
    });
  });

  it('events a forced flush leaves behind keep their max-wait clock, also when they were queued in the same instant as taken ones', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const options = { forceFlushQueuedEvents: 4, payloadExtractionLimit: 3, maxQueueWaitMs: 10, initialTimeoutMs: 50 };
      // a–d at 0 force a flush of a–c; d stays, queued at 0; e at 5. Max wait from d: 0 + 10 = frame 10 (not 15, e's).
      expectObservable(hot('(abcd)e').pipe(batchEvents(options))).toBe('F 9ms M', { F: flushOf('force', 'abc'), M: flushOf('maxWait', 'de') });
      // a, b at 0 and c, d at 5: the flush at 5 takes a–c and d keeps its own time: 5 + 10 = 15.
      expectObservable(hot('(ab)-(cd)').pipe(batchEvents(options))).toBe('-----F 9ms M', { F: flushOf('force', 'abc'), M: flushOf('maxWait', 'd') });
      // Three instants in the queue (a at 0, b×3 at 1, c×2 at 8), the cut inside the second: the first c forces a flush
      // of a, b, b; the b left (queued at 1) is the oldest: 1 + 10 = 11.
      expectObservable(hot('a(bbb)--(cc)').pipe(batchEvents({ ...options, forceFlushQueuedEvents: 5 }))).toBe('--------F 2ms M', {
        F: flushOf('force', 'abb'),
        M: flushOf('maxWait', 'bcc'),
      });
      // Two cuts in a row: a, b, b force a flush of a, b (one b left of its instant), the third b joins it, c at 6
      // forces a flush of both b's; c alone is left, queued at 6: 6 + 10 = 16 (not 11, from the b's instant).
      expectObservable(hot('a(bbb)c').pipe(batchEvents({ ...options, forceFlushQueuedEvents: 3, payloadExtractionLimit: 2 }))).toBe('-F----G 9ms M', {
        F: flushOf('force', 'ab'),
        G: flushOf('force', 'bb'),
        M: flushOf('maxWait', 'c'),
      });
    });
  });

  it('drains the queue before completing or erroring, and never emits an empty flush', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('ab|').pipe(batchEvents({ initialTimeoutMs: 50 }))).toBe('--(C|)', { C: flushOf('complete', 'ab') });
      expectObservable(cold('ab#').pipe(batchEvents({ initialTimeoutMs: 50 }))).toBe('--(C#)', { C: flushOf('complete', 'ab') });
      expectObservable(cold('---|').pipe(batchEvents())).toBe('---|');
    });
  });

  it('never changes a batch it has emitted: events queued after a flush go to a new queue', () => {
    // The queue array itself becomes the batch when everything fits in one (issue 15): later events must not reach it.
    createTestScheduler().run(({ hot, expectObservable }) => {
      const flush = hot('--x------');
      // c at 3, d at 4: the debounce (2 frames, any size) flushes them at 6.
      const batched = hot('ab-cd----').pipe(batchEvents({ flush$: flush, initialTimeoutMs: 3, debounceMs: 2, minBatchEvents: 1 }));
      expectObservable(batched).toBe('--L---D', { L: flushOf('lifecycle', 'ab'), D: flushOf('debounce', 'cd') });
    });
  });

  it('ignores errors of flush$ and tears everything down on unsubscribe', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const events = hot('a-b------');
      const flush = hot(' -#');
      const subs = '      ^---!';
      // The flush$ error at 1 changes nothing; unsubscribing at 4 cancels the initial timer (5): nothing is emitted.
      expectObservable(events.pipe(batchEvents({ flush$: flush, initialTimeoutMs: 5 })), subs).toBe('-----');
      expectSubscriptions(events.subscriptions).toBe(subs);
    });
  });
});
