import { catchError, defer, map, type Observable, of } from 'rxjs';
import { ApiFetchError, JsonParseError, RequestError, type RequestErrorCode, UNKNOWN_REQUEST_ERROR_MESSAGE } from '../transport/apiErrors';
import type { ApiResponse } from '../transport/parseApiResponse';
import { unwrapErrorDetails } from '../transport/unwrapErrorDetails';
import {
  type ChannelPreferenceAnswer,
  EMBED_SUBSCRIBE_SILO,
  type EditPlaylistAction,
  type EditPlaylistAnswer,
  type EditPlaylistPayload,
  encodeChannelPreferenceParams,
  encodeChannelPreferenceSecondaryParams,
  encodeEditPlaylistParams,
  encodeSharedEntity,
  encodeSubscribeParams,
  type FeedbackAnswer,
  type FeedbackPayload,
  type ModifyChannelPreferencePayload,
  type NotificationLevel,
  PLATFORM_ENDPOINTS,
  type SharePanel,
  type SharePanelPayload,
  type SubscribePayload,
  type SubscriptionAnswer,
  type UnsubscribePayload,
  type VideoViewerState,
  WATCH_LATER_PLAYLIST_ID,
  type WebPlayerSharePanelPayload,
} from './payloads';

/** The endpoint the viewer state of a video is asked on (`next {videoId}`). */
export const VIDEO_VIEWER_STATE_ENDPOINT = 'next';

/**
 * The spec's "body with the status attached" (§7): the failed answer's JSON object with `errorMetadata.status` added;
 * an answer that was not a JSON object (a proxy's text page, an empty body) keeps its text under `text`.
 */
export type AnswerWithStatus = Record<string, unknown> & { errorMetadata: { status: number } };

/** A call that got its answer. `status` is the HTTP status (an unwrapped error answer keeps its error status). */
export interface PlatformSuccess<T> {
  ok: true;
  status: number;
  body: T;
}

/** The server answered outside 200–206/304 (spec §8): logged as `Error: API fetch failed` (`String(ApiFetchError)`). */
export interface PlatformHttpFailure {
  ok: false;
  kind: 'http';
  status: number;
  /** `Error: API fetch failed`, verbatim (spec §8). */
  message: string;
  body: AnswerWithStatus;
}

/**
 * No usable HTTP answer: a timeout (`net.timeout`), a network failure or an extension blocking the request
 * (`net.unknown`), or a success whose body was not the JSON expected (`json`). `message` is the spec §8 text.
 */
export interface PlatformRequestFailure {
  ok: false;
  kind: 'request';
  code: RequestErrorCode | 'json';
  message: string;
  /** The HTTP status when there was an answer (a success whose JSON did not parse). */
  status?: number;
}

/** What every platform call resolves with: never an error, so a UI switches on `ok` (then `kind`). */
export type PlatformResult<T> = PlatformSuccess<T> | PlatformHttpFailure | PlatformRequestFailure;
export type PlatformFailure = PlatformHttpFailure | PlatformRequestFailure;

/** The page's one API client's call (`EmbedApi.fetchApi`): one answer then complete, or a transport error. */
export type FetchApi = (endpoint: string, payload: Record<string, unknown>) => Observable<ApiResponse>;

/**
 * Reports one failed call: `message` is the spec §8 line (`Error: API fetch failed` for an HTTP failure); `error` is
 * what the transport raised, for a reporter that keeps stacks and causes.
 */
export type PlatformCallLog = (message: string, details: { endpoint: string; status?: number; error: unknown }) => void;

export interface PlatformCallsOptions {
  fetchApi: FetchApi;
  log: PlatformCallLog;
}

/** Who a subscribe or unsubscribe is about: one channel or several. */
export type ChannelTarget = { channelId: string; channelIds?: never } | { channelIds: string[]; channelId?: never };

export type SubscribeInput = ChannelTarget & {
  /** Where in the player it was pressed (goes into the opaque `params`). */
  source: string;
  /** The video being watched, when there is one. */
  videoId?: string;
  /** The attestation program's response token; the server refuses a subscribe without a valid one. */
  botguardResponse?: string;
  clientFeature?: string;
};

export type UnsubscribeInput = ChannelTarget & { source: string; videoId?: string };

export interface SharePanelInput {
  videoId: string;
  playlistId?: string;
  /** Share "at" this time; the server adds `videoUrlAtTime` when it is more than 0. */
  startTimeSeconds?: number;
}

export interface WebPlayerSharePanelInput {
  videoId: string;
  playlistId?: string;
  includeListId: boolean;
}

export interface FeedbackInput {
  /** Feedback tokens as the server handed them out (`VideoViewerState.feedback`). */
  tokens: string[];
  /** The playback session's client nonce. */
  cpn: string;
  shouldMerge?: boolean;
}

export interface ChannelPreferenceInput {
  channelId: string;
  level: NotificationLevel;
  source: string;
}

export interface EditPlaylistInput {
  playlistId: string;
  /** Video ids to add, in order (`ACTION_ADD_VIDEO`), sent before the removals. */
  add?: string | string[];
  /** Video ids to remove (`ACTION_REMOVE_VIDEO_BY_VIDEO_ID`). */
  remove?: string | string[];
  source: string;
  /** The video the edit was made from (the one playing), for the opaque `params`. */
  videoId?: string;
}

/** One typed function per platform call of spec §7; each sends one request per subscription. */
export interface PlatformCalls {
  subscribe(input: SubscribeInput): Observable<PlatformResult<SubscriptionAnswer>>;
  unsubscribe(input: UnsubscribeInput): Observable<PlatformResult<SubscriptionAnswer>>;
  getSharePanel(input: SharePanelInput): Observable<PlatformResult<SharePanel>>;
  getWebPlayerSharePanel(input: WebPlayerSharePanelInput): Observable<PlatformResult<SharePanel>>;
  sendFeedback(input: FeedbackInput): Observable<PlatformResult<FeedbackAnswer>>;
  modifyChannelPreference(input: ChannelPreferenceInput): Observable<PlatformResult<ChannelPreferenceAnswer>>;
  editPlaylist(input: EditPlaylistInput): Observable<PlatformResult<EditPlaylistAnswer>>;
  addToWatchLater(videoId: string, source: string): Observable<PlatformResult<EditPlaylistAnswer>>;
  removeFromWatchLater(videoId: string, source: string): Observable<PlatformResult<EditPlaylistAnswer>>;
  /** `next {videoId}`: the viewer's subscription, bell, watch-later and feedback state of a video. */
  videoViewerState(videoId: string): Observable<PlatformResult<VideoViewerState>>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const listOf = (ids: string | string[] | undefined): string[] => (ids === undefined ? [] : Array.isArray(ids) ? ids : [ids]);

const channelIdsOf = (target: ChannelTarget): string[] => (target.channelIds !== undefined ? [...target.channelIds] : [target.channelId]);

/** The answer body with its status attached (spec §7), whatever the body was. */
export function withStatusAttached(body: unknown, status: number): AnswerWithStatus {
  const errorMetadata = { status };
  if (isPlainObject(body)) return { ...body, errorMetadata };
  if (typeof body === 'string') return { text: body, errorMetadata };
  return body === undefined ? { errorMetadata } : { value: body, errorMetadata };
}

/** A transport error as the failure result a caller receives (never thrown). */
export function failureOf(error: unknown): PlatformFailure {
  if (error instanceof ApiFetchError) {
    return { ok: false, kind: 'http', status: error.status, message: String(error), body: withStatusAttached(error.body, error.status) };
  }
  if (error instanceof JsonParseError) return { ok: false, kind: 'request', code: 'json', status: error.status, message: error.message };
  if (error instanceof RequestError) {
    return { ok: false, kind: 'request', code: error.code, message: error.message, ...(error.status !== undefined && { status: error.status }) };
  }
  // Anything else (a settings source that threw while the request was built) is the spec's "Unknown request error".
  return { ok: false, kind: 'request', code: 'net.unknown', message: UNKNOWN_REQUEST_ERROR_MESSAGE };
}

/**
 * The embed's platform calls of spec §7 over the page's one API client: one typed function per call, each building the
 * exact payload of `payloads.ts` (opaque fields through its encoders) and resolving with a {@link PlatformResult}.
 *
 * The response rules of spec §7/§8, so that no caller ever sees an error:
 * - success (200–206, 304) with a JSON object: `{ ok: true, status, body }`;
 * - an HTTP failure: logged through `log` as `Error: API fetch failed`, and `{ ok: false, kind: 'http', status, body }`
 *   where `body` is the answer with `errorMetadata: { status }` attached — unless the answer's error details hold a
 *   browse or player response (see {@link unwrapErrorDetails}), which is then the answer (`ok: true`, its status);
 * - timeout, network failure, extension blocking, a success that is not JSON: logged with their spec §8 message, and
 *   `{ ok: false, kind: 'request', code, message }`.
 *
 * ```
 * fetchApi:  ---a|        ---#(500)                  ---#(timeout)
 * result:    ---(s|)      ---(f|)  + log(API fetch)  ---(t|) + log(Request timed out)
 * ```
 *
 * Each function returns a cold observable: subscribing sends the request, unsubscribing before the answer aborts it.
 */
export function createPlatformCalls({ fetchApi, log }: PlatformCallsOptions): PlatformCalls {
  const call = <T>(endpoint: string, payload: object): Observable<PlatformResult<T>> =>
    defer(() => fetchApi(endpoint, payload as Record<string, unknown>)).pipe(
      map((response): PlatformResult<T> => {
        if (!isPlainObject(response.body)) throw new JsonParseError(response.status, response.text);
        return { ok: true, status: response.status, body: response.body as T };
      }),
      catchError((error: unknown) => {
        const unwrapped = error instanceof ApiFetchError ? unwrapErrorDetails(error.body) : undefined;
        if (unwrapped !== undefined) return of<PlatformResult<T>>({ ok: true, status: (error as ApiFetchError).status, body: unwrapped as T });
        const failure = failureOf(error);
        // The reporter is the page's: a reporter that throws must not turn a handled failure into an error.
        try {
          log(failure.message, {
            endpoint,
            ...(failure.status !== undefined && { status: failure.status }),
            error,
          });
        } catch {
          // nothing to do: the caller still gets its result
        }
        return of<PlatformResult<T>>(failure);
      }),
    );

  const editPlaylist = ({ playlistId, add, remove, source, videoId }: EditPlaylistInput) => {
    const actions: EditPlaylistAction[] = [
      ...listOf(add).map((addedVideoId): EditPlaylistAction => ({ action: 'ACTION_ADD_VIDEO', addedVideoId })),
      ...listOf(remove).map((removedVideoId): EditPlaylistAction => ({ action: 'ACTION_REMOVE_VIDEO_BY_VIDEO_ID', removedVideoId })),
    ];
    const payload: EditPlaylistPayload = {
      actions,
      params: encodeEditPlaylistParams({ source, ...(videoId !== undefined && { videoId }) }),
      playlistId,
    };
    return call<EditPlaylistAnswer>(PLATFORM_ENDPOINTS.editPlaylist, payload);
  };

  return {
    subscribe: (input) => {
      const { source, videoId, botguardResponse, clientFeature } = input;
      const payload: SubscribePayload = {
        channelIds: channelIdsOf(input),
        siloName: EMBED_SUBSCRIBE_SILO,
        params: encodeSubscribeParams({ source, ...(videoId !== undefined && { videoId }) }),
        ...(botguardResponse !== undefined && { botguardResponse }),
        ...(clientFeature !== undefined && { clientFeature }),
      };
      return call<SubscriptionAnswer>(PLATFORM_ENDPOINTS.subscribe, payload);
    },
    unsubscribe: (input) => {
      const { source, videoId } = input;
      const payload: UnsubscribePayload = {
        channelIds: channelIdsOf(input),
        siloName: EMBED_SUBSCRIBE_SILO,
        params: encodeSubscribeParams({ source, ...(videoId !== undefined && { videoId }) }),
      };
      return call<SubscriptionAnswer>(PLATFORM_ENDPOINTS.unsubscribe, payload);
    },
    getSharePanel: ({ videoId, playlistId, startTimeSeconds }) => {
      const payload: SharePanelPayload = {
        serializedSharedEntity: encodeSharedEntity({ videoId, ...(playlistId !== undefined && { playlistId }) }),
        clientParams: startTimeSeconds !== undefined ? { startTimeSeconds } : {},
      };
      return call<SharePanel>(PLATFORM_ENDPOINTS.sharePanel, payload);
    },
    getWebPlayerSharePanel: ({ videoId, playlistId, includeListId }) => {
      const payload: WebPlayerSharePanelPayload = {
        serializedSharedEntity: encodeSharedEntity({ videoId, ...(playlistId !== undefined && { playlistId }) }),
        includeListId,
      };
      return call<SharePanel>(PLATFORM_ENDPOINTS.webPlayerSharePanel, payload);
    },
    sendFeedback: ({ tokens, cpn, shouldMerge = false }) => {
      const payload: FeedbackPayload = {
        feedbackTokens: [...tokens],
        feedbackContext: { cpn },
        // The tokens are the server's own opaque (encrypted) ones, handed out with the video's viewer state.
        isFeedbackTokenUnencrypted: false,
        shouldMerge,
      };
      return call<FeedbackAnswer>(PLATFORM_ENDPOINTS.feedback, payload);
    },
    modifyChannelPreference: ({ channelId, level, source }) => {
      const payload: ModifyChannelPreferencePayload = {
        params: encodeChannelPreferenceParams({ channelId, level }),
        secondaryParams: encodeChannelPreferenceSecondaryParams({ source }),
      };
      return call<ChannelPreferenceAnswer>(PLATFORM_ENDPOINTS.modifyChannelPreference, payload);
    },
    editPlaylist,
    addToWatchLater: (videoId, source) => editPlaylist({ playlistId: WATCH_LATER_PLAYLIST_ID, add: videoId, source, videoId }),
    removeFromWatchLater: (videoId, source) => editPlaylist({ playlistId: WATCH_LATER_PLAYLIST_ID, remove: videoId, source, videoId }),
    videoViewerState: (videoId) => call<VideoViewerState>(VIDEO_VIEWER_STATE_ENDPOINT, { videoId }),
  };
}
