import { nextVideoData } from '../../../src/embed/EmbedPlayer';
import { initialPlayerModel, type PlayerModel } from '../../../streams/player/playerModel';
import { reducePlayer } from '../../../streams/player/reducePlayer';
import { PlayerState } from '../../../streams/player/playerState';
import { configFor, response } from '../../streams/player/fixtures';

const ctx = { currentTime: 0, state: PlayerState.PLAYING, random: () => 0 };
const answered = (model: PlayerModel, r = response(model.videoId)) =>
  reducePlayer(model, { type: 'videoResponse', seq: model.loadSeq, response: r, autoplay: true }, ctx).model;

describe('nextVideoData (what the views show of the video)', () => {
  it('stays the same object while the video that shows is loaded again (a loop), and after, when it says the same', () => {
    const loaded = answered(initialPlayerModel(configFor({ loop: '1', playlist: 'VFsunrise01' })));
    const shown = nextVideoData(null, loaded);
    expect(shown).toEqual({ videoId: 'VFsunrise01', title: 'Title VFsunrise01', author: 'A', durationSeconds: 12, posterUrl: undefined });
    // The loop: the model has no response until the answer (the same one, or a fresh one saying the same).
    const loading = reducePlayer(loaded, { type: 'mediaEnded' }, ctx).model;
    expect(loading.response).toBeNull();
    expect(nextVideoData(shown, loading)).toBe(shown);
    expect(nextVideoData(shown, answered(loading, loaded.response!))).toBe(shown);
    expect(nextVideoData(shown, answered(loading))).toBe(shown);
    // A response that says otherwise (a new title) is new data.
    const renamed = { ...response('VFsunrise01'), videoDetails: { ...response('VFsunrise01').videoDetails!, title: 'New title' } };
    expect(nextVideoData(shown, answered(loading, renamed))).toMatchObject({ videoId: 'VFsunrise01', title: 'New title' });
  });

  it('is null while another video loads, and for a load that failed', () => {
    const loaded = answered(initialPlayerModel(configFor()));
    const shown = nextVideoData(null, loaded);
    const other = reducePlayer(loaded, { type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true }, ctx).model;
    expect(nextVideoData(shown, other)).toBeNull();
    const same = reducePlayer(loaded, { type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true }, ctx).model;
    const failed = reducePlayer(same, { type: 'requestFailed', seq: same.loadSeq, internal: 'net.unknown', message: 'offline' }, ctx).model;
    expect(nextVideoData(shown, same)).toBe(shown);
    expect(nextVideoData(shown, failed)).toBeNull();
  });
});
