import type { VisibilityObservation } from '../../../streams/sources/visibilityEvents';
import { visibilityState } from '../../../streams/visibility/visibilityState';
import { createTestScheduler } from '../../helpers/testScheduler';

const states = { u: 'unknown', v: 'visible', h: 'hidden', f: 'foregrounded', b: 'backgrounded' } as const;

/** Observations: upper case = the document reads visible, lower case = reads hidden, `?` variants = unreadable. */
const events: Record<string, VisibilityObservation> = {
  C: { type: 'visibilitychange', visibilityState: 'visible' },
  c: { type: 'visibilitychange', visibilityState: 'hidden' },
  F: { type: 'focus', visibilityState: 'visible' },
  f: { type: 'focus', visibilityState: 'hidden' },
  B: { type: 'blur', visibilityState: 'visible' },
  b: { type: 'blur', visibilityState: 'hidden' },
  x: { type: 'visibilitychange', visibilityState: undefined },
  y: { type: 'focus', visibilityState: undefined },
  z: { type: 'blur', visibilityState: undefined },
};

describe('visibilityState', () => {
  it('starts from the document visibility read at subscription', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const none = hot<VisibilityObservation>('---');
      expectObservable(visibilityState(none, { readVisibility: () => 'visible' })).toBe('v', states);
      expectObservable(visibilityState(none, { readVisibility: () => 'hidden' })).toBe('h', states);
      expectObservable(visibilityState(none)).toBe('u', states);
      expectObservable(visibilityState(none, { readVisibility: () => 'prerender' })).toBe('u', states);
    });
  });

  it('reads the initial visibility at subscription time, not at creation', () => {
    let current = 'hidden';
    const state$ = visibilityState(createTestScheduler().createHotObservable('-'), { readVisibility: () => current });
    current = 'visible';
    const seen: string[] = [];
    state$.subscribe((s) => seen.push(s)).unsubscribe();
    expect(seen).toEqual(['visible']);
  });

  it('backgrounds on visible → hidden and foregrounds on hidden → visible, once per real change', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      // prettier-ignore
      const input = hot('  --c--f--C--F--B--c--|', events);
      const subs = '       ^-------------------!';
      // c: visible→hidden = b; f (focus, doc hidden): nothing; C: hidden→visible = f; F, B (doc visible): nothing.
      const expected = '   v-b-----f--------b--|';
      expectObservable(visibilityState(input, { readVisibility: () => 'visible' })).toBe(expected, states);
      expectSubscriptions(input.subscriptions).toBe(subs);
    });
  });

  it('a blur that comes with a hidden document (tab switch) backgrounds at once; a blur on a visible page does not', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  -B-b-c-F-|', events);
      const expected = '   v--b---f-|';
      expectObservable(visibilityState(input, { readVisibility: () => 'visible' })).toBe(expected, states);
    });
  });

  it('from unknown, the first known side is plain visible / hidden; later changes are transitions', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  -x-C-c-C-|', events);
      const expected = '   u--v-b-f-|';
      expectObservable(visibilityState(input)).toBe(expected, states);
    });
  });

  it('without a readable document, focus means visible and blur means hidden', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // prettier-ignore
      const input = hot('  -z-y-y-x-z-z-|', events);
      const expected = '   uh-f-----b---|';
      expectObservable(visibilityState(input)).toBe(expected, states);
    });
  });

  it('starting hidden, the first return to the screen is foregrounded', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  -c-C-|', events);
      expectObservable(visibilityState(input, { readVisibility: () => 'hidden' })).toBe('h--f-|', states);
    });
  });

  it('unsubscribes from the events on teardown', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const input = hot('  --c--C--c--', events);
      expectObservable(visibilityState(input, { readVisibility: () => 'visible' }), '^----!').toBe('v-b--', states);
      expectSubscriptions(input.subscriptions).toBe('^----!');
    });
  });

  it('passes an error of the events through (nothing to recover from at this layer)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const input = hot('  -c-#', events);
      expectObservable(visibilityState(input, { readVisibility: () => 'visible' })).toBe('vb-#', states);
    });
  });
});
