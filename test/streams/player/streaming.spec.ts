import type { AdaptiveFormat, PlayerResponse } from '../../../streams/config/playerConfig';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT } from '../../../streams/player/playerInfo';
import { earlyMediaOf, initialPlayerModel, type PlayerModel } from '../../../streams/player/playerModel';
import { PlayerState } from '../../../streams/player/playerState';
import { reducePlayer, type EngineContext, type EngineInput, type PlayerAction } from '../../../streams/player/reducePlayer';
import { configFor, response } from './fixtures';

const rendition = (quality: string, height: number, bitrate: number): AdaptiveFormat => ({
  kind: 'video',
  quality,
  width: Math.round((height * 16) / 9),
  height,
  bitrate,
  mimeType: 'video/mp4; codecs="avc1.4d401e"',
  initUrl: `/library/v/h264/init-${quality}.m4s`,
  segmentUrl: `/library/v/h264/seg-${quality}-$Number%05d$.m4s`,
  startNumber: 1,
  segmentSeconds: 2,
  segmentBytes: [1000, 1000, 1000],
});
const audio: AdaptiveFormat = { ...rendition('', 0, 128_000), kind: 'audio', mimeType: 'audio/mp4; codecs="mp4a.40.2"', initUrl: '/library/v/h264/init-a.m4s' };
delete audio.quality;

/** A sample's answer with a ladder of three renditions (listed highest first, as an answer may list them). */
const streamed = (progressive = true): PlayerResponse => {
  const base = response('VFsunrise01');
  return {
    ...base,
    streamingData: {
      formats: progressive ? (base.streamingData?.formats ?? []) : [],
      adaptiveFormats: [rendition('large', 480, 900_000), rendition('tiny', 144, 110_000), rendition('medium', 360, 500_000), audio],
    },
  };
};

const ctx = (extra: Partial<EngineContext> = {}): EngineContext => ({ state: PlayerState.PLAYING, currentTime: 4, random: () => 0, canStream: true, ...extra });

function run(model: PlayerModel, inputs: EngineInput[], c = ctx()) {
  const actions: PlayerAction[] = [];
  for (const input of inputs) {
    const step = reducePlayer(model, input, c);
    model = step.model;
    actions.push(...step.actions);
  }
  return { model, actions };
}

const initial = () => initialPlayerModel(configFor({}));
const load = (r: PlayerResponse, c = ctx()) => run(initial(), [{ type: 'videoResponse', seq: 0, response: r, autoplay: true }], c);

describe('streaming an adaptive ladder', () => {
  it('streams a response with a ladder where the page can: the source names the stream, no quality shows yet', () => {
    const { model, actions } = load(streamed());
    expect(actions[0]).toMatchObject({ type: 'source', url: '/library/v/h264/init-tiny.m4s', stream: true, play: true });
    expect(model.streaming).toBe(true);
    expect(model.quality).toBe('');
    const info = buildPlayerInfo(model, EMPTY_MEDIA_SNAPSHOT, PlayerState.BUFFERING, { origin: 'https://e.test', nowMs: 0 });
    expect(info.availableQualityLevels).toEqual(['large', 'medium', 'tiny', 'auto']);
    expect(info.playbackQuality).toBe('unknown');
  });

  it('plays the progressive file where the page cannot stream, and fails with html5.missingapi when there is none', () => {
    const progressive = load(streamed(), ctx({ canStream: false }));
    expect(progressive.actions[0]).toMatchObject({ type: 'source', url: '/media/VFsunrise01/medium.webm' });
    expect(progressive.actions[0]).not.toHaveProperty('stream');
    expect(progressive.model.streaming).toBeUndefined();
    const none = load(streamed(false), ctx({ canStream: false }));
    expect(none.actions).toContainEqual(expect.objectContaining({ type: 'error', internal: 'html5.missingapi' }));
  });

  it('a quality asked for while streaming goes to the stream, which stays where it is', () => {
    const { model } = load(streamed());
    const step = run(model, [{ type: 'setPlaybackQuality', quality: 'medium' }]);
    expect(step.actions).toEqual([{ type: 'streamQuality', quality: 'medium' }]);
    expect(step.model.qualityPreference).toBe('medium');
    expect(step.model.quality).toBe('');
  });

  it('the quality is the rendition on screen: a new picture size says which one', () => {
    const { model } = load(streamed());
    const shown = run(model, [{ type: 'renditionShown', height: 360 }]);
    expect(shown.model.quality).toBe('medium');
    expect(reducePlayer(shown.model, { type: 'renditionShown', height: 360 }, ctx()).model).toBe(shown.model);
    expect(run(shown.model, [{ type: 'renditionShown', height: 480 }]).model.quality).toBe('large');
    // A progressive file's picture says nothing about a ladder.
    const progressive = load(streamed(), ctx({ canStream: false }));
    expect(reducePlayer(progressive.model, { type: 'renditionShown', height: 144 }, ctx()).model).toBe(progressive.model);
  });

  it('the bytes loaded and in all are the stream’s own counts while streaming', () => {
    const { model } = load(streamed());
    const counted = run(model, [{ type: 'streamBytes', loaded: 3000, total: 9000 }]).model;
    const info = buildPlayerInfo(counted, EMPTY_MEDIA_SNAPSHOT, PlayerState.PLAYING, { origin: 'https://e.test', nowMs: 0 });
    expect([info.videoBytesLoaded, info.videoBytesTotal]).toEqual([3000, 9000]);
    // Nonsense counts, or counts for a file that does not stream, change nothing.
    expect(reducePlayer(counted, { type: 'streamBytes', loaded: 5, total: 4 }, ctx()).model).toBe(counted);
    const progressive = load(streamed(), ctx({ canStream: false })).model;
    expect(reducePlayer(progressive, { type: 'streamBytes', loaded: 1, total: 2 }, ctx()).model).toBe(progressive);
    // The next load starts without them.
    expect(run(counted, [{ type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true }]).model.streamBytes).toBeUndefined();
  });

  it('a failed stream fails the video once, with its internal error', () => {
    const { model } = load(streamed());
    const failed = run(model, [
      { type: 'streamFailed', internal: 'fmt.decode', message: 'bad' },
      { type: 'streamFailed', internal: 'fmt.decode', message: 'bad' },
    ]);
    expect(failed.actions.filter((a) => a.type === 'error')).toEqual([expect.objectContaining({ internal: 'fmt.decode' })]);
  });

  it('the page gives the element no file to start for a video that streams', () => {
    const config = configFor({ autoplay: '1' });
    expect(earlyMediaOf(config)?.src).toBe('/media/VFsunrise01/medium.webm');
    expect(earlyMediaOf({ ...config, args: { ...config.args, player_response: streamed() } })).toBeUndefined();
  });
});
