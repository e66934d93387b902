import { map, merge, type Observable, scan } from 'rxjs';
import type { Player } from '../sdk/Player';
import { PLAYER_EVENT_NAMES, type PlayerEventName } from '../sdk/types';

export interface LogEntry {
  seq: number;
  /** Milliseconds since the page opened. */
  at: number;
  name: string;
  data: unknown;
}

/** The events the demo logs (`onVideoProgress`, four times a second, would drown the rest). */
export const LOGGED_EVENTS: readonly PlayerEventName[] = PLAYER_EVENT_NAMES.filter((name) => name !== 'onVideoProgress');

/**
 * The event log: newest first, at most `max` entries; a `clear$` emission empties it.
 */
export function eventLog(player: Player, clear$: Observable<unknown>, now: () => number, max = 200): Observable<LogEntry[]> {
  let seq = 0;
  const added$ = merge(...LOGGED_EVENTS.map((name) => player.events$(name).pipe(map((data) => ({ name, data }))))).pipe(
    map((e) => (log: LogEntry[]) => [{ seq: ++seq, at: now(), ...e }, ...log].slice(0, max)),
  );
  const cleared$ = clear$.pipe(map(() => (): LogEntry[] => []));
  return merge(added$, cleared$).pipe(scan((log: LogEntry[], change) => change(log), []));
}
