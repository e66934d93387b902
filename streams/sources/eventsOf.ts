import { Observable } from 'rxjs';

/** The listener options the sources use (the DOM's `AddEventListenerOptions`, without needing the DOM's types). */
export interface ListenerOptions {
  capture?: boolean;
  passive?: boolean;
  once?: boolean;
}

/**
 * Events of several types on one target as one observable, each projected as it arrives: what
 * `merge(...types.map((t) => fromEvent(target, t).pipe(map(project))))` gives, with one listener function for all the
 * types instead of a `fromEvent`, a `map` and a merged inner subscription per type, so that a target with many event
 * types (a media element) costs one listener, not a closure and a subscriber per type.
 * Events come in the order the target fires them. The target is a parameter (never a global); every listener is
 * removed on unsubscribe, on error and when the subscriber completes — also the ones added before an
 * `addEventListener` that threw (the subscription then errors). The types are copied at subscription.
 *
 * `project` throwing is the observable's error (as it is for `map`), never an exception in the browser's listener.
 *
 * ```
 * target:  --a--x--b--   (types a, b)
 * result:  --A-----B--
 * ```
 */
export function eventsOf<R>(target: EventTarget, types: readonly string[], project: (event: Event) => R, options?: ListenerOptions): Observable<R> {
  return new Observable<R>((subscriber) => {
    const names = [...types];
    let added = 0;
    const listener = (event: Event) => {
      let value: R;
      try {
        value = project(event);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      subscriber.next(value);
    };
    // The teardown first: a target that throws on the third type still loses the first two listeners.
    subscriber.add(() => {
      for (const name of names.slice(0, added)) target.removeEventListener(name, listener, options);
    });
    for (const name of names) {
      target.addEventListener(name, listener, options);
      added++;
    }
  });
}
