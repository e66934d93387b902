import { combineLatest, distinctUntilChanged, map, merge, type Observable, of, scan, startWith, switchMap, catchError } from 'rxjs';
import type { NotificationLevel, VideoViewerState } from './payloads';

/** What the viewer's view of the current video knows: nothing yet, the server's answer, or that asking failed. */
export type ViewerVideoView =
  | { status: 'none' }
  | { status: 'loading'; videoId: string }
  | { status: 'ready'; videoId: string; state: VideoViewerState }
  | { status: 'failed'; videoId: string; message: string };

/** A change the page learnt from a write's answer, applied to the view without asking the server again. */
export type ViewerStateChange =
  | { kind: 'subscription'; channelId: string; subscribed: boolean; notificationLevel?: NotificationLevel }
  | { kind: 'notifications'; channelId: string; notificationLevel: NotificationLevel }
  | { kind: 'watchLater'; videoId: string; inWatchLater: boolean };

export interface VideoViewerStateSources {
  /** The video the player shows (undefined before one is known). */
  videoId$: Observable<string | undefined>;
  /** Who is signed in: an account key (its id), or undefined for an anonymous viewer. */
  account$: Observable<string | undefined>;
  /** Asks the server (`next {videoId}`): one answer then complete, or a failure as `{ message }`. */
  fetchState: (videoId: string) => Observable<VideoViewerState | { message: string }>;
  /** Answers of the viewer's writes (subscribe, bell, watch later), applied as they arrive. */
  changes$: Observable<ViewerStateChange>;
}

/** Applies a write's answer to a view it concerns (another video's or channel's answer leaves it as it is). */
export function applyViewerStateChange(view: ViewerVideoView, change: ViewerStateChange): ViewerVideoView {
  if (view.status !== 'ready') return view;
  const { state } = view;
  switch (change.kind) {
    case 'subscription': {
      if (state.channel.channelId !== change.channelId) return view;
      const channel = { ...state.channel, subscribed: change.subscribed };
      if (change.subscribed && change.notificationLevel) channel.notificationLevel = change.notificationLevel;
      if (!change.subscribed) delete channel.notificationLevel;
      return { ...view, state: { ...state, channel } };
    }
    case 'notifications':
      if (state.channel.channelId !== change.channelId) return view;
      return { ...view, state: { ...state, channel: { ...state.channel, notificationLevel: change.notificationLevel } } };
    case 'watchLater':
      if (state.videoId !== change.videoId) return view;
      return { ...view, state: { ...state, inWatchLater: change.inWatchLater } };
  }
}

/**
 * The viewer's state of the current video (its channel, subscription, bell, watch later, feedback tokens): asked again
 * whenever the video or the signed-in account changes — an answer for the previous video or account is dropped
 * (switchMap) — and kept current by the answers of the viewer's own writes. Emits `none` until a video is known,
 * `loading` while asking, then `ready` or `failed`; it never errors.
 */
export function videoViewerState({ videoId$, account$, fetchState, changes$ }: VideoViewerStateSources): Observable<ViewerVideoView> {
  return combineLatest([videoId$.pipe(distinctUntilChanged()), account$.pipe(distinctUntilChanged())]).pipe(
    switchMap(([videoId]): Observable<ViewerVideoView> => {
      if (!videoId) return of({ status: 'none' });
      const answer$ = fetchState(videoId).pipe(
        map((answer): ViewerVideoView =>
          'message' in answer ? { status: 'failed', videoId, message: answer.message } : { status: 'ready', videoId, state: answer },
        ),
        catchError((error: unknown) => of<ViewerVideoView>({ status: 'failed', videoId, message: error instanceof Error ? error.message : String(error) })),
      );
      const updates$ = merge(
        answer$.pipe(map((view) => (): ViewerVideoView => view)),
        changes$.pipe(map((change) => (current: ViewerVideoView) => applyViewerStateChange(current, change))),
      );
      return updates$.pipe(
        scan((view, update) => update(view), { status: 'loading', videoId } as ViewerVideoView),
        startWith<ViewerVideoView>({ status: 'loading', videoId }),
        distinctUntilChanged(),
      );
    }),
  );
}
