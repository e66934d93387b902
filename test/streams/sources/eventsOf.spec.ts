import { eventsOf } from '../../../streams/sources/eventsOf';

/** An EventTarget that counts its listeners, per type. */
function countingTarget() {
  const target = new EventTarget();
  const listeners = new Map<string, number>();
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
    listeners.set(type, (listeners.get(type) ?? 0) + 1);
    add(type, listener, options);
  };
  target.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
    listeners.set(type, (listeners.get(type) ?? 0) - 1);
    remove(type, listener, options);
  };
  return { target, listeners };
}

describe('eventsOf', () => {
  it('gives the events of the chosen types, projected, in the order the target fires them', () => {
    const target = new EventTarget();
    const seen: string[] = [];
    const sub = eventsOf(target, ['a', 'b'], (e) => e.type.toUpperCase()).subscribe((v) => seen.push(v));
    for (const type of ['a', 'x', 'b', 'a']) target.dispatchEvent(new Event(type));
    sub.unsubscribe();
    expect(seen).toEqual(['A', 'B', 'A']);
  });

  it('adds one listener per type at subscription and removes every one on unsubscribe', () => {
    const { target, listeners } = countingTarget();
    const observable = eventsOf(target, ['a', 'b'], (e) => e);
    expect(listeners.size).toBe(0);
    const sub = observable.subscribe();
    expect(Object.fromEntries(listeners)).toEqual({ a: 1, b: 1 });
    sub.unsubscribe();
    expect(Object.fromEntries(listeners)).toEqual({ a: 0, b: 0 });
  });

  it('makes a throwing projection the observable’s error, stops listening, and never throws into the target', () => {
    const { target, listeners } = countingTarget();
    const errors: unknown[] = [];
    const seen: string[] = [];
    eventsOf(target, ['a', 'b'], (e) => {
      if (e.type === 'b') throw new Error('bad event');
      return e.type;
    }).subscribe({ next: (v) => seen.push(v), error: (e: unknown) => errors.push(e) });
    target.dispatchEvent(new Event('a'));
    target.dispatchEvent(new Event('b'));
    target.dispatchEvent(new Event('a'));
    expect(seen).toEqual(['a']);
    expect(errors).toEqual([new Error('bad event')]);
    expect(Object.fromEntries(listeners)).toEqual({ a: 0, b: 0 });
  });

  it('adds and removes its listeners with the options given (removal matches on `capture`)', () => {
    const parent = new EventTarget();
    const options: unknown[] = [];
    parent.addEventListener = ((type: string, _l: unknown, o?: AddEventListenerOptions) => options.push([type, o])) as never;
    parent.removeEventListener = ((type: string, _l: unknown, o?: EventListenerOptions) => options.push(['-' + type, o])) as never;
    eventsOf(parent, ['keydown'], (e) => e, { capture: true, passive: true })
      .subscribe()
      .unsubscribe();
    expect(options).toEqual([
      ['keydown', { capture: true, passive: true }],
      ['-keydown', { capture: true, passive: true }],
    ]);
  });

  it('removes the listeners already added when the target throws on a later type, and errors', () => {
    const { target, listeners } = countingTarget();
    const add = target.addEventListener.bind(target);
    target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
      if (type === 'c') throw new Error('refused');
      add(type, listener, options);
    };
    const errors: unknown[] = [];
    eventsOf(target, ['a', 'b', 'c'], (e) => e).subscribe({ error: (e: unknown) => errors.push(e) });
    expect(errors).toEqual([new Error('refused')]);
    expect(Object.fromEntries(listeners)).toEqual({ a: 0, b: 0 });
  });
});
