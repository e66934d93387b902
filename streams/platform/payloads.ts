import { decodeBase64Url, encodeBase64Url } from '../identity/base64url';

/**
 * The payloads of the platform calls of spec §7, shared by the embed (which builds them) and the reference server
 * (which validates them). Every call is a `POST /youtubei/v1/<endpoint>` whose body is the payload plus the client
 * `context` and the anti-forgery field the transport adds (see `streams/transport/buildApiRequest.ts`).
 *
 * The opaque strings of the calls (`serializedSharedEntity`, `params`, `secondaryParams`) are base64url JSON in this
 * product: the client builds them with the encoders below and the server reads them with the decoders, so a value that
 * is not one of them is a 400 naming the field.
 */

/** The endpoints of spec §7 besides logging, as the transport's `endpoint` argument. */
export const PLATFORM_ENDPOINTS = {
  subscribe: 'subscription/subscribe',
  unsubscribe: 'subscription/unsubscribe',
  sharePanel: 'share/get_share_panel',
  webPlayerSharePanel: 'share/get_web_player_share_panel',
  feedback: 'feedback',
  modifyChannelPreference: 'notification/modify_channel_preference',
  editPlaylist: 'browse/edit_playlist',
} as const;
export type PlatformEndpoint = (typeof PLATFORM_ENDPOINTS)[keyof typeof PLATFORM_ENDPOINTS];

/** `subscription/subscribe`: channelIds, siloName, params, optional attestation (botguard) response and client feature. */
export interface SubscribePayload {
  channelIds: string[];
  siloName: string;
  params: string;
  /** The attestation program's response token (spec §4): the server refuses a subscribe without a valid one. */
  botguardResponse?: string;
  /** Where in the client the subscribe was pressed, e.g. `embed_channel_bar`. */
  clientFeature?: string;
}

/** `subscription/unsubscribe`: channelIds, siloName, params. */
export interface UnsubscribePayload {
  channelIds: string[];
  siloName: string;
  params: string;
}

/** `share/get_share_panel`: serializedSharedEntity, clientParams. */
export interface SharePanelPayload {
  serializedSharedEntity: string;
  clientParams: { startTimeSeconds?: number };
}

/** `share/get_web_player_share_panel`: serializedSharedEntity, includeListId. */
export interface WebPlayerSharePanelPayload {
  serializedSharedEntity: string;
  includeListId: boolean;
}

/** `feedback`: feedbackTokens, feedbackContext.cpn, isFeedbackTokenUnencrypted, shouldMerge. */
export interface FeedbackPayload {
  feedbackTokens: string[];
  feedbackContext: { cpn: string };
  isFeedbackTokenUnencrypted: boolean;
  shouldMerge: boolean;
}

/** `notification/modify_channel_preference`: params, secondaryParams. */
export interface ModifyChannelPreferencePayload {
  params: string;
  secondaryParams: string;
}

/** The playlist-editing actions of `browse/edit_playlist`. */
export type EditPlaylistAction = { action: 'ACTION_ADD_VIDEO'; addedVideoId: string } | { action: 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID'; removedVideoId: string };

/** `browse/edit_playlist`: actions, params, playlistId. */
export interface EditPlaylistPayload {
  actions: EditPlaylistAction[];
  params: string;
  playlistId: string;
}

/** The viewer's watch-later playlist id. */
export const WATCH_LATER_PLAYLIST_ID = 'WL';

/** The silo every subscribe of the embed names. */
export const EMBED_SUBSCRIBE_SILO = 'embed';

/** The notification-bell levels of a subscribed channel. */
export const NOTIFICATION_LEVELS = ['all', 'personalized', 'none'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** What a share panel is about: a video, optionally in a playlist. */
export interface SharedEntity {
  videoId: string;
  playlistId?: string;
}

/** The `params` of a subscribe or unsubscribe: where in the product it happened. */
export interface SubscribeParams {
  source: string;
  videoId?: string;
}

/** The `params` of `notification/modify_channel_preference`: the channel and the bell level. */
export interface ChannelPreferenceParams {
  channelId: string;
  level: NotificationLevel;
}

/** The `secondaryParams` of `notification/modify_channel_preference`: where it was changed. */
export interface ChannelPreferenceSecondaryParams {
  source: string;
}

/** The `params` of `browse/edit_playlist`: where it was edited. */
export interface EditPlaylistParams {
  source: string;
  videoId?: string;
}

/** base64url JSON of a value (the opaque strings of the calls). */
export const encodeOpaque = (value: unknown): string => encodeBase64Url(JSON.stringify(value));

/** The JSON object a base64url opaque string holds, or undefined when it holds none. */
export function decodeOpaque(encoded: unknown): Record<string, unknown> | undefined {
  if (typeof encoded !== 'string' || encoded.length === 0 || encoded.length > 4096) return undefined;
  const text = decodeBase64Url(encoded);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const encodeSharedEntity = (entity: SharedEntity): string => encodeOpaque(entity);
export const encodeSubscribeParams = (params: SubscribeParams): string => encodeOpaque(params);
export const encodeChannelPreferenceParams = (params: ChannelPreferenceParams): string => encodeOpaque(params);
export const encodeChannelPreferenceSecondaryParams = (params: ChannelPreferenceSecondaryParams): string => encodeOpaque(params);
export const encodeEditPlaylistParams = (params: EditPlaylistParams): string => encodeOpaque(params);

/**
 * The viewer-specific state of a video, answered by `POST /youtubei/v1/next {videoId}` (the embed asks it after load
 * and after sign-in or sign-out): its channel, whether the viewer is subscribed and the bell level, whether it is in
 * the viewer's watch later, and the feedback tokens for "not interested" and the report reasons. `subscribed`,
 * `notificationLevel` and `inWatchLater` are absent for an anonymous viewer.
 */
export interface VideoViewerState {
  videoId: string;
  channel: { channelId: string; title: string; subscribed?: boolean; notificationLevel?: NotificationLevel };
  inWatchLater?: boolean;
  feedback: { notInterested: string; report: { reason: string; label: string; token: string }[] };
}

/** The answer of the two share calls: root-relative links (the page makes them absolute with its own origin). */
export interface SharePanel {
  title: string;
  videoUrl: string;
  /** Present when `clientParams.startTimeSeconds` was given and is more than 0. */
  videoUrlAtTime?: string;
  /** Present when the shared entity names a playlist (and, for the web-player panel, `includeListId` is true). */
  playlistUrl?: string;
  embedUrl: string;
}

/** The answer of `subscription/subscribe` and `subscription/unsubscribe`: the channel's state for this viewer now. */
export interface SubscriptionAnswer {
  channelId: string;
  subscribed: boolean;
  /** The bell level while subscribed (a new subscription starts at `personalized`). */
  notificationLevel?: NotificationLevel;
}

/** The answer of `notification/modify_channel_preference`. */
export interface ChannelPreferenceAnswer {
  channelId: string;
  notificationLevel: NotificationLevel;
}

/** The answer of `browse/edit_playlist`: the playlist's video ids after the actions, in order. */
export interface EditPlaylistAnswer {
  playlistId: string;
  videoIds: string[];
}

/** The answer of `feedback`: how many tokens were recorded (a repeated token with `shouldMerge` is merged, not doubled). */
export interface FeedbackAnswer {
  feedbackResponses: { token: string; isProcessed: boolean }[];
}
