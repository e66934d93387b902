import { LOG_EVENT_RESERVED_KEYS, stampEvent, stampLogEvent, type ClientEvent } from '../../../streams/logging/stampEvent';

describe('stampEvent', () => {
  const cases: ClientEvent[] = [
    { name: 'playerSeek', payload: { videoId: 'v', fromSec: 1, toSec: 2 } },
    { name: 'debugInfo', payload: { x: 1 }, debug: true },
    { name: 'playerReady', payload: undefined },
    { name: 'playerLoad', payload: { videoId: 'v' }, eventTimeMs: 42 },
    { name: 'playerLoad', payload: 1, eventTimeMs: Number.NaN },
    ...LOG_EVENT_RESERVED_KEYS.map((name) => ({ name, payload: 'boom' })),
    { name: '', payload: 1 },
    { name: 7 as unknown as string, payload: null },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('stampLogEvent (the sink) makes the very event of stampEvent for %p', (_name, input) => {
    const { event } = stampEvent(input, { eventTimeMs: 1_000, clientEventId: 'p:1' });
    expect(stampLogEvent(input, 1_000, 'p:1')).toEqual(event);
    expect(JSON.stringify(stampLogEvent(input, 1_000, 'p:1'))).toBe(JSON.stringify(event));
  });

  it.each([...LOG_EVENT_RESERVED_KEYS])('stampLogEvent logs the reserved name %p as invalidEvent, the envelope untouched', (name) => {
    expect(stampLogEvent({ name, payload: 'boom' }, 7, 'p:2')).toStrictEqual({ eventTimeMs: 7, clientEventId: 'p:2', invalidEvent: { name, payload: 'boom' } });
  });

  it('makes a plain object, as a literal would be: Object.prototype, its keys in wire order, cloneable', () => {
    const event = stampLogEvent({ name: 'playerSeek', payload: { toSec: 2 } }, 5, 'p:3');
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(event.constructor).toBe(Object);
    expect(Object.keys(event)).toEqual(['eventTimeMs', 'clientEventId', 'playerSeek']);
    expect(structuredClone(event)).toStrictEqual({ eventTimeMs: 5, clientEventId: 'p:3', playerSeek: { toSec: 2 } });
    expect(event).toStrictEqual({ eventTimeMs: 5, clientEventId: 'p:3', playerSeek: { toSec: 2 } });
  });

  it('puts the payload under its name, and a reserved or empty name under invalidEvent', () => {
    expect(stampEvent({ name: 'playerSeek', payload: { toSec: 2 } }, { eventTimeMs: 5, clientEventId: 'p:3' })).toEqual({
      event: { eventTimeMs: 5, clientEventId: 'p:3', playerSeek: { toSec: 2 } },
      debug: false,
    });
    expect(stampEvent({ name: 'context', payload: 'x', debug: true }, { eventTimeMs: 5, clientEventId: 'p:4' })).toEqual({
      event: { eventTimeMs: 5, clientEventId: 'p:4', invalidEvent: { name: 'context', payload: 'x' } },
      debug: true,
    });
  });
});
