import { defer, distinctUntilChanged, type Observable, scan, startWith } from 'rxjs';
import { documentVisibility, type DocumentVisibility } from '../sources/documentVisibility';
import type { VisibilityObservation } from '../sources/visibilityEvents';

/** The visibility states of spec §4. */
export type VisibilityState = 'unknown' | 'visible' | 'hidden' | 'foregrounded' | 'backgrounded';

export interface VisibilityStateOptions {
  /** Reads the document's visibility at subscription (usually `() => document.visibilityState`). */
  readVisibility?: () => unknown;
}

/**
 * Page visibility as the user sees it (spec §4), one value per real change:
 *
 * - **Start** from the document's current visibility read at subscription: `visible` or `hidden`, or `unknown` when
 *   it cannot be read (no getter).
 * - **A seen change** gives the transition state, which then holds until the next change: visible-side → hidden is
 *   `backgrounded`, hidden-side → visible is `foregrounded` (`foregrounded` counts as visible, `backgrounded` as
 *   hidden). A logger thus logs every value it receives, and a view tests `visible | foregrounded`.
 * - **From `unknown`**, the first known side gives plain `visible` / `hidden` (no change was seen, only learned).
 * - **What each event says:** the document's visibility read at the event wins. When it cannot be read, `focus`
 *   means visible (a focused window is on screen) and `blur` means hidden; a `visibilitychange` without a readable
 *   state says nothing. So with a readable document, a `blur` while still visible — a click on the host page around
 *   the embed, another window on top — changes nothing, and a `blur` that comes with a hidden document (a tab switch)
 *   is `backgrounded` at once. Repeats (focus while visible) emit nothing.
 *
 * ```
 * events$: ---c(h)----f(h)---c(v)---b(v)---c(h)---      c = visibilitychange, f = focus, b = blur
 * result:  v--b-------------f-----------------b---      (document visible at subscription)
 * ```
 *
 * @param events$ observations from `visibilityEvents$` (or a marble `hot()`).
 */
export function visibilityState(events$: Observable<VisibilityObservation>, { readVisibility }: VisibilityStateOptions = {}): Observable<VisibilityState> {
  return defer(() => {
    const initial: VisibilityState = documentVisibility(readVisibility) ?? 'unknown';
    return events$.pipe(
      scan<VisibilityObservation, VisibilityState>((state, event) => next(state, sideOf(event)), initial),
      startWith(initial),
      distinctUntilChanged(),
    );
  });
}

/** Which side of the screen an observation puts the page on, or `undefined` when it tells nothing. */
function sideOf({ type, visibilityState }: VisibilityObservation): DocumentVisibility | undefined {
  if (visibilityState) return visibilityState;
  if (type === 'focus') return 'visible';
  if (type === 'blur') return 'hidden';
  return undefined;
}

function next(state: VisibilityState, side: DocumentVisibility | undefined): VisibilityState {
  if (!side) return state;
  if (state === 'unknown') return side;
  const wasVisible = state === 'visible' || state === 'foregrounded';
  if (side === 'visible') return wasVisible ? state : 'foregrounded';
  return wasVisible ? 'backgrounded' : state;
}
