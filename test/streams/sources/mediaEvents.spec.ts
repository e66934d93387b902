import type { Subscription } from 'rxjs';
import { elementSeeks$, MEDIA_EVENT_NAMES, mediaEvents$, type SeekSpan } from '../../../streams/sources/mediaEvents';

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

  it('listens to every media event of MEDIA_EVENT_NAMES by default, or to a chosen subset', () => {
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

describe('elementSeeks$', () => {
  const element = () => {
    const target = Object.assign(new EventTarget(), { currentTime: 0 });
    const at = (type: 'timeupdate' | 'seeking' | 'pause', currentTime: number) => {
      target.currentTime = currentTime;
      target.dispatchEvent(new Event(type));
    };
    return { target, at };
  };

  it('gives each seek from the last time played (or sought) to the new time, ignoring other events', () => {
    const { target, at } = element();
    const seeks: SeekSpan[] = [];
    const sub = elementSeeks$(target).subscribe((s) => seeks.push(s));
    at('timeupdate', 1);
    at('timeupdate', 2);
    at('pause', 5);
    at('seeking', 8);
    at('timeupdate', 8.2);
    at('seeking', 3);
    // A seek right after a seek starts where the first one went.
    at('seeking', 6);
    expect(seeks).toEqual([
      { fromSec: 2, toSec: 8 },
      { fromSec: 8.2, toSec: 3 },
      { fromSec: 3, toSec: 6 },
    ]);
    sub.unsubscribe();
    at('seeking', 1);
    expect(seeks).toHaveLength(3);
  });

  it('starts from 0 before any time update, and each subscription keeps its own memory', () => {
    const { target, at } = element();
    const first: SeekSpan[] = [];
    const second: SeekSpan[] = [];
    elementSeeks$(target).subscribe((s) => first.push(s));
    at('timeupdate', 4);
    elementSeeks$(target).subscribe((s) => second.push(s));
    at('seeking', 9);
    expect(first).toEqual([{ fromSec: 4, toSec: 9 }]);
    expect(second).toEqual([{ fromSec: 0, toSec: 9 }]);
  });

  it('listens to nothing once unsubscribed', () => {
    const { target } = element();
    const added: string[] = [];
    const removed: string[] = [];
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    target.addEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null]) => (added.push(type), add(type, ...rest));
    target.removeEventListener = (type: string, ...rest: [EventListenerOrEventListenerObject | null]) => (removed.push(type), remove(type, ...rest));
    elementSeeks$(target).subscribe().unsubscribe();
    expect(added.sort()).toEqual(['seeking', 'timeupdate']);
    expect(removed.sort()).toEqual(['seeking', 'timeupdate']);
  });
});
