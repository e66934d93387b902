import { catchError, concatMap, defer, filter, ignoreElements, map, merge, type Observable, of, scan, share, Subject, switchMap, tap } from 'rxjs';
import { readPlayerResponse } from '../config/readPlayerResponse';
import { playerFetchFailure, unreadablePlayerAnswer } from './playerFetchFailure';
import type { PlayerModel } from './playerModel';
import type { ListType } from './playerStep';
import { reducePlayer, type EngineContext, type EngineInput, type PlayerAction, type PlayerStep } from './reducePlayer';

/**
 * A playlist as the reference server answers it (`POST /youtubei/v1/next`, asked `{playlistId}` for a list id or
 * `{listType, list}` for a channel's uploads or a search). `playlistId` is null for a list without an id (a search).
 */
export interface PlaylistResponse {
  playlistId: string | null;
  title: string;
  videos: { videoId: string; title: string }[];
}

export interface PlayerEngineOptions {
  initialModel: PlayerModel;
  /** Reads the page at the moment an input arrives (time, state, randomness). */
  context: () => EngineContext;
  /**
   * `POST /youtubei/v1/player {videoId}`: the answer's body, whatever it is (injected: a marble test passes `cold()`).
   * The engine reads it ({@link readPlayerResponse}); a body that is no player response fails the load.
   */
  fetchVideo: (videoId: string) => Observable<unknown>;
  /** `POST /youtubei/v1/next`: the list that `list` names by its `listType` (see {@link PlaylistResponse}). */
  fetchPlaylist: (list: string, listType: ListType) => Observable<PlaylistResponse>;
}

type FetchAction = Extract<PlayerAction, { type: 'fetchVideo' | 'fetchPlaylist' }>;

const isFetch = (a: PlayerAction): a is FetchAction => a.type === 'fetchVideo' || a.type === 'fetchPlaylist';

/** What the host's error says when a list cannot be had, by what the list named. */
export const LIST_UNAVAILABLE: Record<ListType, string> = {
  playlist: 'This playlist is unavailable.',
  user_uploads: 'This channel has no uploads here.',
  search: 'No video matches this search.',
};

/**
 * The player engine: every input (commands from the views and the host, element events that need a decision) folded
 * by {@link reducePlayer} into steps of `{model, actions}`. The engine performs its own fetches: a `fetchVideo` or
 * `fetchPlaylist` action starts a request (a newer one cancels the older, `switchMap`), whose answer — or failure,
 * caught inside — comes back as an input. A video's answer is read before the reducer sees it: one that is no player
 * response (see {@link readPlayerResponse}) comes back as a failure, like a request that failed
 * ({@link playerFetchFailure}), so no answer can throw inside the fold and stop the player. Everything else in
 * `actions` is for the page to perform on the element.
 *
 * ```
 * inputs:   --L-----------p--     (L loadVideo, p play)
 * fetch:      ---r|               (r the response)
 * steps:    --a---b-------c--     (a: state load + fetchVideo; b: source; c: play)
 * ```
 *
 * A `fetchVideo` that carries the response to reuse (a playlist looping back to the video that just played) is
 * answered at once, in the same task, without `fetchVideo`: the consumer still sees the two steps (the load, then
 * the response), in that order.
 *
 * `inputs$` should be hot (a Subject): the engine subscribes to its steps twice (the consumer and the fetches).
 */
export function playerEngine(
  inputs$: Observable<EngineInput>,
  { initialModel, context, fetchVideo, fetchPlaylist }: PlayerEngineOptions,
): Observable<PlayerStep> {
  return defer(() => {
    const answers$ = new Subject<EngineInput>();
    const steps$ = merge(inputs$, answers$).pipe(
      scan((step: PlayerStep, input: EngineInput) => reducePlayer(step.model, input, context()), { model: initialModel, actions: [] }),
      share(),
    );
    const fetches$ = steps$.pipe(
      // Most steps (every playback tick) ask for nothing: only those that fetch open an inner stream.
      filter((s) => s.actions.some(isFetch)),
      concatMap((s) => s.actions.filter(isFetch)),
      switchMap((a): Observable<EngineInput> => {
        if (a.type === 'fetchVideo') {
          // The response of the video that just played, handed back by the reducer (a loop): answered at once.
          if (a.reuse) return of<EngineInput>({ type: 'videoResponse', seq: a.seq, response: a.reuse, autoplay: a.autoplay });
          return fetchVideo(a.videoId).pipe(
            map((body): EngineInput => {
              const response = readPlayerResponse(body);
              if (!response) return { type: 'requestFailed', seq: a.seq, ...unreadablePlayerAnswer(body) };
              return { type: 'videoResponse', seq: a.seq, response, autoplay: a.autoplay };
            }),
            catchError((e: unknown) => of<EngineInput>({ type: 'requestFailed', seq: a.seq, ...playerFetchFailure(e) })),
          );
        }
        return fetchPlaylist(a.listId, a.listType ?? 'playlist').pipe(
          map((r): EngineInput => ({
            type: 'playlistResponse',
            seq: a.seq,
            listId: r.playlistId ?? null,
            title: r.title,
            ids: r.videos.map((v) => v.videoId),
            titles: Object.fromEntries(r.videos.map((v) => [v.videoId, v.title])),
            index: a.index,
            autoplay: a.autoplay,
            startSeconds: a.startSeconds,
            ...(a.quality !== undefined && { quality: a.quality }),
          })),
          // A list that names nothing (no such list, channel, or match) is a parameter that names nothing: code 2.
          catchError(() =>
            of<EngineInput>({ type: 'requestFailed', seq: a.seq, internal: 'api.invalidparam', message: LIST_UNAVAILABLE[a.listType ?? 'playlist'] }),
          ),
        );
      }),
      tap((answer) => answers$.next(answer)),
      ignoreElements(),
    );
    // The consumer sees each step before its fetch starts (steps$ first), so actions keep their order.
    return merge(steps$, fetches$);
  });
}
