import type { TestScheduler } from 'rxjs/testing';
import { Player } from '../../../../src/host/sdk/Player';
import { HOST_LISTENING_INTERVAL_MS, HOST_TIME_EXTRAPOLATION_MAX_MS } from '../../../../streams/timing';
import { createTestScheduler } from '../../../helpers/testScheduler';

/**
 * The Player against a simulated embed: messages are dispatched on the page's window exactly as a real embed's
 * `postMessage` arrives (origin + source), and what the player posts is recorded from the iframe window's
 * `postMessage`, stamped with the virtual clock.
 */
const EMBED = 'http://embed.test';
const FULL_API = [
  'playVideo',
  'pauseVideo',
  'stopVideo',
  'seekTo',
  'mute',
  'unMute',
  'setVolume',
  'setPlaybackRate',
  'setShuffle',
  'loadVideoById',
  'cueVideoById',
  'getPlayerState',
  'getCurrentTime',
  'getDuration',
  'getVolume',
  'isMuted',
];

interface Posted {
  at: number;
  message: Record<string, unknown>;
  targetOrigin: string;
}

function placeholder(id = 'player'): HTMLElement {
  const div = document.createElement('div');
  div.id = id;
  div.className = 'keep-me';
  document.body.append(div);
  return div;
}

/** Records what the player posts to its iframe, with the scheduler's time. */
function record(player: Player, scheduler: { now(): number }): Posted[] {
  const posted: Posted[] = [];
  jest.spyOn(player.getIframe().contentWindow!, 'postMessage').mockImplementation(((data: unknown, targetOrigin: string) => {
    posted.push({ at: scheduler.now(), message: JSON.parse(String(data)), targetOrigin });
  }) as Window['postMessage']);
  return posted;
}

/** The embed answering: a JSON string from the iframe's window and the embed origin unless told otherwise. */
function fromEmbed(
  player: Player,
  body: Record<string, unknown>,
  {
    origin = EMBED,
    source = player.getIframe().contentWindow as MessageEventSource | null,
    raw,
  }: { origin?: string; source?: MessageEventSource | null; raw?: unknown } = {},
) {
  const data = raw !== undefined ? raw : JSON.stringify({ channel: 'widget', id: player.id, info: null, ...body });
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

const snapshot = (extra: Record<string, unknown> = {}) => ({
  apiInterface: FULL_API,
  playerState: 5,
  currentTime: 0,
  currentTimeLastUpdated_: 0,
  duration: 12,
  volume: 100,
  muted: false,
  playbackRate: 1,
  videoData: { video_id: 'VFsunrise01', title: 'Sunrise', author: 'VidFrame' },
  ...extra,
});

const handshake = (player: Player, extra: Record<string, unknown> = {}) => {
  fromEmbed(player, { event: 'initialDelivery', info: snapshot(extra) });
  fromEmbed(player, { event: 'onReady' });
};

const commands = (posted: Posted[]) => posted.filter((p) => p.message.event === 'command').map((p) => [p.at, p.message.func, p.message.args]);
const listenings = (posted: Posted[]) => posted.filter((p) => p.message.event === 'listening').map((p) => p.at);

/** Runs `body` in virtual time; `at(ms, fn)` runs `fn` at that virtual time. Every test destroys its player. */
function inVirtualTime(body: (tools: { scheduler: TestScheduler; at: (ms: number, fn: () => void) => void }) => void) {
  const scheduler = createTestScheduler();
  scheduler.run(() => body({ scheduler, at: (ms, fn) => void scheduler.schedule(fn, ms) }));
}

afterEach(() => {
  document.body.innerHTML = '';
  jest.restoreAllMocks();
});

describe('Player: the iframe', () => {
  it('replaces the placeholder with an embed iframe built from the host option', () => {
    placeholder();
    const player = new Player('player', {
      host: `${EMBED}/some/path`,
      videoId: 'VFsunrise01',
      width: 320,
      height: 180,
      playerVars: { autoplay: 1, list: 'PLx' },
    });
    const iframe = document.getElementById('player') as HTMLIFrameElement;
    expect(iframe).toBe(player.getIframe());
    expect(iframe.tagName).toBe('IFRAME');
    expect([iframe.width, iframe.height]).toEqual(['320', '180']);
    expect(iframe.getAttribute('allow')).toContain('autoplay');
    expect(iframe.title).not.toBe('');
    const src = new URL(iframe.src);
    expect(src.origin).toBe(EMBED);
    expect(src.pathname).toBe('/embed/VFsunrise01');
    expect(Object.fromEntries(src.searchParams)).toEqual({
      enablejsapi: '1',
      origin: window.location.origin,
      widgetid: String(player.id),
      autoplay: '1',
      list: 'PLx',
    });
    expect(document.querySelector('.keep-me')).toBeNull();
    expect(iframe.getAttribute('allow')).not.toContain('geolocation');
    player.destroy();
  });

  it('lets the frame ask for the location only when the host enables geolocation (issue 13)', () => {
    placeholder();
    const player = new Player('player', { host: EMBED, videoId: 'VFsunrise01', playerVars: { geolocation: 1 } });
    expect(player.getIframe().getAttribute('allow')).toBe('autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture; geolocation');
    expect(new URL(player.getIframe().src).searchParams.get('geolocation')).toBe('1');
    player.destroy();
  });

  it('defaults to 640 × 390 and to the page origin; every player gets its own widget id', () => {
    placeholder('a');
    placeholder('b');
    const a = new Player('a', { videoId: 'VFsunrise01' });
    const b = new Player(document.getElementById('b')!, {});
    expect([a.getIframe().width, a.getIframe().height]).toEqual(['640', '390']);
    expect(new URL(a.getIframe().src).origin).toBe(window.location.origin);
    expect(new URL(b.getIframe().src).pathname).toBe('/embed/');
    expect(b.id).not.toBe(a.id);
    a.destroy();
    b.destroy();
  });

  it('attaches to an existing embed iframe, keeping its URL when the API is on', () => {
    const iframe = document.createElement('iframe');
    iframe.id = 'existing';
    iframe.src = `${EMBED}/embed/VFsunrise01?enablejsapi=1`;
    document.body.append(iframe);
    const player = new Player('existing');
    expect(player.getIframe()).toBe(iframe);
    expect(iframe.src).toBe(`${EMBED}/embed/VFsunrise01?enablejsapi=1`);
    // The embed origin is the iframe's: its messages are accepted.
    fromEmbed(player, { event: 'initialDelivery', info: snapshot({ volume: 7 }) });
    expect(player.getVolume()).toBe(7);
    player.destroy();
    expect(document.getElementById('existing')).toBeNull();
  });

  it('turns the API on for an attached iframe that lacks enablejsapi=1', () => {
    const iframe = document.createElement('iframe');
    iframe.src = `${EMBED}/embed/VFsunrise01?autoplay=1`;
    document.body.append(iframe);
    const player = new Player(iframe);
    const src = new URL(iframe.src);
    expect(src.searchParams.get('enablejsapi')).toBe('1');
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(src.searchParams.get('origin')).toBe(window.location.origin);
    player.destroy();
  });

  it('throws a clear error for a missing element; setSize resizes the iframe', () => {
    expect(() => new Player('nope')).toThrow('no element with id "nope"');
    placeholder();
    const player = new Player('player', { host: EMBED });
    player.setSize(800, 450);
    expect([player.getIframe().width, player.getIframe().height]).toEqual(['800', '450']);
    player.destroy();
  });
});

describe('Player: handshake and queueing', () => {
  it(`says listening every ${HOST_LISTENING_INTERVAL_MS} ms until the first answer, to the embed origin only (production constant)`, () => {
    expect(HOST_LISTENING_INTERVAL_MS).toBe(250);
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      const posted = record(player, scheduler);
      // The embed answers at 600 ms: listening at 0, 250, 500 — the one due at 750 is never sent.
      at(600, () => handshake(player));
      at(5_000, () => {
        expect(listenings(posted)).toEqual([0, 250, 500]);
        expect(posted.every((p) => p.targetOrigin === EMBED && p.message.id === player.id && p.message.channel === 'widget')).toBe(true);
        player.destroy();
      });
    });
  });

  it('answers readyToListen at once, and restarts the loop after every iframe load', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      const posted = record(player, scheduler);
      at(100, () => fromEmbed(player, { event: 'readyToListen' }));
      at(110, () => handshake(player));
      // The iframe reloads (a new embed document) at 2000: listening again at 2000 and 2250, answered at 2300.
      at(2_000, () => player.getIframe().dispatchEvent(new Event('load')));
      at(2_300, () => fromEmbed(player, { event: 'initialDelivery', info: snapshot() }));
      at(5_000, () => {
        expect(listenings(posted)).toEqual([0, 100, 2_000, 2_250]);
        player.destroy();
      });
    });
  });

  it('queues commands until the embed answers, then asks for the events listened to and sends the queue in order', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler, events: { onStateChange: () => {}, onReady: () => {} } });
      const posted = record(player, scheduler);
      player.unMute();
      player.setVolume(30);
      player.seekTo(5);
      at(100, () => player.playVideo());
      at(600, () => handshake(player));
      at(700, () => player.pauseVideo());
      at(800, () => {
        // Two observers of one event: the embed is asked once.
        player.events$('onError').subscribe();
        player.events$('onError').subscribe();
        player.addEventListener('onStateChange', () => {});
      });
      at(5_000, () => {
        expect(commands(posted)).toEqual([
          // onReady is never asked for: it only comes from the handshake.
          [600, 'addEventListener', ['onStateChange']],
          [600, 'unMute', []],
          [600, 'setVolume', [30]],
          [600, 'seekTo', [5, true]],
          [600, 'playVideo', []],
          [700, 'pauseVideo', []],
          [800, 'addEventListener', ['onError']],
        ]);
        player.destroy();
      });
    });
  });

  it('sends only the functions the embed lists in apiInterface (plus event subscriptions)', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler, events: { onError: () => {} } });
      const posted = record(player, scheduler);
      player.setShuffle(true);
      at(10, () => handshake(player, { apiInterface: ['playVideo'] }));
      at(20, () => {
        player.playVideo();
        player.setVolume(3);
      });
      at(100, () => {
        expect(commands(posted)).toEqual([
          [10, 'addEventListener', ['onError']],
          [20, 'playVideo', []],
        ]);
        expect(player.getApiInterface()).toEqual(['playVideo']);
        player.destroy();
      });
    });
  });
});

describe('Player: the cache', () => {
  it('getters read initialDelivery, merged key by key with each infoDelivery; info$ and state$ follow', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      const states: number[] = [];
      const infos: unknown[] = [];
      player.state$.subscribe((s) => states.push(s));
      player.info$.subscribe((i) => infos.push(i));
      // Nothing delivered yet: an unstarted player's answers (the IFrame API's types), info$ says nothing is known.
      expect(player.getPlayerState()).toBe(-1);
      expect(player.getDuration()).toBe(0);
      at(10, () => handshake(player));
      at(20, () => fromEmbed(player, { event: 'infoDelivery', info: { volume: 40, muted: true } }));
      at(30, () => fromEmbed(player, { event: 'infoDelivery', info: { playerState: 3 } }));
      at(40, () => fromEmbed(player, { event: 'infoDelivery', info: { playerState: 3, currentTime: 1 } }));
      at(50, () => fromEmbed(player, { event: 'infoDelivery', info: { playerState: 1 } }));
      at(60, () => {
        expect(player.getVolume()).toBe(40);
        expect(player.isMuted()).toBe(true);
        expect(player.getDuration()).toBe(12);
        expect(player.getPlayerState()).toBe(1);
        expect(player.getVideoData()).toEqual({ video_id: 'VFsunrise01', title: 'Sunrise', author: 'VidFrame' });
        // apiInterface is not part of the info.
        expect(infos[infos.length - 1]).not.toHaveProperty('apiInterface');
        expect(states).toEqual([5, 3, 1]);
        // state$ is hot with the last value: a late subscriber gets 1 at once.
        const late: number[] = [];
        player.state$.subscribe((s) => late.push(s)).unsubscribe();
        expect(late).toEqual([1]);
        player.destroy();
      });
    });
  });

  it('a load or cue command wipes the cache: getters answer as an unstarted player until the embed sends the next snapshot', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      record(player, scheduler);
      at(10, () => handshake(player));
      at(20, () => {
        player.loadVideoById('VFcitylight', 3);
        expect(player.getDuration()).toBe(0);
        expect(player.getPlayerState()).toBe(-1);
        expect(player.getVideoData()).toEqual({ video_id: '', title: '', author: '' });
      });
      at(30, () =>
        fromEmbed(player, { event: 'infoDelivery', info: { ...snapshot({ duration: 10, playerState: -1 }), videoData: { video_id: 'VFcitylight' } } }),
      );
      at(40, () => {
        expect(player.getDuration()).toBe(10);
        expect(player.getPlayerState()).toBe(-1);
        expect(player.getVideoData().video_id).toBe('VFcitylight');
        player.destroy();
      });
    });
  });

  it(`getCurrentTime extrapolates while playing, by at most ${HOST_TIME_EXTRAPOLATION_MAX_MS} ms (production constant)`, () => {
    expect(HOST_TIME_EXTRAPOLATION_MAX_MS).toBe(1_000);
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      // At 2000 ms the embed says: playing, 10 s in, read at wall-clock 2.0 s.
      at(2_000, () => handshake(player, { playerState: 1, currentTime: 10, currentTimeLastUpdated_: 2, duration: 60 }));
      at(2_400, () => expect(player.getCurrentTime()).toBeCloseTo(10.4, 9));
      // 2999 ms: 0.999 s elapsed; from 3000 ms on the 1 s cap holds.
      at(2_999, () => expect(player.getCurrentTime()).toBeCloseTo(10.999, 9));
      at(3_000, () => expect(player.getCurrentTime()).toBeCloseTo(11, 9));
      at(9_000, () => expect(player.getCurrentTime()).toBeCloseTo(11, 9));
      // Paused: the cached time, however late.
      at(9_100, () => fromEmbed(player, { event: 'infoDelivery', info: { playerState: 2, currentTime: 12.5, currentTimeLastUpdated_: 9.1 } }));
      at(12_000, () => {
        expect(player.getCurrentTime()).toBe(12.5);
        player.destroy();
      });
    });
  });

  it('getters are typed as the IFrame API documents them: defaults before any delivery, qualities as its union, playlist [] when none', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      const infos: Array<Record<string, unknown>> = [];
      player.info$.subscribe((i) => infos.push(i));
      expect([player.getPlayerState(), player.getCurrentTime(), player.getDuration(), player.getVolume(), player.isMuted()]).toEqual([-1, 0, 0, 100, false]);
      expect([player.getPlaybackRate(), player.getAvailablePlaybackRates(), player.getPlaybackQuality(), player.getAvailableQualityLevels()]).toEqual([
        1,
        [1],
        'default',
        [],
      ]);
      expect([player.getPlaylist(), player.getPlaylistIndex(), player.getVideoUrl(), player.getSphericalProperties(), player.getVideoLoadedFraction()]).toEqual(
        [[], -1, '', {}, 0],
      );
      // info$ keeps "not delivered" visible.
      expect(infos).toEqual([{}]);
      at(10, () =>
        handshake(player, {
          playbackQuality: 'medium',
          availableQualityLevels: ['medium', 'small', 'auto'],
          availablePlaybackRates: [0.5, 1, 2],
          playlist: null,
          playlistIndex: -1,
          sphericalProperties: {},
        }),
      );
      at(20, () => {
        expect(player.getPlaybackQuality()).toBe('medium');
        // The embed's `auto` (the player chooses) is the API's `default`.
        expect(player.getAvailableQualityLevels()).toEqual(['medium', 'small', 'default']);
        expect(player.getAvailablePlaybackRates()).toEqual([0.5, 1, 2]);
        expect(player.getPlaylist()).toEqual([]);
        fromEmbed(player, { event: 'infoDelivery', info: { playbackQuality: 'auto', playlist: ['VFsunrise01', 'VFcitylight'], playlistIndex: 1 } });
        expect(player.getPlaybackQuality()).toBe('default');
        expect(player.getPlaylist()).toEqual(['VFsunrise01', 'VFcitylight']);
        expect(player.getPlaylistIndex()).toBe(1);
        // `unknown` (no rendition yet) is no quality of the union either.
        fromEmbed(player, { event: 'infoDelivery', info: { playbackQuality: 'unknown' } });
        expect(player.getPlaybackQuality()).toBe('default');
        player.destroy();
      });
    });
  });

  it('setSphericalProperties is sent as a command, like every other setter', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const player = new Player('player', { host: EMBED, scheduler });
      const posted = record(player, scheduler);
      at(10, () => handshake(player, { apiInterface: [...FULL_API, 'setSphericalProperties', 'getSphericalProperties'] }));
      at(20, () => player.setSphericalProperties({ yaw: 90, fov: 100 }));
      at(30, () => {
        expect(commands(posted)).toEqual([[20, 'setSphericalProperties', [{ yaw: 90, fov: 100 }]]]);
        player.destroy();
      });
    });
  });

  it('apiInfoDelivery feeds getOptions / getOption; getVideoEmbedCode prefers the delivered code', () => {
    placeholder();
    const player = new Player('player', { host: EMBED, videoId: 'VFsunrise01' });
    expect(player.getOptions()).toEqual([]);
    const apiInfos: unknown[] = [];
    player.apiInfo$.subscribe((a) => apiInfos.push(a));
    expect(player.getVideoEmbedCode()).toContain(`src="${EMBED}/embed/VFsunrise01"`);
    handshake(player, { videoEmbedCode: '<iframe src="x"></iframe>' });
    fromEmbed(player, {
      event: 'apiInfoDelivery',
      info: { namespaces: ['captions'], captions: { options: ['tracklist', 'track'], track: { languageCode: 'en' } } },
    });
    expect(player.getOptions()).toEqual(['captions']);
    expect(player.getOptions('captions')).toEqual(['tracklist', 'track']);
    expect(player.getOptions('nothing')).toEqual([]);
    expect(player.getOption('captions', 'track')).toEqual({ languageCode: 'en' });
    expect(player.getOption('nothing', 'x')).toBeUndefined();
    expect(player.getVideoEmbedCode()).toBe('<iframe src="x"></iframe>');
    expect(apiInfos).toEqual([{}, { namespaces: ['captions'], captions: { options: ['tracklist', 'track'], track: { languageCode: 'en' } } }]);
    fromEmbed(player, { event: 'apiInfoDelivery', info: [1] });
    expect(apiInfos).toHaveLength(2);
    player.destroy();
  });
});

describe('Player: origin checks', () => {
  it('reads only JSON strings from the iframe window on the embed origin, with its own id', () => {
    inVirtualTime(({ scheduler, at }) => {
      placeholder();
      const other = document.createElement('iframe');
      document.body.append(other);
      const player = new Player('player', { host: EMBED, scheduler });
      const posted = record(player, scheduler);
      const seen: unknown[] = [];
      player.addEventListener('onReady', (e) => seen.push(e.data));
      at(100, () => {
        const bad = { event: 'initialDelivery', info: snapshot({ volume: 1 }) };
        fromEmbed(player, bad, { origin: 'http://evil.test' });
        fromEmbed(player, bad, { origin: 'https://embed.test' });
        fromEmbed(player, bad, { origin: 'http://embed.test:81' });
        fromEmbed(player, bad, { source: other.contentWindow });
        fromEmbed(player, bad, { source: window });
        fromEmbed(player, bad, { source: null });
        fromEmbed(player, { ...bad, id: player.id + 1000 });
        fromEmbed(player, {}, { raw: JSON.stringify({ ...bad, id: undefined }) });
        fromEmbed(player, {}, { raw: { ...bad, id: player.id } });
        fromEmbed(player, {}, { raw: '{not json' });
        fromEmbed(player, { event: 'onReady', channel: 'other' });
      });
      at(200, () => {
        // None of those was read: still the unstarted player's volume, not 2.
        expect(player.getVolume()).toBe(100);
        expect(seen).toEqual([]);
        // Still saying listening: none of those counted as an answer.
        expect(listenings(posted)).toEqual([0]);
      });
      at(600, () => handshake(player, { volume: 2 }));
      at(700, () => {
        expect(player.getVolume()).toBe(2);
        expect(seen).toEqual([null]);
        expect(listenings(posted)).toEqual([0, 250, 500]);
        player.destroy();
      });
    });
  });
});

describe('Player: events', () => {
  it('calls listeners with { target, data }: functions, global names; a throwing listener does not stop the others', () => {
    placeholder();
    const calls: string[] = [];
    (globalThis as Record<string, unknown>).onVidframeState = (e: { data: number }) => calls.push(`global ${e.data}`);
    jest.spyOn(console, 'error').mockImplementation(() => {});
    let target: unknown;
    const player = new Player('player', {
      host: EMBED,
      events: {
        onReady: (e) => {
          target = e.target;
          calls.push(`ready ${e.data}`);
        },
        onStateChange: () => {
          throw new Error('listener bug');
        },
      },
    });
    player.addEventListener('onStateChange', 'onVidframeState');
    const removed = (e: { data: number }) => calls.push(`removed ${e.data}`);
    player.addEventListener('onStateChange', removed);
    player.removeEventListener('onStateChange', removed);
    const fromRx: unknown[] = [];
    player.events$('onStateChange').subscribe((s) => fromRx.push(s));
    handshake(player);
    fromEmbed(player, { event: 'onStateChange', info: 1 });
    // An error after onReady arrives whether or not the page asked for it.
    fromEmbed(player, { event: 'onError', info: 150 });
    const errors: unknown[] = [];
    player.events$('onError').subscribe((c) => errors.push(c));
    fromEmbed(player, { event: 'onError', info: 100 });
    expect(target).toBe(player);
    expect(calls).toEqual(['ready null', 'global 1']);
    expect(fromRx).toEqual([1]);
    expect(errors).toEqual([100]);
    expect(console.error).toHaveBeenCalledTimes(1);
    player.destroy();
    delete (globalThis as Record<string, unknown>).onVidframeState;
  });
});

describe('Player: destroy', () => {
  it('puts the placeholder back, stops the timers and the message listener, completes every observable', () => {
    inVirtualTime(({ scheduler, at }) => {
      const div = placeholder();
      const added = jest.spyOn(window, 'addEventListener');
      const removedListener = jest.spyOn(window, 'removeEventListener');
      const player = new Player('player', { host: EMBED, scheduler });
      const iframe = player.getIframe();
      const posted = record(player, scheduler);
      const called: unknown[] = [];
      player.addEventListener('onReady', () => called.push('ready'));
      const completed: string[] = [];
      player.info$.subscribe({ complete: () => completed.push('info$') });
      player.state$.subscribe({ complete: () => completed.push('state$') });
      player.events$('onStateChange').subscribe({ complete: () => completed.push('events$') });
      player.playVideo();
      at(400, () => {
        player.destroy();
        player.destroy();
      });
      at(450, () => {
        // The iframe window is gone with the iframe: the embed (simulated) still posts from it.
        const message = { data: JSON.stringify({ event: 'onReady', id: player.id, channel: 'widget' }), origin: EMBED, source: null };
        window.dispatchEvent(new MessageEvent('message', message));
        player.playVideo();
        player.loadVideoById('VFcitylight');
      });
      at(3_000, () => {
        expect(document.getElementById('player')).toBe(div);
        expect(iframe.isConnected).toBe(false);
        // Listening at 0 and 250 only: the loop died with the player.
        expect(listenings(posted)).toEqual([0, 250]);
        expect(commands(posted)).toEqual([]);
        expect(called).toEqual([]);
        expect(completed.sort()).toEqual(['events$', 'info$', 'state$']);
        const messageAdds = added.mock.calls.filter(([type]) => type === 'message');
        const messageRemoves = removedListener.mock.calls.filter(([type]) => type === 'message');
        expect(messageAdds).toHaveLength(1);
        expect(messageRemoves).toHaveLength(1);
        expect(messageRemoves[0][1]).toBe(messageAdds[0][1]);
        // After destroy, events$ completes at once.
        let done = false;
        player.events$('onError').subscribe({ complete: () => (done = true) });
        expect(done).toBe(true);
      });
    });
  });
});
