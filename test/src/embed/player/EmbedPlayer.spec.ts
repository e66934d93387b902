import { map, NEVER, of } from 'rxjs';
import { sameCues } from '../../../../src/embed/player/captionTracks';
import { createEmbedPlayer } from '../../../../src/embed/player/EmbedPlayer';
import { nextVideoData } from '../../../../src/embed/player/nextVideoData';
import { initialPlayerModel, type PlayerModel } from '../../../../streams/player/playerModel';
import { reducePlayer } from '../../../../streams/player/reducePlayer';
import { PlayerState } from '../../../../streams/player/playerState';
import { configFor, response } from '../../../streams/player/fixtures';

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

describe('createEmbedPlayer: caption cues', () => {
  it('passes on no new empty list of cues when a video without captions on is loaded again (a loop renders nothing for it)', () => {
    const player = createEmbedPlayer(configFor(), {
      fetchVideo: (id) => of(response(id, true)),
      fetchPlaylist: () => NEVER,
      origin: 'http://localhost',
    });
    const el = document.createElement('video');
    // jsdom has no media pipeline: a play that does nothing.
    el.play = () => Promise.resolve();
    el.pause = () => undefined;
    el.load = () => undefined;
    const lists: (readonly TextTrackCue[])[] = [];
    const sub = player.captionCues$.subscribe((cues) => lists.push(cues));
    player.attach(el);
    const seqs: number[] = [];
    const seqSub = player.model$.pipe(map((m) => m.loadSeq)).subscribe((seq) => seqs.push(seq));
    player.command({ type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true });
    player.command({ type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true });
    // Two more loads of the video went to the element, and the cues were said once: the empty list they started with.
    expect(new Set(seqs).size).toBeGreaterThanOrEqual(3);
    expect(lists).toEqual([[]]);
    sub.unsubscribe();
    seqSub.unsubscribe();
  });

  it('sameCues: the same cues in the same order', () => {
    const a = {} as TextTrackCue;
    const b = {} as TextTrackCue;
    expect([sameCues([], []), sameCues([a, b], [a, b]), sameCues([a], [a, b]), sameCues([a, b], [b, a])]).toEqual([true, true, false, false]);
  });
});

/** A jsdom `<video>` whose readiness and time the test sets (jsdom has no media pipeline), with every seek it is given. */
function fakeVideo() {
  const el = document.createElement('video');
  const media = { readyState: 0, time: 0, seeks: [] as number[] };
  Object.defineProperty(el, 'readyState', { get: () => media.readyState });
  Object.defineProperty(el, 'currentTime', {
    get: () => media.time,
    set: (t: number) => {
      media.seeks.push(t);
      media.time = t;
    },
  });
  el.play = () => Promise.resolve();
  el.pause = () => undefined;
  el.load = () => undefined;
  return { el, media };
}

describe('createEmbedPlayer: a seek before the element has its metadata', () => {
  /** A player for a video without captions (jsdom has no text tracks), its element attached, and the times it shows. */
  function attached() {
    const config = configFor();
    config.args.player_response = response('VFsunrise01');
    const player = createEmbedPlayer(config, { fetchVideo: (id) => of(response(id)), fetchPlaylist: () => NEVER, origin: 'http://localhost' });
    const { el, media } = fakeVideo();
    const times: number[] = [];
    player.media$.pipe(map((m) => m.currentTime)).subscribe((t) => times.push(t));
    player.attach(el);
    return { player, el, media, times };
  }

  it('shows its target as the time at once, and the element goes there at its metadata; a later seek goes at once', () => {
    const { player, el, media, times } = attached();
    expect(el.getAttribute('src')).toBe('/media/VFsunrise01/medium.webm');
    player.command({ type: 'seek', seconds: 5, allowSeekAhead: true });
    expect(times.at(-1)).toBe(5);
    expect(media.seeks).toEqual([]);
    const seekStates: unknown[] = [];
    player.model$.subscribe((m) => seekStates.push(m.seek));
    expect(seekStates.at(-1)).toEqual({ pending: 5, target: 5 });
    media.readyState = 1;
    el.dispatchEvent(new Event('loadedmetadata'));
    expect(media.seeks).toEqual([5]);
    expect(seekStates.at(-1)).toEqual({ pending: null, target: null });
    expect(times.at(-1)).toBe(5);
    player.command({ type: 'seek', seconds: 8, allowSeekAhead: true });
    expect(media.seeks).toEqual([5, 8]);
  });

  it('a new source ends what the target said: the time is the element’s own again at once', () => {
    const { player, media, times } = attached();
    player.command({ type: 'seek', seconds: 5, allowSeekAhead: true });
    expect(times.at(-1)).toBe(5);
    player.command({ type: 'loadVideo', options: { videoId: 'VFcitylight' }, autoplay: true });
    expect(times.at(-1)).toBe(0);
    expect(media.seeks).toEqual([]);
  });
});
