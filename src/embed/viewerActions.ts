import type { Observable } from 'rxjs';
import type { NotificationLevel, SharePanel } from '../../streams/platform/payloads';
import type { ViewerVideoView } from '../../streams/platform/videoViewerState';

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
