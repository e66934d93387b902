import { share, Subject } from 'rxjs';
import { pageLifecycleState, type PageLifecycleState } from '../../../streams/lifecycle/pageLifecycleState';
import type { PageLifecycleEvent } from '../../../streams/sources/pageLifecycleEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

const states = { a: 'document_active', p: 'document_disposed_preventable', d: 'document_disposed' } as const;
const events: Record<string, PageLifecycleEvent> = {
  b: { type: 'beforeunload' },
  h: { type: 'pagehide', persisted: false },
  H: { type: 'pagehide', persisted: true },
  s: { type: 'pageshow', persisted: false },
  S: { type: 'pageshow', persisted: true },
};

describe('pageLifecycleState', () => {
  it('starts active; beforeunload and pagehide dispose and return to active in the same frame', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const input = hot('  ---b-------h-------|', events);
      const subs = '       ^------------------!';
      const expected = '   a--(pa)----(da)----|';
      expectObservable(pageLifecycleState(input)).toBe(expected, states);
      expectSubscriptions(input.subscriptions).toBe(subs);
    });
  });

  it('keeps working across the back/forward cache: pagehide(persisted) disposes, pageshow(persisted) adds nothing', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  -H---S-s-h----|', events);
      const expected = '   a(da)----(da)-|';
      expectObservable(pageLifecycleState(input)).toBe(expected, states);
    });
  });

  it('lets a subscriber flush synchronously while the state is disposed, before it is active again', () => {
    const events$ = new Subject<PageLifecycleEvent>();
    const log: string[] = [];
    let current: PageLifecycleState | undefined;
    // shared, as the integrator exposes it: both subscribers see each value before the next one is emitted
    const state$ = pageLifecycleState(events$).pipe(share());
    // the first subscriber records the current state; the second (the logger) reads it when it flushes
    state$.subscribe((s) => (current = s));
    state$.subscribe((s) => {
      if (s !== 'document_active') log.push(`flush on ${s} while current=${current}`);
    });
    events$.next({ type: 'pagehide', persisted: false });
    expect(log).toEqual(['flush on document_disposed while current=document_disposed']);
    expect(current).toBe('document_active');
  });

  it('unsubscribes from the events on teardown', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const input = hot('  --b---h--', events);
      expectObservable(pageLifecycleState(input), '^----!').toBe('a-(pa)', states);
      expectSubscriptions(input.subscriptions).toBe('^----!');
    });
  });
});
