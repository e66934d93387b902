import { map, type Observable, of, throwError } from 'rxjs';
import type { QueuedLogRequest } from '../../../streams/retry/QueuedLogRequest';
import { retryQueueDrain, type RetryQueueEffects, type RetryQueueEvent } from '../../../streams/retry/retryQueueDrain';
import { RETRY_QUEUE_RETRY_DELAY_MS, RETRY_QUEUE_RETRY_WINDOW_MS, RETRY_QUEUE_THROTTLE_MS } from '../../../streams/timing';
import type { ApiFetchError } from '../../../streams/transport/apiErrors';
import { parseApiResponse } from '../../../streams/transport/parseApiResponse';
import { createTestScheduler } from '../../helpers/testScheduler';

/** A synchronous in-memory queue with the real queue's rules (NEW → QUEUED, failure → NEW + 1, success → gone). */
function fakeQueue(ids: number[] = []) {
  const records: QueuedLogRequest[] = [];
  const claims: number[] = [];
  const add = (id: number) =>
    records.push({
      id,
      url: `https://collector.test/log_event?${id}`,
      options: { method: 'POST', headers: {}, body: `${id}` },
      timestamp: 0,
      status: 'NEW',
      sendCount: 0,
      interfaceNumber: 56,
    });
  ids.forEach(add);
  const effects: RetryQueueEffects = {
    claimNext: (now) => {
      claims.push(now);
      const next = records.find((r) => r.status === 'NEW');
      if (next) Object.assign(next, { status: 'QUEUED', timestamp: now });
      return of(next && { ...next });
    },
    markSent: (request) => {
      records.splice(
        records.findIndex((r) => r.id === request.id),
        1,
      );
      return of(undefined);
    },
    markFailed: (request) => {
      const record = records.find((r) => r.id === request.id)!;
      Object.assign(record, { status: 'NEW', sendCount: record.sendCount + 1 });
      return of('requeued' as const);
    },
  };
  return { effects, records, claims, add };
}

/** Events as short strings: `s1` sent request 1, `f1` failed request 1, `e` storage error. */
const short = (events: Observable<RetryQueueEvent>) =>
  events.pipe(map((e) => (e.type === 'sent' ? `s${e.request.id}` : e.type === 'failed' ? `f${e.request.id}:${e.retryInMs}` : 'e')));

const ok = () => of('200 OK');
const serverError = { status: 500 };

describe('retryQueueDrain', () => {
  it(`sends queued requests one at a time, ${RETRY_QUEUE_THROTTLE_MS} ms apart (production constant)`, () => {
    expect(RETRY_QUEUE_THROTTLE_MS).toBe(100);
    createTestScheduler().run(({ cold, expectObservable }) => {
      const queue = fakeQueue([1, 2, 3]);
      const online = cold('t', { t: true });
      // Online at 0: request 1 at 0, then 100 ms between sends: 2 at 100, 3 at 200 ('a' takes 1 frame, so 99ms).
      const expected = 'a 99ms b 99ms c';
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: online })), '^ 1000ms !').toBe(expected, {
        a: 's1',
        b: 's2',
        c: 's3',
      });
    });
  });

  it('throttles with a small override, and stops claiming once nothing is due', () => {
    const queue = fakeQueue([1, 2]);
    createTestScheduler().run(({ cold, time, expectObservable }) => {
      const throttleMs = time('---|');
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }), throttleMs })), '^ 20ms !').toBe('a--b', {
        a: 's1',
        b: 's2',
      });
    });
    // Claims at 0, 3 (request 2) and 6 (none): the cycle ended there.
    expect(queue.claims).toEqual([0, 3, 6]);
  });

  it(`a stored request is resent ${RETRY_QUEUE_RETRY_DELAY_MS} ms after it was stored; stores within that delay join the same drain`, () => {
    expect(RETRY_QUEUE_RETRY_DELAY_MS).toBe(5_000);
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const queue = fakeQueue();
      const stored = hot('10ms s 999ms s');
      stored.subscribe(() => queue.add(queue.records.length + 1));
      // Stored at 10 and 1010; one drain at 10 + 5000 = 5010 sends both (the second 100 ms later, at 5110).
      const expected = '5010ms a 99ms b';
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }), stored$: stored })), '^ 10000ms !').toBe(
        expected,
        { a: 's1', b: 's2' },
      );
    });
  });

  it(`every queued request is retried within ${RETRY_QUEUE_RETRY_WINDOW_MS} ms, even one another tab stored (sweep)`, () => {
    expect(RETRY_QUEUE_RETRY_WINDOW_MS).toBe(120_000);
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const queue = fakeQueue();
      hot('10ms x').subscribe(() => queue.add(7)); // written by another tab: no stored$ here
      // The sweep fires at 120000.
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }) })), '^ 200000ms !').toBe('120000ms a', {
        a: 's7',
      });
    });
  });

  it('a server that keeps failing is not hammered: one failed send per step, back-off 5 s doubling up to 120 s (production constants)', () => {
    const queue = fakeQueue([1, 2, 3]);
    createTestScheduler().run(({ cold, expectObservable }) => {
      const failing = () => throwError(() => serverError);
      // Delays 5000, 10000, 20000, 40000, 80000, then capped at 120000: sends at 0, 5000, 15000, 35000, 75000,
      // 155000, 275000. Sweeps at 120000 and 240000 fall inside back-offs and are ignored.
      const expected = 'a 4999ms b 9999ms c 19999ms d 39999ms e 79999ms f 119999ms g';
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: failing, online$: cold('t', { t: true }) })), '^ 300000ms !').toBe(expected, {
        a: 'f1:5000',
        b: 'f1:10000',
        c: 'f1:20000',
        d: 'f1:40000',
        e: 'f1:80000',
        f: 'f1:120000',
        g: 'f1:120000',
      });
    });
    // Asserted after the run (the scheduler flushes when the callback returns): only the probe request was tried.
    expect(queue.records.map((r) => r.sendCount)).toEqual([7, 0, 0]);
  });

  it('the back-off uses the override values and a success resets it', () => {
    createTestScheduler().run(({ cold, time, expectObservable }) => {
      const queue = fakeQueue([1, 2]);
      let calls = 0;
      const flaky = () => (++calls === 1 ? throwError(() => serverError) : of('ok'));
      const retryDelayMs = time('-----|');
      const throttleMs = time('--|');
      // f1 at 0 → back-off 5 → s1 at 5 → throttle 2 → s2 at 7.
      expectObservable(
        short(retryQueueDrain({ queue: queue.effects, send: flaky, online$: cold('t', { t: true }), retryDelayMs, throttleMs, retryWindowMs: 1000 })),
        '^ 30ms !',
      ).toBe('a----b-c', { a: 'f1:5', b: 's1', c: 's2' });
    });
  });

  it('classifies failures with isPotentialError and passes the verdict to markFailed', () => {
    const verdicts: boolean[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const queue = fakeQueue([1]);
      const effects = {
        ...queue.effects,
        markFailed: (r: QueuedLogRequest, f: { potential: boolean }) => (verdicts.push(f.potential), of('dropped' as const)),
      };
      expectObservable(
        retryQueueDrain({ queue: effects, send: () => throwError(() => ({ status: 400 })), online$: cold('t', { t: true }) }).pipe(
          map((e) => e.type === 'failed' && e.outcome),
        ),
        '^ 10ms !',
      ).toBe('a', { a: 'dropped' });
    });
    expect(verdicts).toEqual([false]);
  });

  it('pauses while offline (a send in flight finishes) and resumes when the network comes back', () => {
    createTestScheduler().run(({ cold, hot, time, expectObservable, expectSubscriptions }) => {
      const queue = fakeQueue([1, 2, 3]);
      const send = cold('-----(o|)');
      const online = cold('t 9ms f 19ms t', { t: true, f: false });
      const stored = hot('15ms s'); // triggers while offline are ignored
      const throttleMs = time('---|');
      // 1: sent 0→5. 2: claimed at 8, in flight when offline at 10, finishes at 13, then the cycle stops.
      // Online again at 30: 3 sent 30→35.
      const expected = '5ms a 7ms b 21ms c';
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: () => send, online$: online, stored$: stored, throttleMs })), '^ 60ms !').toBe(
        expected,
        {
          a: 's1',
          b: 's2',
          c: 's3',
        },
      );
      expectSubscriptions(send.subscriptions).toBe(['^----!', '8ms ^----!', '30ms ^----!']);
      expectSubscriptions(online.subscriptions).toBe('^ 60ms !');
    });
  });

  it('starts nothing while offline from the start', () => {
    const queue = fakeQueue([1]);
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('f', { f: false }) })), '^ 300000ms !').toBe('');
    });
    expect(queue.claims).toEqual([]);
  });

  it('a storage error ends the cycle with an event; the next trigger drains again', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const queue = fakeQueue([1]);
      let broken = true;
      const effects = {
        ...queue.effects,
        claimNext: (now: number) => (broken ? ((broken = false), throwError(() => new Error('quota'))) : queue.effects.claimNext(now)),
      };
      const stored = hot('10ms s');
      expectObservable(
        short(retryQueueDrain({ queue: effects, send: ok, online$: cold('t', { t: true }), stored$: stored, retryDelayMs: 5 })),
        '^ 30ms !',
      ).toBe('e 14ms a', { e: 'e', a: 's1' });
    });
  });

  it('unsubscribing cancels the send in flight and every timer', () => {
    const queue = fakeQueue([1]);
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const send = cold('----------(o|)');
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: () => send, online$: cold('t', { t: true }) })), '^--!').toBe('');
      expectSubscriptions(send.subscriptions).toBe('^--!');
    });
    // The request stays QUEUED: another page picks it up once it is stale (60 s).
    expect(queue.records[0].status).toBe('QUEUED');
  });

  it('reads the time from the injected scheduler when it claims', () => {
    const queue = fakeQueue([1, 2]);
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }) })), '^ 1000ms !').toBe('a 99ms b', {
        a: 's1',
        b: 's2',
      });
    });
    // The claims happened at frames 0, 100 and 200 of the TestScheduler's virtual clock, never Date.now().
    expect(queue.claims).toEqual([0, 100, 200]);
  });
  describe('Retry-After (issue 12)', () => {
    /** The error the transport produces for an answer: parseApiResponse throws it, as createApiTransport does. */
    const answer = (status: number, retryAfter: string | null): ApiFetchError => {
      try {
        parseApiResponse(status, 'application/json', '{"error":{"code":429}}', { isLogRequest: true, retryAfter, nowMs: 0 });
      } catch (error) {
        return error as ApiFetchError;
      }
      throw new Error('expected an error status');
    };
    /** A send that fails with the given errors in turn, then succeeds. */
    const failingWith = (...errors: unknown[]) => {
      let calls = 0;
      return () => (calls < errors.length ? throwError(() => errors[calls++]) : (calls++, of('200 OK')));
    };

    it('a 429 with Retry-After: 30 delays the next send by 30 s, not 5 s; the request is kept (potential error), not dropped', () => {
      expect(RETRY_QUEUE_RETRY_DELAY_MS).toBe(5_000);
      expect(answer(429, '30')).toMatchObject({ status: 429, retryAfterMs: 30_000 });
      const verdicts: boolean[] = [];
      const queue = fakeQueue([1]);
      createTestScheduler().run(({ cold, expectObservable }) => {
        const effects = {
          ...queue.effects,
          markFailed: (r: QueuedLogRequest, f: { potential: boolean }) => (verdicts.push(f.potential), queue.effects.markFailed(r, f)),
        };
        // f1 at 0 → wait max(5000 back-off, 30000 Retry-After) = 30000 → s1 at 30000 ('a' is 1 frame: 29999ms).
        expectObservable(
          short(retryQueueDrain({ queue: effects, send: failingWith(answer(429, '30')), online$: cold('t', { t: true }) })),
          '^ 100000ms !',
        ).toBe('a 29999ms b', { a: 'f1:30000', b: 's1' });
      });
      expect(verdicts).toEqual([true]);
      expect(queue.records).toEqual([]); // sent, not dropped
    });

    it('a 503 with Retry-After as an HTTP date is honoured the same way', () => {
      // nowMs 0 in `answer`: the epoch plus 45 s.
      const error = answer(503, 'Thu, 01 Jan 1970 00:00:45 GMT');
      expect(error.retryAfterMs).toBe(45_000);
      createTestScheduler().run(({ cold, expectObservable }) => {
        expectObservable(
          short(retryQueueDrain({ queue: fakeQueue([1]).effects, send: failingWith(error), online$: cold('t', { t: true }) })),
          '^ 100000ms !',
        ).toBe('a 44999ms b', { a: 'f1:45000', b: 's1' });
      });
    });

    it('a garbage Retry-After falls back to the normal back-off (5 s)', () => {
      const error = answer(429, 'in a while');
      expect(error.retryAfterMs).toBeUndefined();
      createTestScheduler().run(({ cold, expectObservable }) => {
        expectObservable(
          short(retryQueueDrain({ queue: fakeQueue([1]).effects, send: failingWith(error), online$: cold('t', { t: true }) })),
          '^ 100000ms !',
        ).toBe('a 4999ms b', { a: 'f1:5000', b: 's1' });
      });
    });

    it('the larger of the back-off step and Retry-After wins, failure by failure', () => {
      createTestScheduler().run(({ cold, expectObservable }) => {
        // 1st failure: max(5000, 30000) = 30000. 2nd: max(10000, 1000) = 10000. 3rd: max(20000, 0) = 20000. Then s1.
        // Sends at 0, 30000, 40000, 60000.
        const send = failingWith(answer(429, '30'), answer(429, '1'), answer(503, '0'));
        expectObservable(short(retryQueueDrain({ queue: fakeQueue([1]).effects, send, online$: cold('t', { t: true }) })), '^ 100000ms !').toBe(
          'a 29999ms b 9999ms c 19999ms d',
          { a: 'f1:30000', b: 'f1:10000', c: 'f1:20000', d: 's1' },
        );
      });
    });

    it(`a hostile Retry-After (a day) is capped at the retry window, ${RETRY_QUEUE_RETRY_WINDOW_MS} ms`, () => {
      expect(RETRY_QUEUE_RETRY_WINDOW_MS).toBe(120_000);
      createTestScheduler().run(({ cold, expectObservable }) => {
        // Retry-After: 86400 s → capped at 120000. The sweep at 120000 falls inside the wait and is ignored: one send.
        const send = failingWith(answer(429, '86400'), answer(429, String(Number.MAX_SAFE_INTEGER)));
        expectObservable(short(retryQueueDrain({ queue: fakeQueue([1]).effects, send, online$: cold('t', { t: true }) })), '^ 300000ms !').toBe(
          'a 119999ms b 119999ms c',
          { a: 'f1:120000', b: 'f1:120000', c: 's1' },
        );
      });
    });

    it('the wait holds for every request of the queue, and is not cut short by going offline and back', () => {
      createTestScheduler().run(({ cold, hot, expectObservable }) => {
        const queue = fakeQueue([1, 2]);
        const online = cold('t 9ms f 9ms t', { t: true, f: false }); // offline at 10, online again at 20
        const stored = hot('25ms s'); // a store during the wait: its drain (at 5025) waits too
        // f1 at 0 (Retry-After 60). The cycle ends offline at 10; the one starting online at 20 and the stored one
        // wait until 60000: s1 at 60000, s2 throttled 100 ms later.
        expectObservable(
          short(retryQueueDrain({ queue: queue.effects, send: failingWith(answer(429, '60')), online$: online, stored$: stored })),
          '^ 100000ms !',
        ).toBe('a 59999ms b 99ms c', { a: 'f1:60000', b: 's1', c: 's2' });
      });
    });

    it('a Retry-After the log sink met (stored$ emitting the send error) holds the first resend back as well', () => {
      createTestScheduler().run(({ cold, hot, expectObservable }) => {
        const queue = fakeQueue();
        const stored = hot('10ms s 9ms g', { s: answer(429, '30'), g: answer(429, 'garbage') });
        stored.subscribe(() => queue.add(queue.records.length + 1));
        // Stored at 10 with Retry-After 30 → the drain triggered at 5010 waits until 30010; both go then.
        expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }), stored$: stored })), '^ 100000ms !').toBe(
          '30010ms a 99ms b',
          { a: 's1', b: 's2' },
        );
      });
      createTestScheduler().run(({ cold, hot, expectObservable }) => {
        const queue = fakeQueue();
        const stored = hot('10ms g', { g: answer(429, 'garbage') });
        stored.subscribe(() => queue.add(1));
        // No usable Retry-After: the usual 5000 ms after the store.
        expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }), stored$: stored })), '^ 100000ms !').toBe(
          '5010ms a',
          { a: 's1' },
        );
      });
    });

    it('a Retry-After the log sink meets while a back-off timer runs holds the next resend back too', () => {
      createTestScheduler().run(({ cold, hot, expectObservable }) => {
        const queue = fakeQueue([1]);
        // f1 at 0 (a 500: back-off 5000). At 1000 the sink's own send meets a 429 asking 60 s: the resend that the
        // back-off timer would start at 5000 waits until 61000 instead.
        const stored = hot('1000ms s', { s: answer(429, '60') });
        const send = failingWith(serverError);
        expectObservable(short(retryQueueDrain({ queue: queue.effects, send, online$: cold('t', { t: true }), stored$: stored })), '^ 100000ms !').toBe(
          'a 60999ms b',
          { a: 'f1:5000', b: 's1' },
        );
      });
    });

    it('a Retry-After the log sink meets between two throttled sends holds the second one back', () => {
      createTestScheduler().run(({ cold, hot, expectObservable }) => {
        const queue = fakeQueue([1, 2]);
        // s1 at 0; the throttle would send s2 at 100, but at 50 the sink met a 429 asking 60 s: s2 at 60050.
        const stored = hot('50ms s', { s: answer(429, '60') });
        expectObservable(short(retryQueueDrain({ queue: queue.effects, send: ok, online$: cold('t', { t: true }), stored$: stored })), '^ 100000ms !').toBe(
          'a 60049ms b',
          { a: 's1', b: 's2' },
        );
      });
    });

    it('the logic once more with small overrides: the cap is the retry window', () => {
      createTestScheduler().run(({ cold, time, expectObservable }) => {
        const retryDelayMs = time('--|');
        const retryWindowMs = time('-------|');
        // retryAfterMs 4 > back-off 2 → 4; then 1000 → capped at 7.
        const send = failingWith({ status: 429, retryAfterMs: 4 }, { status: 429, retryAfterMs: 1_000 });
        expectObservable(
          short(retryQueueDrain({ queue: fakeQueue([1]).effects, send, online$: cold('t', { t: true }), retryDelayMs, retryWindowMs })),
          '^ 30ms !',
        ).toBe('a---b------c', { a: 'f1:4', b: 'f1:7', c: 's1' });
      });
    });
  });
});
