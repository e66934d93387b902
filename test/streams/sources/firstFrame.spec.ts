import { firstFrameShown$, type FirstFrameElement } from '../../../streams/sources/firstFrame';
import { PLAYER_BOOT_FIRST_FRAME_WAIT_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

/** A `<video>` stand-in: its attributes, readyState and error, and the events it fires. */
function element({ autoplay = true, readyState = 0, error = null as unknown } = {}) {
  const target = new EventTarget() as FirstFrameElement & { readyState: number; error: unknown };
  Object.assign(target, { readyState, error, hasAttribute: (name: string) => name === 'autoplay' && autoplay });
  return target;
}

describe('firstFrameShown$: the boot waits for the first frame of a video the browser starts by itself', () => {
  it('an element the browser starts: once its first frame is there (loadeddata), not before', () => {
    const el = element();
    let done = 0;
    const sub = firstFrameShown$(el).subscribe({ complete: () => done++ });
    el.dispatchEvent(new Event('loadedmetadata'));
    el.dispatchEvent(new Event('playing'));
    expect(done).toBe(0);
    el.dispatchEvent(new Event('loadeddata'));
    expect(done).toBe(1);
    sub.unsubscribe();
  });

  it('where the browser has requestVideoFrameCallback: once the first frame is presented; the callback is cancelled if unused', () => {
    const el = element();
    const callbacks: (() => void)[] = [];
    const cancelled: number[] = [];
    Object.assign(el, {
      requestVideoFrameCallback: (f: () => void) => callbacks.push(f),
      cancelVideoFrameCallback: (h: number) => cancelled.push(h),
    });
    let done = 0;
    firstFrameShown$(el).subscribe({ complete: () => done++ });
    el.dispatchEvent(new Event('loadeddata'));
    expect(done).toBe(0);
    callbacks[0]();
    expect(done).toBe(1);
    const failed = element();
    Object.assign(failed, { requestVideoFrameCallback: () => 7, cancelVideoFrameCallback: (h: number) => cancelled.push(h) });
    firstFrameShown$(failed).subscribe();
    failed.dispatchEvent(new Event('error'));
    expect(cancelled).toContain(7);
  });

  it('a failed or emptied element does not hold the boot', () => {
    for (const type of ['error', 'emptied']) {
      const el = element();
      let done = 0;
      firstFrameShown$(el).subscribe({ complete: () => done++ });
      el.dispatchEvent(new Event(type));
      expect({ type, done }).toEqual({ type, done: 1 });
    }
  });

  it('nothing to wait for: no autoplay attribute, data already there, or an error already', () => {
    for (const el of [element({ autoplay: false }), element({ readyState: 2 }), element({ error: { code: 4 } })]) {
      let emitted = 0;
      firstFrameShown$(el).subscribe(() => emitted++);
      expect(emitted).toBe(1);
    }
  });

  it(`waits at most PLAYER_BOOT_FIRST_FRAME_WAIT_MS (${PLAYER_BOOT_FIRST_FRAME_WAIT_MS} ms)`, () => {
    createTestScheduler().run(({ expectObservable }) => {
      const el = element();
      // Emits once at the limit, then completes.
      expectObservable(firstFrameShown$(el)).toBe(`${PLAYER_BOOT_FIRST_FRAME_WAIT_MS}ms (x|)`, { x: undefined });
    });
  });
});
