import { lastValueFrom, type Observable } from 'rxjs';
import { createLogSink, type LogSinkOutcome } from '../../../streams/logging/createLogSink';
import { createRetryQueue } from '../../../streams/retry/createRetryQueue';
import { logsDatabase } from '../../../streams/retry/logsDatabase';
import { createDatabase } from '../../../streams/storage/createDatabase';
import { ApiFetchError } from '../../../streams/transport/apiErrors';
import { buildClientContext } from '../../../streams/transport/buildClientContext';
import { createApiTransport, type FetchInitLike, type FetchLike } from '../../../streams/transport/createApiTransport';
import { nextClientCounter } from '../../../streams/logging/nextClientCounter';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import { STREAM_TOKEN_HEADER, type ApiRequest, type LogEndpoint } from '../../../streams/transport/buildApiRequest';
import { LOG_BATCH_COUNTER_MAX, RETRY_QUEUE_EXPIRY_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

/** A stand-in for `transport.buildRequest`: deterministic, so expected requests can be rebuilt in the test. */
const buildRequest = (endpoint: LogEndpoint, payload: Record<string, unknown>): ApiRequest => ({
  url: `/youtubei/v1/${endpoint}`,
  options: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ context: { c: 1 }, ...payload }) },
});

const bodyOf = (request: ApiRequest) => JSON.parse(request.options.body);

const events: Record<string, ClientEvent> = {
  a: { name: 'playerLoad', payload: { videoId: 'v1' } },
  b: { name: 'debugInfo', payload: { x: 1 }, debug: true },
  c: { name: 'playerReady', payload: { latencyMs: 12 } },
};

describe('nextClientCounter', () => {
  it('runs 1 … 65535 and wraps back to 1 (production constant)', () => {
    expect(LOG_BATCH_COUNTER_MAX).toBe(65_535);
    expect(nextClientCounter(0)).toBe(1);
    expect(nextClientCounter(1)).toBe(2);
    expect(nextClientCounter(65_534)).toBe(65_535);
    expect(nextClientCounter(65_535)).toBe(1);
  });
  it('restarts at 1 on nonsense', () => {
    expect(nextClientCounter(Number.NaN)).toBe(1);
    expect(nextClientCounter(-3)).toBe(1);
    expect(nextClientCounter(1.5)).toBe(1);
    expect(nextClientCounter(70_000)).toBe(1);
  });
});

describe('createLogSink', () => {
  it('sends the first batch 2000 ms after the first event, log events to log_event and debug events to video_stats', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const send = jest.fn(() => cold('--|'));
      const store = jest.fn();
      const sink = createLogSink({ buildRequest, send, store, pageId: 'page' });
      // a at 0, b at 2; initial flush at 2000; each send answers after 2 frames → outcomes at 2002.
      const logRequest = buildRequest('log_event', {
        events: [{ eventTimeMs: 0, clientEventId: 'page:1', playerLoad: { videoId: 'v1' } }],
        requestTimeMs: 2000,
        serializedClientEventId: { serializedEventId: 'page', clientCounter: 1 },
      });
      const statsRequest = buildRequest('video_stats', {
        events: [{ eventTimeMs: 2, clientEventId: 'page:2', debugInfo: { x: 1 } }],
        requestTimeMs: 2000,
        serializedClientEventId: { serializedEventId: 'page', clientCounter: 2 },
      });
      expectObservable(sink(hot('a-b', events))).toBe('2002ms (LS)', {
        L: { type: 'sent', request: logRequest, keepalive: false, eventCount: 1 },
        S: { type: 'sent', request: statsRequest, keepalive: false, eventCount: 1 },
      });
    });
  });

  it('sends every debug event to video_stats and only those, wherever it falls: in any batch of a flush, in a flush after one without', () => {
    const sent: { endpoint: string; ids: string[] }[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const send = (r: ApiRequest) => {
        sent.push({ endpoint: r.url.split('/').pop() ?? '', ids: bodyOf(r).events.map((e: { clientEventId: string }) => e.clientEventId) });
        return cold('|');
      };
      // Batches of 2; every 4 queued events flush at once (force); the rest drains on completion.
      const sink = createLogSink({ buildRequest, send, store: jest.fn(), pageId: 'p', batching: { maxBatchEvents: 2, forceFlushQueuedEvents: 4 } });
      // Flushes: [a b][a a] (debug in the first batch), [a a][c b] (in the second), [a c][a a] (none), [b b][a] (only debug first).
      sink(hot('abaa-aacb-acaa-bba|', events)).subscribe();
    });
    expect(sent).toEqual([
      { endpoint: 'log_event', ids: ['p:1'] },
      { endpoint: 'video_stats', ids: ['p:2'] },
      { endpoint: 'log_event', ids: ['p:3', 'p:4'] },
      { endpoint: 'log_event', ids: ['p:5', 'p:6'] },
      { endpoint: 'log_event', ids: ['p:7'] },
      { endpoint: 'video_stats', ids: ['p:8'] },
      { endpoint: 'log_event', ids: ['p:9', 'p:10'] },
      { endpoint: 'log_event', ids: ['p:11', 'p:12'] },
      { endpoint: 'video_stats', ids: ['p:13', 'p:14'] },
      { endpoint: 'log_event', ids: ['p:15'] },
    ]);
  });

  it('a request that cannot be built is reported with its events (buildFailed), in order, and the other requests of the flush still go', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const error = new Error('no settings');
      const failing = (endpoint: LogEndpoint, payload: Record<string, unknown>) => {
        if (endpoint === 'log_event') throw error;
        return buildRequest(endpoint, payload);
      };
      const sink = createLogSink({ buildRequest: failing, send: () => cold('-|'), store: jest.fn(), pageId: 'p', batching: { initialTimeoutMs: 2 } });
      expectObservable(sink(hot('ab', events))).toBe('--FS', {
        F: { type: 'buildFailed', events: [{ eventTimeMs: 0, clientEventId: 'p:1', playerLoad: { videoId: 'v1' } }], error },
        S: expect.objectContaining({ type: 'sent', keepalive: false, eventCount: 1 }),
      });
    });
  });

  it('hands a failed request to store, unchanged (never dropped), and keeps going', () => {
    const stored: ApiRequest[] = [];
    const outcomes: LogSinkOutcome[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const error = new Error('API fetch failed');
      const send = jest.fn((): Observable<never> => cold('-#', undefined, error));
      const store = (request: ApiRequest) => {
        stored.push(request);
        return cold('-|');
      };
      const sink = createLogSink({ buildRequest, send, store, pageId: 'p', batching: { initialTimeoutMs: 2 } });
      sink(hot('a', events)).subscribe((o) => outcomes.push(o));
    });
    // flush at 2, send fails at 3, store completes at 4.
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ type: 'stored', eventCount: 1, error: { message: 'API fetch failed' } });
    expect(stored).toEqual([outcomes[0].type === 'stored' && outcomes[0].request]);
    expect(stored[0]).toEqual({ url: '/youtubei/v1/log_event', options: { method: 'POST', headers: expect.any(Object), body: expect.any(String) } });
    expect(bodyOf(stored[0]).events[0]).toMatchObject({ clientEventId: 'p:1', playerLoad: { videoId: 'v1' } });
  });

  it('reports storeFailed when even the retry queue fails, and survives a store that throws', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const send = () => cold('#');
      const store = () => {
        throw new Error('quota');
      };
      const sink = createLogSink({ buildRequest, send, store, pageId: 'p', batching: { initialTimeoutMs: 2 } });
      expectObservable(sink(hot('a', events)).pipe()).toBe('--x', {
        x: expect.objectContaining({ type: 'storeFailed', eventCount: 1, error: new Error('quota') }),
      });
    });
  });

  it('a send that throws is a failed send (stored); a send or store in flight is torn down when the sink is unsubscribed', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const throwing = () => {
        throw new Error('offline');
      };
      const stored = cold('---|');
      const sink = createLogSink({ buildRequest, send: throwing, store: () => stored, pageId: 'p', batching: { initialTimeoutMs: 2 } });
      // a at 0, flush at 2, the send throws, the store takes 3 frames → stored at 5.
      expectObservable(sink(hot('a', events))).toBe('-----x', {
        x: expect.objectContaining({ type: 'stored', eventCount: 1, error: new Error('offline') }),
      });
      expectSubscriptions(stored.subscriptions).toBe('--^--!');
    });
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const slow = cold('------|');
      const sink = createLogSink({ buildRequest, send: () => slow, store: jest.fn(), pageId: 'p', batching: { initialTimeoutMs: 2 } });
      // Unsubscribed at 5, while the send started at 2 is in flight: no outcome, the send is torn down then.
      expectObservable(sink(hot('a', events)), '^----!').toBe('------');
      expectSubscriptions(slow.subscriptions).toBe('--^--!');
    });
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const failing = cold('-#', undefined, new Error('503'));
      const storing = cold('------|');
      const sink = createLogSink({ buildRequest, send: () => failing, store: () => storing, pageId: 'p', batching: { initialTimeoutMs: 2 } });
      // The send fails at 3, the store starts then; unsubscribed at 6, the store is torn down.
      expectObservable(sink(hot('a', events)), '^-----!').toBe('-------');
      expectSubscriptions(storing.subscriptions).toBe('---^--!');
    });
  });

  it('on a lifecycle flush sends everything at once through the keepalive path, then batches as before', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const send = jest.fn(() => cold('|'));
      const sendKeepalive = jest.fn(() => cold('|'));
      const flush = hot('  ---x-------');
      const flushSubs = '  ^---------!';
      const sink = createLogSink({
        buildRequest,
        send,
        sendKeepalive,
        store: jest.fn(),
        pageId: 'p',
        batching: { initialTimeoutMs: 4, debounceMs: 3, minBatchEvents: 1 },
      });
      // a, b at 0, 1 → lifecycle flush at 3 (before the initial timeout of 4): K = keepalive log_event, V = video_stats.
      // c at 5 → debounce 3 → normal send at 8.
      expectObservable(sink(hot('ab---c-----', events), flush), flushSubs).toBe('---(KV)-N--', {
        K: expect.objectContaining({ type: 'sent', keepalive: true, eventCount: 1 }),
        V: expect.objectContaining({ type: 'sent', keepalive: true, eventCount: 1 }),
        N: expect.objectContaining({ type: 'sent', keepalive: false, eventCount: 1 }),
      });
      expectSubscriptions(flush.subscriptions).toBe(flushSubs);
    });
  });

  it('keeps a lifecycle flush within the keepalive budget: halves big requests, stores what does not fit', () => {
    const big = (n: number): ClientEvent => ({ name: 'watchTimeSegment', payload: { n, pad: 'x'.repeat(1000) } });
    const outcomes: LogSinkOutcome[] = [];
    const stored: ApiRequest[] = [];
    const keepalive: ApiRequest[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const sink = createLogSink({
        buildRequest,
        send: () => cold('|'),
        sendKeepalive: (r) => {
          keepalive.push(r);
          return cold('|');
        },
        store: (r) => {
          stored.push(r);
        },
        pageId: 'p',
        keepaliveBudgetBytes: 2_500,
        batching: { initialTimeoutMs: 100 },
      });
      sink(hot('abcd', { a: big(1), b: big(2), c: big(3), d: big(4) }), hot('-----x')).subscribe((o) => outcomes.push(o));
    });
    // One request of 4 events is ~4.2 kB > 2.5 kB: halved into 2 + 2 (~2.1 kB each). The first fits; the second would
    // exceed what is left of the budget, so it goes to the retry queue instead of being lost with the page.
    // (The stored one reports first: the fake store is synchronous, the fake keepalive send completes a tick later.)
    expect(outcomes.map((o) => [o.type, 'eventCount' in o ? o.eventCount : 0]).sort()).toEqual([
      ['deferred', 2],
      ['sent', 2],
    ]);
    expect(keepalive.reduce((n, r) => n + r.options.body.length, 0)).toBeLessThanOrEqual(2_500);
    expect(bodyOf(keepalive[0]).events.map((e: { watchTimeSegment: { n: number } }) => e.watchTimeSegment.n)).toEqual([1, 2]);
    expect(bodyOf(stored[0]).events.map((e: { watchTimeSegment: { n: number } }) => e.watchTimeSegment.n)).toEqual([3, 4]);
  });

  it('numbers requests with a wrapping client counter', () => {
    const counters: number[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const send = (r: ApiRequest) => {
        counters.push(bodyOf(r).serializedClientEventId.clientCounter);
        return cold('|');
      };
      // forceFlushQueuedEvents 1: every event is its own request.
      const sink = createLogSink({ buildRequest, send, store: jest.fn(), counterMax: 2, batching: { forceFlushQueuedEvents: 1 } });
      sink(hot('aaaa', events)).subscribe();
    });
    expect(counters).toEqual([1, 2, 1, 2]);
  });

  it('gives every event a client-unique id and requests a per-page serializedEventId', () => {
    const bodies: { events: { clientEventId: string }[]; serializedClientEventId: { serializedEventId: string } }[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const send = (r: ApiRequest) => {
        bodies.push(bodyOf(r));
        return cold('|');
      };
      createLogSink({ buildRequest, send, store: jest.fn(), batching: { initialTimeoutMs: 3 } })(hot('aca', events)).subscribe();
    });
    const ids = bodies.flatMap((b) => b.events.map((e) => e.clientEventId));
    expect(new Set(ids).size).toBe(3);
    const pageId = bodies[0].serializedClientEventId.serializedEventId;
    expect(pageId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(ids).toEqual([`${pageId}:1`, `${pageId}:2`, `${pageId}:3`]);
  });

  it('drains and sends the queue when the event source errors, then completes', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const send = () => cold('-|');
      const sink = createLogSink({ buildRequest, send, store: jest.fn(), pageId: 'p' });
      expectObservable(sink(hot('a-#', events))).toBe('---(x|)', { x: expect.objectContaining({ type: 'sent', eventCount: 1 }) });
    });
  });

  it('an event it cannot stamp (a name whose String() throws) errors the outcome stream, after handing the queue to send', () => {
    // Stamping runs in the sink's own subscriber (issue 15); it keeps what `map(stampEvent)` did: the queue is built and
    // sent first, then the error ends the stream (the pending send's outcome with it).
    createTestScheduler().run(({ hot, cold, expectObservable, flush }) => {
      const send = jest.fn(() => cold('|'));
      const unprintable = {
        name: {
          toString() {
            throw new Error('unprintable');
          },
        },
        payload: 1,
      } as unknown as ClientEvent;
      const sink = createLogSink({ buildRequest, send, store: jest.fn(), pageId: 'p' });
      expectObservable(sink(hot('a-u', { ...events, u: unprintable }))).toBe('--#', undefined, new Error('unprintable'));
      flush();
      expect(send).toHaveBeenCalledTimes(1);
      expect(send).toHaveBeenCalledWith(
        buildRequest('log_event', {
          events: [{ eventTimeMs: 0, clientEventId: 'p:1', playerLoad: { videoId: 'v1' } }],
          requestTimeMs: 2,
          serializedClientEventId: { serializedEventId: 'p', clientCounter: 1 },
        }),
      );
    });
  });

  it('logs a reserved or empty event name as invalidEvent instead of overwriting the envelope', () => {
    const bodies: { events: Record<string, unknown>[] }[] = [];
    createTestScheduler().run(({ hot, cold }) => {
      const send = (r: ApiRequest) => {
        bodies.push(bodyOf(r));
        return cold('|');
      };
      const bad = { x: { name: 'clientEventId', payload: 'boom' }, y: { name: '', payload: 1 } } as Record<string, ClientEvent>;
      createLogSink({ buildRequest, send, store: jest.fn(), pageId: 'p', batching: { initialTimeoutMs: 2 } })(hot('xy', bad)).subscribe();
    });
    expect(bodies[0].events).toEqual([
      { eventTimeMs: 0, clientEventId: 'p:1', invalidEvent: { name: 'clientEventId', payload: 'boom' } },
      { eventTimeMs: 1, clientEventId: 'p:2', invalidEvent: { name: '', payload: 1 } },
    ]);
  });
  it('a 429 with Retry-After is stored like any other failure: same request, the error (with retryAfterMs) on the outcome', () => {
    const stored: ApiRequest[] = [];
    const outcomes: LogSinkOutcome[] = [];
    const limited = new ApiFetchError(429, { error: { code: 429 } }, false, 30_000);
    createTestScheduler().run(({ hot, cold }) => {
      const sink = createLogSink({
        buildRequest,
        send: () => cold('-#', undefined, limited),
        store: (request) => {
          stored.push(request);
          return cold('-|');
        },
        pageId: 'p',
        batching: { initialTimeoutMs: 2 },
      });
      sink(hot('a', events)).subscribe((o) => outcomes.push(o));
    });
    expect(outcomes).toEqual([{ type: 'stored', request: stored[0], eventCount: 1, error: limited }]);
    expect(outcomes[0]).toMatchObject({ error: { status: 429, retryAfterMs: 30_000 } });
    expect(bodyOf(stored[0]).events[0]).toMatchObject({ clientEventId: 'p:1', playerLoad: { videoId: 'v1' } });
  });

  describe('stream token (issue 12), with the real transport and retry queue', () => {
    const token = 'v1.c3RyZWFt.c2ln';
    const context = buildClientContext({ page: { visitorData: 'VISITOR' } });
    const T0 = 1_700_000_000_000;
    /** Fetch answering 200 and recording every call. */
    const recordingFetch = () => {
      const calls: { url: string; init: FetchInitLike }[] = [];
      const fetch: FetchLike = async (url, init) => {
        calls.push({ url, init });
        return { status: 200, headers: { get: () => null }, text: async () => '' };
      };
      return { fetch, calls };
    };

    it('the keepalive flush of a closing page carries the token', () => {
      const keepalive: ApiRequest[] = [];
      const transport = createApiTransport({ fetch: recordingFetch().fetch, settings: () => ({ context, streamToken: token }) });
      createTestScheduler().run(({ hot, cold }) => {
        const sink = createLogSink({
          buildRequest: transport.buildRequest,
          send: () => cold('|'),
          sendKeepalive: (r) => {
            keepalive.push(r);
            return cold('|');
          },
          store: jest.fn(),
          pageId: 'p',
        });
        // b is a debug event: the flush sends a log_event and a video_stats request, both through keepalive.
        sink(hot('ab', events), hot('---x')).subscribe();
      });
      expect(keepalive.map((r) => [r.url.split('?')[0], r.options.headers[STREAM_TOKEN_HEADER]])).toEqual([
        ['/youtubei/v1/log_event', token],
        ['/youtubei/v1/video_stats', token],
      ]);
    });

    it('a failed request stored in the retry queue is resent with the same token just before it expires (30 days)', async () => {
      const stored: ApiRequest[] = [];
      const transport = createApiTransport({ fetch: recordingFetch().fetch, settings: () => ({ context, streamToken: token }) });
      createTestScheduler().run(({ hot, cold }) => {
        const sink = createLogSink({
          buildRequest: transport.buildRequest,
          send: () => cold('#', undefined, new ApiFetchError(429, {}, false, 30_000)),
          store: (r) => {
            stored.push(r);
          },
          pageId: 'p',
          batching: { initialTimeoutMs: 2 },
        });
        sink(hot('a', events)).subscribe();
      });
      expect(stored).toHaveLength(1);

      const queue = createRetryQueue(createDatabase(logsDatabase(), { indexedDB: null }), { interfaceNumber: 56 });
      await queue.enqueue(stored[0], { now: T0 });
      // A later page (of a server that has since rotated its token, or has none): its own settings do not matter.
      const later = recordingFetch();
      const laterTransport = createApiTransport({ fetch: later.fetch, settings: () => ({ context }) });
      const claimed = await queue.claimNext(T0 + RETRY_QUEUE_EXPIRY_MS - 1);
      expect(claimed).toBeDefined();
      await lastValueFrom(laterTransport.send({ url: claimed!.url, options: claimed!.options }));
      expect(later.calls).toHaveLength(1);
      expect(later.calls[0].init.headers[STREAM_TOKEN_HEADER]).toBe(token);
      expect(later.calls[0].url).toBe(stored[0].url);
      expect(claimed!.options).toEqual(stored[0].options); // headers and (uncompressed) body exactly as built
    });
  });
});
