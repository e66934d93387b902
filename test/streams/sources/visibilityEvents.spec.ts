import { visibilityEvents$, type VisibilityObservation } from '../../../streams/sources/visibilityEvents';

/** An EventTarget that counts its listeners, to prove teardown. */
class CountingTarget extends EventTarget {
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

describe('visibilityEvents$', () => {
  it('turns visibilitychange, focus and blur into observations with the visibility read at each event', () => {
    const document = new CountingTarget();
    const window = new CountingTarget();
    let current = 'visible';
    const seen: VisibilityObservation[] = [];
    const subscription = visibilityEvents$({ document, window }, () => current).subscribe((o) => seen.push(o));

    window.dispatchEvent(new Event('blur'));
    current = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    current = 'visible';
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('focus')); // not the window's: ignored
    window.dispatchEvent(new Event('visibilitychange')); // not the document's: ignored

    expect(seen).toEqual([
      { type: 'blur', visibilityState: 'visible' },
      { type: 'visibilitychange', visibilityState: 'hidden' },
      { type: 'focus', visibilityState: 'visible' },
    ]);
    expect(document.listeners + window.listeners).toBe(3);
    subscription.unsubscribe();
    expect(document.listeners + window.listeners).toBe(0);
  });

  it('says undefined without a getter or when the getter throws', () => {
    const document = new EventTarget();
    const window = new EventTarget();
    const seen: VisibilityObservation[] = [];
    const a = visibilityEvents$({ document, window }).subscribe((o) => seen.push(o));
    const b = visibilityEvents$({ document, window }, () => {
      throw new Error('gone');
    }).subscribe((o) => seen.push(o));
    document.dispatchEvent(new Event('visibilitychange'));
    a.unsubscribe();
    b.unsubscribe();
    expect(seen).toEqual([
      { type: 'visibilitychange', visibilityState: undefined },
      { type: 'visibilitychange', visibilityState: undefined },
    ]);
  });
});
