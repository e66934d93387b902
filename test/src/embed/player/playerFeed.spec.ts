import { waitFor } from '@testing-library/react';
import { createEmbedApi } from '../../../../src/embed/services/api';
import { playerFeed, type FeedMediaEvent } from '../../../../src/embed/player/playerFeed';
import { startTelemetry, type Telemetry } from '../../../../src/embed/services/telemetry';
import { PlayerState } from '../../../../streams/player/playerState';
import { configFor } from '../../../streams/player/fixtures';
import { anonymousIdentity, fakeFeedPlayer } from '../fakes';

/** A `<video>` whose time the test sets; `at(type, t)` moves it to `t` and fires `type`. */
function video() {
  const el = document.createElement('video');
  let time = 0;
  Object.defineProperty(el, 'currentTime', { configurable: true, get: () => time, set: (t: number) => (time = t) });
  const at = (type: string, t: number) => {
    time = t;
    el.dispatchEvent(new Event(type));
  };
  return { el, at };
}

/** The player as the feed and the telemetry read it, playing, over `el`. */
const fakePlayer = (el: HTMLVideoElement) => fakeFeedPlayer(configFor(), { element: el, state: PlayerState.PLAYING });

describe('playerFeed: the element events logging sees', () => {
  it('passes no time updates; a seek comes with where it started (the time played or sought before it)', () => {
    const { el, at } = video();
    const seen: FeedMediaEvent[] = [];
    const sub = playerFeed(fakePlayer(el)).media$.subscribe((e) => seen.push(e));
    at('timeupdate', 1);
    at('timeupdate', 2.5);
    at('seeking', 8);
    at('timeupdate', 8.25);
    at('seeking', 3);
    at('seeking', 6);
    el.dispatchEvent(new Event('volumechange'));
    sub.unsubscribe();
    expect(seen.map((e) => [e.type, e.target.currentTime, e.fromSec])).toEqual([
      ['attached', 0, undefined],
      ['seeking', 8, 2.5],
      ['seeking', 3, 8.25],
      ['seeking', 6, 3],
      ['volumechange', 6, undefined],
    ]);
  });
});

describe('startTelemetry: seeks logged from the feed', () => {
  let telemetry: Telemetry | undefined;
  afterEach(() => telemetry?.stop());

  it('logs each seek with the time played before it and the time sought, as before the feed stopped passing time updates', async () => {
    const bodies: string[] = [];
    const fetch = jest.fn(async (url: string, init: RequestInit) => {
      if (!url.startsWith('/generate_204')) bodies.push(String(init.body));
      return { status: 204, headers: { get: () => null }, text: async (): Promise<string> => '' };
    });
    Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
    const { el, at } = video();
    const player = fakePlayer(el);
    telemetry = startTelemetry(playerFeed(player), createEmbedApi(window, player.config, anonymousIdentity()), window);
    at('timeupdate', 1);
    at('timeupdate', 4.5);
    at('seeking', 10);
    at('timeupdate', 10.25);
    at('seeking', 2);
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(bodies.join('\n')).toContain('playerSeek'));
    const seeks = bodies
      .flatMap((b) => (JSON.parse(b) as { events?: Record<string, unknown>[] }).events ?? [])
      .filter((e) => 'playerSeek' in e)
      .map((e) => e.playerSeek as { fromSec: number; toSec: number });
    expect(seeks.map(({ fromSec, toSec }) => [fromSec, toSec])).toEqual([
      [4.5, 10],
      [10.25, 2],
    ]);
  });
});
