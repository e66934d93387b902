import { Subscription } from 'rxjs';
import { MEDIA_EVENT_NAMES, mediaEvents$, seekSpans } from '../../../streams/sources/mediaEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('mediaEvents$', () => {
  it('turns the element events into one observable, in order, and removes its listeners on teardown', () => {
    const element = new EventTarget();
    const seen: string[] = [];
    const sub: Subscription = mediaEvents$(element).subscribe((e) => {
      expect(e.target).toBe(element);
      seen.push(e.type);
    });
    for (const type of ['play', 'playing', 'timeupdate', 'pause', 'unrelated']) element.dispatchEvent(new Event(type));
    expect(seen).toEqual(['play', 'playing', 'timeupdate', 'pause']);
    sub.unsubscribe();
    element.dispatchEvent(new Event('play'));
    expect(seen).toHaveLength(4);
  });

  it('listens to every media event of issue 3 by default, or to a chosen subset', () => {
    for (const name of [
      'loadedmetadata',
      'durationchange',
      'play',
      'playing',
      'pause',
      'waiting',
      'seeking',
      'seeked',
      'timeupdate',
      'progress',
      'ratechange',
      'volumechange',
      'ended',
      'error',
    ]) {
      expect(MEDIA_EVENT_NAMES).toContain(name);
    }
    const element = new EventTarget();
    const seen: string[] = [];
    const sub = mediaEvents$(element, ['ended']).subscribe((e) => seen.push(e.type));
    element.dispatchEvent(new Event('play'));
    element.dispatchEvent(new Event('ended'));
    sub.unsubscribe();
    expect(seen).toEqual(['ended']);
  });
});

describe('seekSpans', () => {
  it('gives each seek from the last time played to the new time, ignoring other events', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const at = (type: 'timeupdate' | 'seeking' | 'pause', currentTime: number) => ({ type, target: Object.assign(new EventTarget(), { currentTime }) });
      const events = hot('-a-b-p-s-c-d', {
        a: at('timeupdate', 1),
        b: at('timeupdate', 2),
        p: at('pause', 5),
        s: at('seeking', 8),
        c: at('timeupdate', 8.2),
        d: at('seeking', 3),
      });
      expectObservable(seekSpans(events)).toBe('-------x---y', { x: { fromSec: 2, toSec: 8 }, y: { fromSec: 8.2, toSec: 3 } });
    });
  });
});
