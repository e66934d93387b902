import { handledError, type WindowError, windowErrors$ } from '../../../streams/sources/windowErrors';

/** An `ErrorEvent` as the browser fires it (Node has no `ErrorEvent`: fields on a plain `Event`). */
const errorEvent = (fields: Record<string, unknown>) => Object.assign(new Event('error'), fields);
/** A `PromiseRejectionEvent` likewise. */
const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason });

/** Fires `events` at a fresh target and returns what the source read out of them. */
function collect(...events: Event[]): WindowError[] {
  const target = new EventTarget();
  const seen: WindowError[] = [];
  const subscription = windowErrors$(target).subscribe((e) => seen.push(e));
  for (const event of events) target.dispatchEvent(event);
  subscription.unsubscribe();
  return seen;
}

describe('windowErrors$', () => {
  it('reads an error event: message, file, line, column and the stack of its error', () => {
    const error = new Error('boom');
    expect(collect(errorEvent({ message: 'Uncaught Error: boom', filename: 'https://e.test/a.js', lineno: 12, colno: 3, error }))).toEqual([
      { kind: 'error', message: 'Uncaught Error: boom', file: 'https://e.test/a.js', line: 12, column: 3, stack: error.stack },
    ]);
  });

  it('leaves out what the browser does not know (a cross-origin "Script error." has no file, 0:0, no error)', () => {
    expect(collect(errorEvent({ message: 'Script error.', filename: '', lineno: 0, colno: 0, error: null }))).toEqual([
      { kind: 'error', message: 'Script error.' },
    ]);
  });

  it('describes the error itself when the event has no message; skips an error event that is no script error', () => {
    expect(collect(errorEvent({ error: new TypeError('x is not a function') }), new Event('error'))).toEqual([
      { kind: 'error', message: 'TypeError: x is not a function', stack: expect.stringContaining('x is not a function') },
    ]);
  });

  it('reads an unhandled rejection with an Error reason: message and stack', () => {
    const reason = new RangeError('too far');
    expect(collect(rejection(reason))).toEqual([
      { kind: 'unhandledrejection', message: 'Unhandled promise rejection: RangeError: too far', stack: reason.stack },
    ]);
  });

  it('describes any other rejection reason as text, without throwing', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    const messages = collect(
      rejection('plain string'),
      rejection(''),
      rejection(undefined),
      rejection(null),
      rejection(42),
      rejection({ code: 7, detail: 'nope' }),
      rejection({ message: 'error-like' }),
      rejection(cycle),
      rejection(hostile),
    ).map((e) => [e.kind, e.message.replace('Unhandled promise rejection: ', ''), e.stack]);
    expect(messages).toEqual([
      ['unhandledrejection', 'plain string', undefined],
      ['unhandledrejection', '(empty string)', undefined],
      ['unhandledrejection', 'undefined', undefined],
      ['unhandledrejection', 'null', undefined],
      ['unhandledrejection', '42', undefined],
      ['unhandledrejection', '{"code":7,"detail":"nope"}', undefined],
      ['unhandledrejection', 'Error: error-like', undefined],
      ['unhandledrejection', '[object Object]', undefined], // a cycle: JSON fails, toString does not
      ['unhandledrejection', '(unprintable value)', undefined], // every property read throws
    ]);
  });

  it('listens on the target it is given and removes both listeners on unsubscribe', () => {
    const target = new EventTarget();
    const add = jest.spyOn(target, 'addEventListener');
    const remove = jest.spyOn(target, 'removeEventListener');
    const seen: WindowError[] = [];
    const subscription = windowErrors$(target).subscribe((e) => seen.push(e));
    expect(add.mock.calls.map(([type]) => type).sort()).toEqual(['error', 'unhandledrejection']);
    subscription.unsubscribe();
    expect(remove.mock.calls.map(([type]) => type).sort()).toEqual(['error', 'unhandledrejection']);
    target.dispatchEvent(errorEvent({ message: 'after' }));
    target.dispatchEvent(rejection('after'));
    expect(seen).toEqual([]);
  });
});

describe('handledError', () => {
  it('reads a caught error as a report record: its description, the place it was caught, its stack', () => {
    const error = new Error('API fetch failed');
    expect(handledError(error, 'platform subscription/subscribe')).toEqual({
      kind: 'handled',
      message: 'platform subscription/subscribe: Error: API fetch failed',
      stack: error.stack,
    });
    expect(handledError('plain')).toEqual({ kind: 'handled', message: 'plain' });
  });

  it('never throws, whatever was caught', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(handledError(hostile).kind).toBe('handled');
    expect(handledError(undefined)).toEqual({ kind: 'handled', message: 'undefined' });
  });
});
