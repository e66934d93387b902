import type { Observable } from 'rxjs';
import { eventsOf } from './eventsOf';

/** One `message` event, reduced to what the host protocol reads (host-protocol §1, spec §5). */
export interface HostMessageEvent {
  data: unknown;
  origin: string;
  /** The sending window; compared by identity to the locked host window. */
  source: unknown;
}

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
  return eventsOf(target, ['message'], (e): HostMessageEvent => {
    const m = e as Partial<MessageEvent>;
    return { data: m.data, origin: typeof m.origin === 'string' ? m.origin : '', source: m.source ?? null };
  });
}
