import { Subject, VirtualTimeScheduler } from 'rxjs';
import { logEventTexts, markPlainClientEventIds, stringifyLogEvents } from '../../../streams/transport/stringifyLogEvents';
import { createLogSink } from '../../../streams/logging/createLogSink';
import type { ClientEvent } from '../../../streams/logging/stampEvent';
import { buildApiRequest } from '../../../streams/transport/buildApiRequest';
import { buildClientContext } from '../../../streams/transport/buildClientContext';

/** What the caller writes: the fast text, or `JSON.stringify` when it declines. Must always be the native text. */
const written = (events: unknown) => stringifyLogEvents(events) ?? JSON.stringify(events);

const T = 1_763_900_000_123;
const event = (name: string, payload: unknown, extra: Record<string, unknown> = {}) => {
  const e: Record<string, unknown> = { eventTimeMs: T, clientEventId: '5f1c2a9e0b7d4c3a8e6f2b1d:1', ...extra };
  e[name] = payload;
  return e;
};

/** A small deterministic generator (mulberry32), so a failure is reproducible. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('stringifyLogEvents (issue 15): the text of JSON.stringify, faster for the sink’s events', () => {
  it('writes the sink’s events itself, byte for byte as JSON.stringify', () => {
    const events = [
      event('playerStateChange', { videoId: 'VFsunrise01', previousState: 1, state: 2, mediaTimeSec: 12.345678 }),
      event('playerSeek', { videoId: 'VFsunrise01', fromSec: 0, toSec: -0 }),
      event('volumeChange', { videoId: 'VFsunrise01', volume: 50, muted: false }),
      event('playerStateChange', { videoId: 'VFsunrise01', previousState: 2, state: 1, mediaTimeSec: 1e21 }),
      event('networkChange', { online: true, effectiveConnectionType: null }),
      event('odd', { n: Number.NaN, i: Number.POSITIVE_INFINITY, s: 'é ü 😀 \u2028 \u007f' }),
      event('empty', {}),
      event('primitive', 'text'),
      event('number', 3),
      event('nothing', null),
    ];
    expect(stringifyLogEvents(events)).toBe(JSON.stringify(events));
    expect(logEventTexts(events)).toEqual(events.map((e) => JSON.stringify(e)));
    expect(stringifyLogEvents([])).toBe('[]');
  });

  it('writes strings that need escaping, nested payloads, undefined members and other shapes of one name as JSON.stringify', () => {
    const events = [
      event('playerError', { videoId: 'a"b\\c', internalError: 'x\ny\u0001', hostErrorCode: 150 }),
      event('playerError', { videoId: 'lone \ud800 surrogate', internalError: 'pair 😀', hostErrorCode: 2 }),
      event('playerError', { internalError: 'no video id', hostErrorCode: 5, message: undefined }),
      event('playerError', { hostErrorCode: 5, internalError: 'other order' }),
      event('playerError', { internalError: 'plan of two keys', hostErrorCode: 5 }),
      event('playerError', { internalError: 'the same two keys', hostErrorCode: 5, extra: 'and one more' }),
      event('invalidEvent', { name: 'context', payload: { deep: [1, { x: undefined, y: () => 1 }, null] } }),
      event('withDate', { at: new Date(0), list: [1, 'two'] }),
      event('weird "name"\n', { a: 1 }),
      { ...event('playerSeek', { toSec: 1 }), clientEventId: 'quote"in id' },
    ];
    expect(stringifyLogEvents(events)).toBe(JSON.stringify(events));
  });

  it('declines (undefined: the caller serialises natively) what is not the sink’s envelope, and the result is still exact', () => {
    class Payload {
      a = 1;
    }
    const withToJSON = { ...event('x', { a: 1 }), toJSON: () => 'replaced' };
    const cases: unknown[] = [
      'not an array',
      [undefined],
      [null],
      [{ clientEventId: 'p:1', eventTimeMs: T, x: {} }], // other key order
      [{ eventTimeMs: T, clientEventId: 'p:1' }], // no payload
      [{ eventTimeMs: T, clientEventId: 'p:1', x: {}, y: {} }], // two payloads
      [{ eventTimeMs: Number.NaN, clientEventId: 'p:1', x: {} }],
      [{ eventTimeMs: '1', clientEventId: 'p:1', x: {} }],
      [{ eventTimeMs: T, clientEventId: 1, x: {} }],
      [withToJSON],
      [event('x', { a: 1, toJSON: () => 'payload replaced' })],
      [event('x', new Payload())],
      [event('x', Object.create(null) as object)],
      [event('x', undefined)],
      [event('x', () => 1)],
      [Object.assign(Object.create({ inherited: 1 }) as object, event('x', { a: 1 }))],
      [event('0', { a: 1 })], // an integer-like name comes first in the object's key order
    ];
    for (const value of cases) {
      expect(stringifyLogEvents(value)).toBeUndefined();
      if (Array.isArray(value)) expect(logEventTexts([event('ok', { a: 1 }), ...(value as unknown[])])).toBeUndefined();
      expect(written(value)).toBe(JSON.stringify(value));
    }
    // What JSON.stringify refuses, it refuses with its own error.
    expect(() => JSON.stringify([event('x', { big: BigInt(1) })])).toThrow(new TypeError('Do not know how to serialize a BigInt'));
    expect(() => written([event('x', { big: BigInt(1) })])).toThrow(new TypeError('Do not know how to serialize a BigInt'));
    expect(stringifyLogEvents([event('x', BigInt(1))])).toBeUndefined();
  });

  it('matches JSON.stringify on 3,000 random events (names, shapes, key orders and values mixed)', () => {
    const next = random(15);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const strings = ['VFsunrise01', '', 'a"b', 'tab\t', 'é😀', '\ud83d', 'x'.repeat(40), '\\', '</script>'];
    const numbers = [0, -0, 1, -1.5, 12.345678, 1e21, 1e-7, Number.NaN, Number.NEGATIVE_INFINITY, 2 ** 53, T];
    const value = (depth: number): unknown => {
      const r = next();
      if (r < 0.3) return pick(strings);
      if (r < 0.6) return pick(numbers);
      if (r < 0.7) return next() < 0.5;
      if (r < 0.75) return null;
      if (r < 0.8) return undefined;
      if (depth > 1) return pick(strings);
      if (r < 0.9) return { k: value(depth + 1), [pick(['a', 'b', '1'])]: value(depth + 1) };
      return [value(depth + 1), value(depth + 1)];
    };
    const names = ['playerSeek', 'volumeChange', 'playerError', 'custom'];
    const keys = ['videoId', 'fromSec', 'toSec', 'state', 'muted', '2', 'weird"key'];
    const events = Array.from({ length: 3_000 }, (_, i) => {
      const payload: Record<string, unknown> = {};
      const flat = next() < 0.8;
      for (const key of keys) if (next() < 0.6) payload[key] = flat ? pick([...strings, ...numbers, true, null]) : value(0);
      const e = event(pick(names), next() < 0.05 ? value(0) : payload);
      e.clientEventId = `${pick(['5f1c2a9e0b7d4c3a8e6f2b1d', 'p"q'])}:${i}`;
      e.eventTimeMs = pick([T, T + i, 0, 1.5]);
      return e;
    });
    for (let i = 0; i < events.length; i += 100) expect(written(events.slice(i, i + 100))).toBe(JSON.stringify(events.slice(i, i + 100)));
  });
});

describe('stringifyLogEvents: the pieces it reuses and the numbers it writes itself (issue 15)', () => {
  it('writes whole numbers ≥ 1e9 (epoch milliseconds) from two halves, byte for byte as JSON.stringify', () => {
    const edges = [
      1e9 - 1,
      1e9,
      1e9 + 1,
      1_999_999_999,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32,
      1e12,
      T,
      T + 1,
      1_000_000_000_000_001,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      1e22,
      1.5e12 + 0.5,
      1e9 + 0.25,
      123_456_789_000_000,
      100_000_000_000_000_000,
    ];
    const numbers = [...edges, ...edges.map((n) => -n), 0, -0, 5e-324, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const next = random(53);
    for (let i = 0; i < 2_000; i++) numbers.push(Math.floor(next() * 2 ** 53) * (next() < 0.2 ? -1 : 1), Math.floor(next() * 1e13));
    const events = numbers.map((n, i) => event('sample', { value: n, again: n }, { eventTimeMs: Number.isFinite(n) ? n : i }));
    for (let i = 0; i < events.length; i += 100) expect(written(events.slice(i, i + 100))).toBe(JSON.stringify(events.slice(i, i + 100)));
    for (const n of numbers) expect(written([event('primitive', n)])).toBe(JSON.stringify([event('primitive', n)]));
  });

  it('reuses the text of a repeated value only for an equal value: -0 after 0, NaN after NaN, a string of the same text, a value of another type', () => {
    const values: unknown[] = [
      0,
      -0,
      0,
      Number.NaN,
      Number.NaN,
      'x',
      ['x'].join(''),
      1,
      '1',
      true,
      'true',
      null,
      'null',
      1,
      1,
      2,
      2,
      'é',
      'é',
      '\ud800',
      '\ud800',
    ];
    const events = values.flatMap((v, i) => [event('repeat', { v, w: 'same' }, { eventTimeMs: T + (i % 3) }), event('repeat', { v: 'other', w: v })]);
    expect(stringifyLogEvents(events)).toBe(JSON.stringify(events));
    // The same again, now that every piece has been made and reused.
    expect(stringifyLogEvents(events)).toBe(JSON.stringify(events));
  });

  it('does not scan ids the sink vouches for, and scans every other array', () => {
    const events = [event('x', { a: 1 }), { ...event('x', { a: 2 }), clientEventId: 'p"q:2' }];
    expect(stringifyLogEvents(events)).toBe(JSON.stringify(events)); // not marked: the quote is escaped
    const plain = [event('x', { a: 1 }), { ...event('x', { a: 2 }), clientEventId: 'pq:2' }];
    markPlainClientEventIds(plain);
    expect(stringifyLogEvents(plain)).toBe(JSON.stringify(plain));
    expect(stringifyLogEvents([...plain, events[1]])).toBe(JSON.stringify([...plain, events[1]])); // a new array is not marked
  });

  it('the log sink’s bodies are JSON.stringify of their payload, for a page id that needs escaping too', () => {
    const context = buildClientContext({});
    for (const pageId of ['5f1c2a9e0b7d4c3a8e6f2b1d', 'a"b\\c\u0001é\ud800']) {
      const scheduler = new VirtualTimeScheduler();
      scheduler.frame = T;
      const events$ = new Subject<ClientEvent>();
      const checked: string[] = [];
      const sink = createLogSink({
        buildRequest: (endpoint, payload) => {
          const request = buildApiRequest(endpoint, payload as never, { context });
          expect(request.options.body).toBe(JSON.stringify({ context, ...payload }));
          checked.push(...payload.events.map((e) => e.clientEventId));
          return request;
        },
        send: () => [],
        store: () => undefined,
        scheduler,
        pageId,
      });
      const subscription = sink(events$).subscribe();
      for (let i = 0; i < 250; i++) events$.next({ name: i % 2 ? 'playerSeek' : 'volumeChange', payload: { videoId: 'v"1', fromSec: i, toSec: -i / 3 } });
      events$.complete();
      scheduler.flush();
      subscription.unsubscribe();
      expect(checked).toHaveLength(250);
      expect(checked[249]).toBe(`${pageId}:250`);
    }
  });
});

describe('buildApiRequest log bodies (written with stringifyLogEvents)', () => {
  const context = buildClientContext({ timeZone: 'Europe/Paris', page: { visitorData: 'VIS' } });

  it('are the string JSON.stringify({ context, ...payload }) gives, with the fields around the events', () => {
    const events = [event('playerSeek', { videoId: 'v', fromSec: 1, toSec: 2 }), event('volumeChange', { volume: 3, muted: true })];
    const payload = { events, requestTimeMs: T, serializedClientEventId: { serializedEventId: 'p', clientCounter: 7 } };
    for (const endpoint of ['log_event', 'video_stats']) {
      const request = buildApiRequest(endpoint, payload, { context, xsrfToken: 'X', credentialTransferTokens: [{ token: 't' }] as never });
      expect(request.options.body).toBe(JSON.stringify({ context, ...payload, credentialTransferTokens: [{ token: 't' }], session_token: 'X' }));
    }
    expect(payload.events).toBe(events); // the payload is left as it was
  });

  it('stay exact when another field holds what looks like the events mark, when events come first, and when there are none', () => {
    const sneaky = { note: '\u0000vidframe-events-1\u0000', events: [event('x', { a: 1 })], nested: { events: '\u0000vidframe-events-2\u0000' } };
    const request = buildApiRequest('log_event', sneaky, { context });
    expect(request.options.body).toBe(JSON.stringify({ context, ...sneaky }));
    for (const payload of [{ events: [] }, { 1: 'integer key first', events: [event('x', 'y')] }, { events: 'not a list' }, {}]) {
      expect(buildApiRequest('log_event', payload, { context }).options.body).toBe(JSON.stringify({ context, ...payload }));
    }
  });
});
