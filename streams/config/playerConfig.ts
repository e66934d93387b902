/**
 * The player configuration of spec §3, and the pure rules that build and read it.
 *
 * The reference server builds it from the embed URL (`/embed/{videoId}?…playerVars`) and inlines it into the page,
 * so the player starts without another round trip; the embed page reads it back with {@link readPlayerConfig}.
 * Everything here is pure: no `window`, no `document`, so the server and the page share one set of rules.
 */

import { STREAM_TOKEN_MAX_CHARS, TEXT_INPUT_MAX_CHARS } from '../timing';
import { isAttestationProgramUrl } from '../attestation/attestationStates';
import type { HeartbeatParams } from './heartbeatTypes';
import { readPlayerResponse } from './readPlayerResponse';
import type { StreamingData, Storyboard } from './streamingData';

/** The player variables the embed recognises (host-protocol §2 plus the spec's theme and forced experiments). */
export const KNOWN_PLAYER_VARS = [
  'enablejsapi',
  'origin',
  'widgetid',
  'autoplay',
  'mute',
  'controls',
  'playsinline',
  'start',
  'end',
  'loop',
  'playlist',
  'list',
  'listType',
  'index',
  'rel',
  'hl',
  'cc_load_policy',
  'cc_lang_pref',
  'iv_load_policy',
  'fs',
  'disablekb',
  'color',
  'widget_referrer',
  'embed_config',
  'theme',
  'forced_experiments',
  'ps',
  // The host's consent for the anonymous id (spec §5), and its permission to ask for the viewer's location.
  'consent',
  'geolocation',
] as const;
export type PlayerVarName = (typeof KNOWN_PLAYER_VARS)[number];

/** Player style value that makes the page background transparent (spec §2). */
export const PLAYER_STYLE_TRANSPARENT = 'gvn';

export type Theme = 'dark' | 'light';

export type { AdaptiveFormat, StreamFormat, StreamingData, Storyboard } from './streamingData';

/** A named section of the video: its title and where it starts, in milliseconds (`streams/player/chapters.ts`). */
export type ChapterInfo = { title: string; timeRangeStartMillis: number };

export interface CaptionTrackInfo {
  languageCode: string;
  languageName: string;
  url: string;
}

/**
 * What the player knows about the video before it loads any media: whether it can play here and, if so, its
 * details, formats and caption tracks. `errorCode` holds the internal error name of spec §8 (`api.invalidparam`, …);
 * `LOGIN_REQUIRED` (for signed-in viewers only) carries none: it is `auth` (`internalErrorForPlayability`).
 */
export interface PlayerResponse {
  playabilityStatus: { status: 'OK' | 'ERROR' | 'UNPLAYABLE' | 'LOGIN_REQUIRED'; reason?: string; errorCode?: string };
  /** Details only: the page, served before the viewer is known, cannot answer for this video; the player endpoint does. */
  viewerDependent?: true;
  /** The server must keep permitting playback: the player's heartbeat runs while it plays (`playerHeartbeat.ts`). */
  heartbeatParams?: HeartbeatParams;
  videoDetails?: {
    videoId: string;
    title: string;
    author: string;
    /**
     * The author's channel (`UC` + 22 characters), what the subscribe button subscribes to. The reference server always
     * sends it; optional so that a player response without one (another server, a test fixture) still plays.
     */
    channelId?: string;
    lengthSeconds: number;
    thumbnailUrl?: string;
  };
  streamingData?: StreamingData;
  /** Seek-preview thumbnails, when the video has them. */
  storyboard?: Storyboard;
  captions?: { tracks: CaptionTrackInfo[] };
  /** The video's chapters, when it has them, as YouTube's `chapterRenderer`: a title, its start in ms; first at 0, in order. */
  chapters?: ChapterInfo[];
  /**
   * The ping beacons of spec §7: root-relative URLs (the page may sit behind a proxy under another host name) that
   * already name the video (`docid`) and this response (`ei`); the embed appends the playback's own parameters.
   */
  playbackTracking?: PlaybackTracking;
}

/** Spec §7 ping beacons: where the embed reports that playback started and what was watched. */
export interface PlaybackTracking {
  videostatsPlaybackUrl: { baseUrl: string };
  videostatsWatchtimeUrl: { baseUrl: string };
}

/** Spec §3 "Player configuration". */
export interface PlayerConfig {
  args: {
    /** The requested video id, as the URL gave it (it may be malformed: the player then reports the error). */
    video_id: string;
    /** Raw player variables from the query string: only the recognised ones, as strings. */
    playerVars: Partial<Record<PlayerVarName, string>>;
    /** `'1'` or `'0'` (defaults to `'0'` when the URL has no autoplay variable, as the public embed does). */
    autoplay: string;
    /** The flags string: `name=value` pairs joined by `&`, from the forced-experiments parameter. */
    fflags: string;
    /** The loader URL: the referrer when the page is framed (set on the page, see {@link withLoaderUrl}). */
    loaderUrl?: string;
    /** The player-style value (`ps`); `gvn` makes the background transparent. */
    ps?: string;
    theme: Theme;
    player_response: PlayerResponse;
    /**
     * Host origins (exact `scheme://host:port`) that get the privileged host methods (spec §5–§6). Filled by the
     * server from its configuration; absent or empty means every host gets only the public set.
     */
    trustedOrigins?: string[];
    /**
     * The server-signed stream token, opaque to the client: every log request carries it as the
     * `X-VidFrame-Stream-Token` header, so the collector scopes de-duplication to a stream it issued. Absent when the
     * server runs without one; a value that fails {@link isValidStreamToken} is dropped.
     */
    stream_token?: string;
    /** The visitor id the server hands out (spec §6/§7); the client keeps the one it already has, if any. */
    visitor_data?: string;
    /** The anti-forgery token every API POST carries in its `session_token` field (spec §7). */
    xsrf_token?: string;
    /** The API key (spec §7: a query parameter only under the kill switch, or for logging without a bearer header). */
    innertube_api_key?: string;
    /** The ads host's anonymous-id URL (spec §7 "GET anonymous id from an ads host"); absolute: it is another origin. */
    anonymous_id_url?: string;
    /**
     * The ads host's ad-status script (spec §4/§7 "An ad-status script is loaded"); absolute, on the same ads origin as
     * {@link anonymous_id_url}.
     */
    ad_status_url?: string;
    /** The attestation program's script (spec §4/§8), root-relative: served by the page's own origin. */
    attestation_program_url?: string;
    /**
     * `private` when the page was served under the privacy-enhanced host name, `education` for the education embed;
     * in both the anonymous id is never fetched (spec §5). Absent means a standard embed.
     */
    embed_mode?: EmbedMode;
  };
  attrs: { width: string; height: string; id: string };
  assets: { js: string; css: string };
  loaded: boolean;
}

/** The embed's mode (spec §5): standard, privacy-enhanced (`private`) or education. */
export type EmbedMode = 'standard' | 'private' | 'education';

/** The identity facts the server writes into a configuration. */
export interface ConfigIdentity {
  visitorData?: string;
  antiForgeryToken?: string;
  apiKey?: string;
  anonymousIdUrl?: string;
  adStatusUrl?: string;
  attestationProgramUrl?: string;
  embedMode?: EmbedMode;
}

/** An absolute http(s) URL, or undefined. */
const httpUrl = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};
const embedModeOf = (value: unknown): EmbedMode | undefined => (value === 'private' || value === 'education' || value === 'standard' ? value : undefined);

/** The identity args of a configuration, each kept only when well-formed (tokens as {@link isValidStreamToken}). */
function identityArgs(identity: ConfigIdentity): Partial<PlayerConfig['args']> {
  const args: Partial<PlayerConfig['args']> = {};
  if (isValidStreamToken(identity.visitorData)) args.visitor_data = identity.visitorData;
  if (isValidStreamToken(identity.antiForgeryToken)) args.xsrf_token = identity.antiForgeryToken;
  if (isValidStreamToken(identity.apiKey)) args.innertube_api_key = identity.apiKey;
  const url = httpUrl(identity.anonymousIdUrl);
  if (url) args.anonymous_id_url = url;
  const adStatusUrl = httpUrl(identity.adStatusUrl);
  if (adStatusUrl) args.ad_status_url = adStatusUrl;
  if (isAttestationProgramUrl(identity.attestationProgramUrl)) args.attestation_program_url = identity.attestationProgramUrl;
  const mode = embedModeOf(identity.embedMode);
  if (mode) args.embed_mode = mode;
  return args;
}

export const DEFAULT_ATTRS = { width: '100%', height: '100%', id: 'video-player' } as const;

/** Video ids are 11 characters of `[A-Za-z0-9_-]` (host-protocol §2). */
export const isValidVideoId = (id: unknown): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{11}$/.test(id);

/**
 * A stream token is 1 to {@link STREAM_TOKEN_MAX_CHARS} characters of `[A-Za-z0-9._-]` (base64url pieces joined by
 * dots): safe as an HTTP header value and in a `<script>` block, whatever the server signs.
 */
export const isValidStreamToken = (token: unknown, maxChars = STREAM_TOKEN_MAX_CHARS): token is string =>
  typeof token === 'string' && token.length <= maxChars && /^[A-Za-z0-9._-]+$/.test(token);

/** Booleans arrive as `1`/`0` or `true`/`false` (host-protocol §2); anything else is `undefined`. */
export function parseBooleanVar(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return undefined;
}

/** A non-negative number of seconds, or `undefined` for a missing or malformed value (`start=abc`, `start=-3`). */
export function parseSecondsVar(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** `theme=dark|light`; the default, and the answer to anything else, is dark. */
export const parseTheme = (value: string | undefined): Theme => (value?.trim().toLowerCase() === 'light' ? 'light' : 'dark');

/**
 * The forced-experiments parameter as a flags string. It accepts `a=1,b=false`, `a=1&b=false` or bare names
 * (`a` → `a=true`); names must be word characters, values word characters, dots or dashes; malformed parts are dropped.
 */
export function forcedExperimentsToFlags(value: string | undefined): string {
  if (!value) return '';
  const out: string[] = [];
  for (const part of value.split(/[,&;]/)) {
    const [rawName, rawValue, ...rest] = part.split('=');
    const name = rawName?.trim() ?? '';
    const val = rawValue === undefined ? 'true' : rawValue.trim();
    if (rest.length > 0 || !/^\w{1,100}$/.test(name) || !/^[\w.-]{1,100}$/.test(val)) continue;
    out.push(`${name}=${val}`);
  }
  return out.join('&');
}

/** The flags string parsed back into a record (`a=1&b=false` → `{a: '1', b: 'false'}`). Malformed parts are dropped. */
export function parseFlags(flags: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of flags.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** Spec §4: the video is cued when autoplay is 0 or false, otherwise loaded and played. */
export const shouldAutoplay = (autoplay: string | undefined): boolean => {
  const v = (autoplay ?? '0').trim().toLowerCase();
  return !(v === '0' || v === 'false');
};

/**
 * Picks the recognised player variables out of a query string (first value wins; unknown keys are ignored, as
 * real embeds carry `si`, `feature` and others). Values longer than {@link TEXT_INPUT_MAX_CHARS} are dropped.
 */
export function pickPlayerVars(query: URLSearchParams | Record<string, unknown>): Partial<Record<PlayerVarName, string>> {
  const get = (k: string): unknown => (query instanceof URLSearchParams ? (query.get(k) ?? undefined) : query[k]);
  const vars: Partial<Record<PlayerVarName, string>> = {};
  for (const name of KNOWN_PLAYER_VARS) {
    let v = get(name);
    if (Array.isArray(v)) v = v[0];
    if (typeof v === 'string' && v.length <= TEXT_INPUT_MAX_CHARS) vars[name] = v;
  }
  return vars;
}

export interface BuildPlayerConfigInput {
  videoId: string;
  query: URLSearchParams | Record<string, unknown>;
  playerResponse: PlayerResponse;
  assets: { js: string; css: string };
  /** Host origins trusted with the privileged host methods (from the server's configuration). */
  trustedOrigins?: readonly string[];
  /** The server-signed stream token, copied into `args.stream_token` when {@link isValidStreamToken}. */
  streamToken?: string;
  /** Visitor id, anti-forgery token, API key, anonymous-id URL and embed mode. */
  identity?: ConfigIdentity;
}

/** Spec §3: the configuration the server inlines into `/embed/{videoId}`. */
export function buildPlayerConfig({
  videoId,
  query,
  playerResponse,
  assets,
  trustedOrigins,
  streamToken,
  identity = {},
}: BuildPlayerConfigInput): PlayerConfig {
  const playerVars = pickPlayerVars(query);
  const autoplayFlag = parseBooleanVar(playerVars.autoplay);
  return {
    args: {
      video_id: videoId,
      playerVars,
      // A malformed autoplay value (`autoplay=yes`) is neither 0 nor false: spec §4 then loads and plays.
      autoplay: playerVars.autoplay === undefined ? '0' : autoplayFlag === undefined ? playerVars.autoplay : autoplayFlag ? '1' : '0',
      fflags: forcedExperimentsToFlags(playerVars.forced_experiments),
      ps: playerVars.ps,
      theme: parseTheme(playerVars.theme),
      player_response: playerResponse,
      ...(trustedOrigins && trustedOrigins.length > 0 && { trustedOrigins: [...trustedOrigins] }),
      ...(isValidStreamToken(streamToken) && { stream_token: streamToken }),
      ...identityArgs(identity),
    },
    attrs: { ...DEFAULT_ATTRS },
    assets,
    loaded: true,
  };
}

/** Spec §3: when framed, the loader URL is set from the referrer. Unframed pages keep the configuration as it is. */
export function withLoaderUrl(config: PlayerConfig, { framed, referrer }: { framed: boolean; referrer: string }): PlayerConfig {
  if (!framed || !referrer) return config;
  return { ...config, args: { ...config.args, loaderUrl: referrer } };
}

/** The reasons {@link readPlayerConfig} gives for a configuration it cannot use. */
export class PlayerConfigError extends Error {
  override name = 'PlayerConfigError';
}

/**
 * Reads an inlined configuration (an unknown value from the page) back into a {@link PlayerConfig}, filling the
 * defaults of spec §3 for anything missing and throwing {@link PlayerConfigError} when it is unusable.
 */
export function readPlayerConfig(raw: unknown): PlayerConfig {
  if (!raw || typeof raw !== 'object') throw new PlayerConfigError('The player configuration is missing.');
  const r = raw as Partial<PlayerConfig>;
  const args = r.args;
  if (!args || typeof args !== 'object') throw new PlayerConfigError('The player configuration has no args.');
  if (typeof args.video_id !== 'string') throw new PlayerConfigError('The player configuration names no video.');
  // The inlined answer is checked as the player endpoint's answers are: one rule for both.
  const pr = readPlayerResponse(args.player_response);
  if (!pr) throw new PlayerConfigError('The player configuration has no player response.');
  const str = (v: unknown, d: string) => (typeof v === 'string' && v !== '' ? v : d);
  return {
    args: {
      video_id: args.video_id,
      playerVars: args.playerVars && typeof args.playerVars === 'object' ? args.playerVars : {},
      autoplay: str(args.autoplay, '0'),
      fflags: str(args.fflags, ''),
      loaderUrl: typeof args.loaderUrl === 'string' ? args.loaderUrl : undefined,
      ps: typeof args.ps === 'string' ? args.ps : undefined,
      theme: parseTheme(args.theme),
      player_response: pr,
      ...(Array.isArray(args.trustedOrigins) && {
        trustedOrigins: (args.trustedOrigins as unknown[]).filter((o): o is string => typeof o === 'string'),
      }),
      ...(isValidStreamToken(args.stream_token) && { stream_token: args.stream_token }),
      ...identityArgs({
        visitorData: args.visitor_data,
        antiForgeryToken: args.xsrf_token,
        apiKey: args.innertube_api_key,
        anonymousIdUrl: args.anonymous_id_url,
        adStatusUrl: args.ad_status_url,
        attestationProgramUrl: args.attestation_program_url,
        embedMode: args.embed_mode,
      }),
    },
    attrs: {
      width: str(r.attrs?.width, DEFAULT_ATTRS.width),
      height: str(r.attrs?.height, DEFAULT_ATTRS.height),
      id: str(r.attrs?.id, DEFAULT_ATTRS.id),
    },
    assets: { js: str(r.assets?.js, ''), css: str(r.assets?.css, '') },
    loaded: r.loaded === true,
  };
}

/**
 * Serialises a configuration for a `<script>` block: JSON with `<`, `>`, `&` and the two JavaScript line
 * separators escaped, so no value (a title, a query parameter) can close the script or inject markup.
 */
export function serializeConfigForScript(config: unknown): string {
  return JSON.stringify(config)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
