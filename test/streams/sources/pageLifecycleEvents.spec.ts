import { type PageLifecycleEvent, pageLifecycleEvents$ } from '../../../streams/sources/pageLifecycleEvents';

/** A pageshow/pagehide event as the browser makes it: an Event with a `persisted` flag. */
const transition = (type: string, persisted: boolean) => Object.assign(new Event(type), { persisted });

describe('pageLifecycleEvents$', () => {
  it('reports beforeunload, pagehide and pageshow with persisted, never listens to unload, and tears down', () => {
    const window = new EventTarget();
    const add = jest.spyOn(window, 'addEventListener');
    const remove = jest.spyOn(window, 'removeEventListener');
    const seen: PageLifecycleEvent[] = [];
    const subscription = pageLifecycleEvents$(window).subscribe((e) => seen.push(e));
    window.dispatchEvent(new Event('beforeunload'));
    window.dispatchEvent(transition('pagehide', true));
    window.dispatchEvent(transition('pageshow', true));
    window.dispatchEvent(new Event('pagehide')); // no persisted flag: false
    window.dispatchEvent(new Event('unload'));
    subscription.unsubscribe();
    window.dispatchEvent(new Event('beforeunload'));
    expect(seen).toEqual([
      { type: 'beforeunload' },
      { type: 'pagehide', persisted: true },
      { type: 'pageshow', persisted: true },
      { type: 'pagehide', persisted: false },
    ]);
    expect(add.mock.calls.map(([type]) => type).sort()).toEqual(['beforeunload', 'pagehide', 'pageshow']);
    expect(remove).toHaveBeenCalledTimes(3);
  });
});
