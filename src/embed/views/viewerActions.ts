import { firstValueFrom, map, type Observable, shareReplay, startWith, Subject } from 'rxjs';
import type { NotificationLevel, SharePanel } from '../../../streams/platform/payloads';
import type { PlatformCalls, PlatformFailure, PlatformResult } from '../../../streams/platform/platformCalls';
import { videoViewerState, type ViewerStateChange, type ViewerVideoView } from '../../../streams/platform/videoViewerState';
import type { Attestation } from '../services/attestation';
import type { Identity } from '../services/identity';
import { newPlaybackNonce } from '../player/playbackNonce';

/** How a viewer's action ended: done, or a message to show (the server's, or the transport's). */
export type ActionOutcome = { ok: true } | { ok: false; message: string; status?: number };

/**
 * What the embed's viewer features (channel and subscribe, bell, watch later, share, feedback) can do, over the
 * platform calls of spec §7. The views never call the API themselves: they read `view$` and run these.
 */
export interface ViewerActions {
  /** The viewer's state of the current video (channel, subscription, bell, watch later, feedback tokens). */
  readonly view$: Observable<ViewerVideoView>;
  /** Subscribes to a channel (with a fresh attestation response, as the server requires). */
  subscribe(channelId: string): Promise<ActionOutcome>;
  unsubscribe(channelId: string): Promise<ActionOutcome>;
  setNotifications(channelId: string, level: NotificationLevel): Promise<ActionOutcome>;
  /** Adds the video to, or removes it from, the viewer's watch later. */
  setWatchLater(videoId: string, saved: boolean): Promise<ActionOutcome>;
  /** The share panel's links, made absolute on the embed's own origin. */
  sharePanel(request: { videoId: string; playlistId?: string; startTimeSeconds?: number }): Promise<SharePanel | { message: string }>;
  /** Sends one feedback token ("not interested" or a report reason). */
  sendFeedback(token: string): Promise<ActionOutcome>;
}

/** The message a failed call shows the viewer: the server's own words where it gave some (a 401 says to sign in). */
export function failureMessage(result: PlatformFailure): string {
  if (result.kind === 'http') {
    const error = (result.body as { error?: { message?: unknown } }).error;
    if (error && typeof error.message === 'string' && error.message !== '') return error.message;
  }
  return result.message;
}

/**
 * The embed's {@link ViewerActions} over the platform calls (spec §7), the attestation program (a fresh response for
 * each subscribe, spec §4) and the viewer's identity: the viewer's state is asked again per video and per account
 * ({@link videoViewerState}), and every write's answer is applied to it at once.
 */
export function createViewerActions({
  calls,
  attestation,
  videoId$,
  identity,
  win,
}: {
  calls: PlatformCalls;
  attestation?: Pick<Attestation, 'response'>;
  videoId$: Observable<string | undefined>;
  identity: Pick<Identity, 'session$'>;
  win: Window;
}): ViewerActions {
  const changes$ = new Subject<ViewerStateChange>();
  const view$ = videoViewerState({
    videoId$,
    account$: identity.session$.pipe(map((session) => session?.account.id)),
    fetchState: (videoId) => calls.videoViewerState(videoId).pipe(map((result) => (result.ok ? result.body : { message: failureMessage(result) }))),
    changes$,
  }).pipe(
    // The views read it with useObservableEagerState, which needs a value at once, whatever the sources do.
    startWith<ViewerVideoView>({ status: 'none' }),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  const cpns = new Map<string, string>();
  const outcome = <T>(result: PlatformResult<T>, change?: (body: T) => ViewerStateChange): ActionOutcome => {
    if (!result.ok) return { ok: false, message: failureMessage(result), ...(result.status !== undefined && { status: result.status }) };
    if (change) changes$.next(change(result.body));
    return { ok: true };
  };
  const source = 'embed';
  return {
    view$,
    subscribe: async (channelId) => {
      const botguardResponse = await attestation?.response();
      const result = await firstValueFrom(calls.subscribe({ channelId, source, botguardResponse, clientFeature: 'embed_channel_bar' }));
      return outcome(result, (answer) => ({
        kind: 'subscription',
        channelId: answer.channelId,
        subscribed: answer.subscribed,
        notificationLevel: answer.notificationLevel,
      }));
    },
    unsubscribe: async (channelId) =>
      outcome(await firstValueFrom(calls.unsubscribe({ channelId, source })), (answer) => ({
        kind: 'subscription',
        channelId: answer.channelId,
        subscribed: answer.subscribed,
      })),
    setNotifications: async (channelId, level) =>
      outcome(await firstValueFrom(calls.modifyChannelPreference({ channelId, level, source })), (answer) => ({
        kind: 'notifications',
        channelId: answer.channelId,
        notificationLevel: answer.notificationLevel,
      })),
    setWatchLater: async (videoId, saved) => {
      const result = await firstValueFrom(saved ? calls.addToWatchLater(videoId, source) : calls.removeFromWatchLater(videoId, source));
      return outcome(result, (answer) => ({ kind: 'watchLater', videoId, inWatchLater: answer.videoIds.includes(videoId) }));
    },
    sharePanel: async (request) => {
      const result = await firstValueFrom(calls.getSharePanel(request));
      return result.ok ? result.body : { message: failureMessage(result) };
    },
    sendFeedback: async (token) => {
      const view = await firstValueFrom(view$);
      const videoId = view.status === 'none' ? '' : view.videoId;
      if (!cpns.has(videoId)) cpns.set(videoId, newPlaybackNonce(win));
      return outcome(await firstValueFrom(calls.sendFeedback({ tokens: [token], cpn: cpns.get(videoId)!, shouldMerge: true })));
    },
  };
}
