/**
 * The playlist: its play order (shuffled or not), moves along it, and what the end of a video or clip leads to.
 */
import type { PlayerResponse } from '../config/playerConfig';
import { fail, startLoad } from './playerLoad';
import type { PlayerModel, PlaylistModel } from './playerModel';
import { seekTo } from './playerSeek';
import { isListType, secondsOr, unchanged, type EngineContext, type EngineInput, type PlayerStep, type Rules } from './playerStep';

/** The positions of the playlist in play order (the shuffled order when shuffled). */
const playOrder = (p: PlaylistModel) => p.order ?? p.ids.map((_, i) => i);

/** Moves the playlist by `step` in play order; wraps when looping; undefined past either end without loop. */
function playlistIndexAfter(p: PlaylistModel, step: 1 | -1, loop: boolean): number | undefined {
  const order = playOrder(p);
  const pos = Math.max(0, order.indexOf(p.index));
  const next = pos + step;
  if (next >= 0 && next < order.length) return order[next];
  if (!loop) return undefined;
  return order[(next + order.length) % order.length];
}

function playAt(model: PlayerModel, index: number, autoplay: boolean, startSeconds = 0, quality?: string, reuse?: PlayerResponse): PlayerStep {
  const p = model.playlist;
  // An index outside the playlist (negative, fractional, past the end) finds no id.
  const id = p?.ids[index];
  if (!p || id === undefined) return { model, actions: [] };
  return startLoad(model, id, autoplay, { startSeconds, endSeconds: null, quality }, { ...p, index }, reuse);
}

/** Fisher–Yates over the indices, keeping the current one first so the video playing is not interrupted. */
function shuffledOrder(length: number, current: number, random: () => number): number[] {
  const rest = Array.from({ length }, (_, i) => i).filter((i) => i !== current);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    // random() is in [0, 1), so 0 <= j <= i < rest.length: both indices are in range.
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [current, ...rest];
}

/** End of the video or of the clip: the next playlist item, or a restart when looping, or nothing (state 0). */
export function onEnd(model: PlayerModel, ctx: EngineContext): PlayerStep {
  if (model.playlist) {
    const next = playlistIndexAfter(model.playlist, 1, model.loop);
    if (next === undefined) return { model, actions: [] };
    // Back to the video that just played (a looping playlist of one): its response is still good, no new request.
    const again = model.playlist.ids[next] === model.videoId && model.response?.playabilityStatus.status === 'OK' && !model.error;
    return playAt(model, next, true, 0, undefined, again ? model.response! : undefined);
  }
  if (!model.loop) return { model, actions: [] };
  const restart = seekTo({ ...model, clipEnded: false }, model.startSeconds, ctx);
  return { model: restart.model, actions: [...restart.actions, { type: 'play' }] };
}

/** `nextVideo` / `previousVideo`: the playlist's next or previous item in play order. */
function movePlaylist(model: PlayerModel, input: Extract<EngineInput, { type: 'nextVideo' | 'previousVideo' }>): PlayerStep {
  if (!model.playlist) return unchanged(model);
  const i = playlistIndexAfter(model.playlist, input.type === 'nextVideo' ? 1 : -1, model.loop);
  return i === undefined ? unchanged(model) : playAt(model, i, true);
}

/** The model with this playlist, in a shuffled order when shuffle is on. */
const withPlaylist = (model: PlayerModel, p: PlaylistModel, random: () => number): PlayerModel => ({
  ...model,
  playlist: model.shuffle ? { ...p, order: shuffledOrder(p.ids.length, p.index, random) } : p,
});

/** Loading a playlist, its answer, moves along it, and its order. */
export const PLAYLIST_RULES: Rules<'loadPlaylist' | 'playlistResponse' | 'nextVideo' | 'previousVideo' | 'playVideoAt' | 'setShuffle'> = {
  loadPlaylist: (model, input, ctx) => {
    const o = input.options ?? {};
    const index = Number.isInteger(o.index) && (o.index as number) >= 0 ? (o.index as number) : 0;
    const start = secondsOr(o.startSeconds);
    if (Array.isArray(o.playlist) && o.playlist.length > 0) {
      const ids = o.playlist.filter((id): id is string => typeof id === 'string').slice(0, 200);
      if (ids.length === 0) return fail(model, 'api.invalidparam');
      const p: PlaylistModel = { ids, listId: null, title: null, titles: {}, index: Math.min(index, ids.length - 1), order: null };
      return playAt(withPlaylist(model, p, ctx.random), p.index, input.autoplay === true, start, o.suggestedQuality);
    }
    // A list id, a channel's uploads or a search (an absent type is a list id); any other type names nothing.
    if (typeof o.list === 'string' && o.list !== '' && (o.listType === undefined || isListType(o.listType))) {
      const seq = model.loadSeq + 1;
      const listType = o.listType === 'user_uploads' || o.listType === 'search' ? o.listType : undefined;
      const quality = typeof o.suggestedQuality === 'string' ? o.suggestedQuality : undefined;
      return {
        // Which video plays is not known until the list answers: no response for it yet (`videoKnown` false). What the
        // host asks meanwhile (play, pause, a seek) is kept for the video the list starts with.
        model: { ...model, loadSeq: seq, error: null, response: null, quality: '', startSeconds: start, playOnResponse: undefined },
        // A cue stops what plays at once, as `startLoad` does.
        actions: [
          { type: 'state', input: { type: input.autoplay ? 'load' : 'cue' } },
          ...(input.autoplay ? [] : [{ type: 'pause' } as const]),
          {
            type: 'fetchPlaylist',
            seq,
            listId: o.list,
            ...(listType && { listType }),
            index,
            autoplay: input.autoplay === true,
            startSeconds: start,
            ...(quality !== undefined && { quality }),
          },
        ],
      };
    }
    return fail({ ...model, error: null }, 'api.invalidparam');
  },
  playlistResponse: (model, input, ctx) => {
    if (input.seq !== model.loadSeq || input.ids.length === 0) return input.seq === model.loadSeq ? fail(model, 'api.invalidparam') : unchanged(model);
    const index = Math.min(input.index, input.ids.length - 1);
    const p: PlaylistModel = { ids: input.ids, listId: input.listId, title: input.title, titles: input.titles, index, order: null };
    return playAt(withPlaylist(model, p, ctx.random), index, model.playOnResponse ?? input.autoplay, model.startSeconds, input.quality);
  },
  nextVideo: movePlaylist,
  previousVideo: movePlaylist,
  playVideoAt: (model, input) => {
    return playAt(model, input.index, true);
  },
  setShuffle: (model, input, ctx) => {
    const shuffle = input.shuffle === true;
    const p = model.playlist;
    const playlist = p ? { ...p, order: shuffle ? shuffledOrder(p.ids.length, p.index, ctx.random) : null } : p;
    return { model: { ...model, shuffle, playlist }, actions: [] };
  },
};
