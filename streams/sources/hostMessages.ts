import { fromEvent, map, Observable } from 'rxjs';
import type { HostMessageEvent } from '../host/hostTypes';

/**
 * The `message` events of a window, reduced to `{data, origin, source}` (host-protocol §1). The target is a parameter
 * (the embed's `window`, a plain `EventTarget` in tests); the listener is removed on unsubscribe. Nothing is filtered
 * here: the protocol decides what to accept.
 *
 * ```
 * target:  --message(a)----message(b)--
 * result:  --a-------------b-----------
 * ```
 */
export function hostMessages$(target: EventTarget): Observable<HostMessageEvent> {
  return fromEvent(target, 'message').pipe(
    map((e): HostMessageEvent => {
      const m = e as Partial<MessageEvent>;
      return { data: m.data, origin: typeof m.origin === 'string' ? m.origin : '', source: m.source ?? null };
    }),
  );
}
