import { createCaptionTracks } from '../../../../src/embed/player/captionTracks';
import { adoptElement } from '../../../../src/embed/player/adoptElement';
import { performAction, type EffectTargets } from '../../../../src/embed/player/playerEffects';
import { initialPlayerModel } from '../../../../streams/player/playerModel';
import type { PlayerStateInput } from '../../../../streams/player/playerState';
import type { EngineInput, PlayerAction } from '../../../../streams/player/reducePlayer';
import { configFor } from '../../../streams/player/fixtures';

/** A jsdom `<video>` with this source, readiness, time and play state (jsdom has no media pipeline), and its seeks. */
function video({ src = '/media/VFsunrise01/medium.webm', readyState = 1, time = 3, paused = true } = {}) {
  const el = document.createElement('video');
  el.setAttribute('src', src);
  const media = { time, seeks: [] as number[], plays: 0 };
  Object.defineProperty(el, 'readyState', { get: () => readyState });
  Object.defineProperty(el, 'paused', { get: () => paused });
  Object.defineProperty(el, 'currentTime', {
    get: () => media.time,
    set: (t: number) => {
      media.seeks.push(t);
      media.time = t;
    },
  });
  el.play = () => {
    media.plays++;
    return Promise.resolve();
  };
  el.pause = () => undefined;
  el.load = () => undefined;
  return { el, media };
}

function targets(el: HTMLVideoElement | null) {
  const said: unknown[] = [];
  const to: EffectTargets = {
    element: () => el,
    model: () => initialPlayerModel(configFor()),
    captions: createCaptionTracks(),
    stateInput: (i) => said.push(i),
    error: (e) => said.push(e),
    event: (e) => said.push(e),
    autoplayBlocked: () => undefined,
    stream: {
      attach: (_el, response) => said.push({ attach: response.videoDetails?.videoId }),
      setQuality: (q) => said.push({ streamQuality: q }),
      detach: () => undefined,
    },
  };
  return { to, said };
}

const source = (over: Partial<Extract<PlayerAction, { type: 'source' }>> = {}): PlayerAction => ({
  type: 'source',
  url: '/media/VFsunrise01/medium.webm',
  startSeconds: 0,
  play: false,
  captions: [],
  ...over,
});

describe('the player effects, one per action', () => {
  it('a source the element has with its metadata: back to the start, unless the browser started it there (keepPosition)', () => {
    const back = video();
    performAction(source(), targets(back.el).to);
    expect(back.media.seeks).toEqual([0]);
    const kept = video();
    performAction(source({ keepPosition: true }), targets(kept.el).to);
    expect(kept.media.seeks).toEqual([]);
    // Where it is already: no seek (it would still fire seeking/seeked).
    const there = video({ time: 0 });
    performAction(source(), targets(there.el).to);
    expect(there.media.seeks).toEqual([]);
  });

  it('a new source goes into the element and waits for its metadata for its start (the model holds it)', () => {
    const { el, media } = video({ src: '/media/VFcitylight/medium.webm', readyState: 0, time: 0 });
    performAction(source({ startSeconds: 4, play: true }), targets(el).to);
    expect(el.getAttribute('src')).toBe('/media/VFsunrise01/medium.webm');
    expect(el.preload).toBe('auto');
    expect(media.seeks).toEqual([]);
    expect(media.plays).toBe(1);
  });

  it('a seek sets the time; the engine-level actions need no element', () => {
    const { el, media } = video();
    performAction({ type: 'seek', seconds: 7 }, targets(el).to);
    expect(media.seeks).toEqual([7]);
    const none = targets(null);
    performAction({ type: 'seek', seconds: 7 }, none.to);
    performAction({ type: 'state', input: { type: 'cue' } }, none.to);
    performAction({ type: 'error', internal: 'fmt.decode', message: 'm' }, none.to);
    expect(none.said).toEqual([
      { type: 'cue' },
      expect.objectContaining({ internal: 'fmt.decode' }),
      expect.objectContaining({ type: 'error', internal: 'fmt.decode' }),
    ]);
  });
});

describe('adoptElement: the first mounted element', () => {
  function adopt(el: HTMLVideoElement, vars: Record<string, string> = {}) {
    const engine: EngineInput[] = [];
    const states: PlayerStateInput[] = [];
    adoptElement(el, { config: configFor(vars), autoplay: true, startSeconds: 0 }, { stateInput: (i) => states.push(i), engineInput: (i) => engine.push(i) });
    return { engine, states };
  }

  it('tells the engine that the browser started the element already, and the state machine its lost play events', () => {
    const { el } = video({ paused: false, readyState: 4 });
    el.setAttribute('autoplay', '');
    const { engine, states } = adopt(el);
    expect(engine[0]).toMatchObject({ type: 'videoResponse', seq: 0, autoplay: true, elementStarted: true });
    expect(states.map((s) => s.type)).toEqual(['load', 'play', 'playing']);
    expect(el.hasAttribute('autoplay')).toBe(false);
  });

  it('an element that has not started is a plain first load', () => {
    const { el } = video({ time: 0 });
    const { engine, states } = adopt(el);
    expect(engine[0]).not.toHaveProperty('elementStarted');
    expect(states.map((s) => s.type)).toEqual(['load']);
  });

  it("a page answer that depends on the viewer is not played: the player endpoint is asked, as for a host's load", () => {
    const el = document.createElement('video');
    const config = configFor({ start: '2' }, 'VFmembers01');
    config.args.player_response = { playabilityStatus: { status: 'OK' }, viewerDependent: true };
    for (const autoplay of [true, false]) {
      const engine: EngineInput[] = [];
      const states: PlayerStateInput[] = [];
      adoptElement(el, { config, autoplay, startSeconds: 2 }, { stateInput: (i) => states.push(i), engineInput: (i) => engine.push(i) });
      expect(engine).toEqual([{ type: 'loadVideo', options: { videoId: 'VFmembers01', startSeconds: 2 }, autoplay }]);
      // The load's own rule moves the state (to -1, or 5 for a cue).
      expect(states).toEqual([]);
    }
  });
});
