import type { ClientContext } from './buildClientContext';
import { VIDFRAME_CLIENT_VERSION, WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID } from './clientIdentity';
import { LOG_ENDPOINTS, STREAM_TOKEN_HEADER } from './logEndpoints';
import { CREDENTIAL_TRANSFER_TOKENS_FIELD, type CredentialTransferToken, isCredentialTransferTokens } from './credentialTransferTokens';
import { flat, stringifyLogEvents, stringifyLogRequest } from './stringifyLogEvents';
import { clientContextAdSignals, clientContextText } from './sealClientContext';
import { numberText } from '../shared/numberText';

/**
 * One API request, exactly as the retry queue stores it (spec §3 "Queued log request": url, options): a root-relative
 * URL and fetch options with the **uncompressed** JSON body. Compression is decided at send time, never stored.
 */
export interface ApiRequest {
  url: string;
  options: { method: 'POST'; headers: Record<string, string>; body: string };
}

/** Everything besides the payload that goes into a request (read fresh for each request). */
export interface ApiRequestSettings {
  context: ClientContext;
  /** `/youtubei/{apiVersion}/…`; `v1` by default. */
  apiVersion?: string;
  /** Visitor id (`X-Goog-Visitor-Id`); defaults to `context.client.visitorData`. */
  visitorId?: string;
  /** An OAuth token (`Bearer` is prepended when it carries no scheme) or a full authorization header value. */
  authorization?: string;
  /** Sent only as `X-Youtube-Bootstrap-Logged-In` (spec §6), never in the body. */
  loggedIn?: boolean;
  /** The API key; put in the query only under {@link keyParamKillSwitch} or for logging without a bearer header. */
  apiKey?: string;
  /** The kill switch of spec §7 that forces the key into the query string. */
  keyParamKillSwitch?: boolean;
  /** The anti-forgery token (spec §7 "POSTs carry an anti-forgery token field"). */
  xsrfToken?: string;
  /** The body field that carries {@link xsrfToken}; `session_token` by default. */
  xsrfFieldName?: string;
  clientNameId?: number;
  clientVersion?: string;
  /**
   * The server-signed stream token of the player configuration (`args.stream_token`). Log requests carry it
   * as {@link STREAM_TOKEN_HEADER}; other calls never do. It is part of the stored request, so a resend from the retry
   * queue (up to 30 days later) carries the token it was built with.
   */
  streamToken?: string;
  /**
   * Spec §7 "optionally credentialTransferTokens": when the page has them, every log request body carries them (other
   * calls never do). A value that is not an array of at most 10 objects of strings is left out, so a bad source can
   * never get the page's log requests refused; an empty one is left out too.
   */
  credentialTransferTokens?: CredentialTransferToken[];
}

export { LOG_ENDPOINTS, type LogEndpoint, STREAM_TOKEN_HEADER, isLogRequestUrl } from './logEndpoints';

const ENDPOINT = /^[a-z0-9_]+(\/[a-z0-9_]+)*$/i;

/**
 * Builds the request of spec §7 for `endpoint` (`log_event`, `share/get_share_panel`, …): POST to the root-relative
 * `/youtubei/v1/{endpoint}` (never a host-built URL, so it works behind any proxy), body `{context, …payload}` plus the
 * anti-forgery field, and the headers content-type JSON, visitor id, authorization, logged-in flag, client name and
 * version, UTC offset, time zone and ad signals, plus the stream token (header) and the credential transfer tokens (body)
 * on log requests when the settings have them. `Content-Encoding` is added by
 * the transport when it compresses.
 *
 * @throws TypeError for an endpoint that is not a plain path (no host, no `..`, no query).
 */
export function buildApiRequest(endpoint: string, payload: Record<string, unknown>, settings: ApiRequestSettings): ApiRequest {
  if (!ENDPOINT.test(endpoint)) throw new TypeError(`Invalid API endpoint "${endpoint}"`);
  const {
    context,
    apiVersion = 'v1',
    authorization,
    loggedIn,
    apiKey,
    keyParamKillSwitch = false,
    xsrfToken,
    xsrfFieldName = 'session_token',
    clientNameId = WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID,
    clientVersion = context.client.clientVersion ?? VIDFRAME_CLIENT_VERSION,
    streamToken,
    credentialTransferTokens,
  } = settings;
  const visitorId = settings.visitorId ?? context.client.visitorData;
  const isLog = (LOG_ENDPOINTS as readonly string[]).includes(endpoint);

  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Youtube-Client-Name': numberText(clientNameId),
    'X-Youtube-Client-Version': clientVersion,
  };
  if (visitorId) headers['X-Goog-Visitor-Id'] = visitorId;
  if (authorization) headers.Authorization = /\s/.test(authorization.trim()) ? authorization.trim() : `Bearer ${authorization.trim()}`;
  if (loggedIn !== undefined) headers['X-Youtube-Bootstrap-Logged-In'] = loggedIn ? 'true' : 'false';
  if (context.client.utcOffsetMinutes !== undefined) headers['X-Youtube-Utc-Offset'] = numberText(context.client.utcOffsetMinutes);
  if (context.client.timeZone) headers['X-Youtube-Time-Zone'] = context.client.timeZone;
  if (isLog && streamToken) headers[STREAM_TOKEN_HEADER] = streamToken;
  // Written once per context the page's context cache sealed, else for each request.
  const adSignals = clientContextAdSignals(context);
  if (adSignals !== undefined) headers['X-Youtube-Ad-Signals'] = adSignals;

  // The query holds at most the key: no `URLSearchParams` (a measurable cost per log request) when it has none.
  const search = apiKey && (keyParamKillSwitch || (isLog && !authorization)) ? keyQuery(apiKey) : '';
  const url = `/youtubei/${encodeURIComponent(apiVersion)}/${endpoint}${search ? `?${search}` : ''}`;

  // The body is `{ context, ...payload }` (without a `context` of the payload) plus the fields below. It is written as
  // the context's text and the text of the rest: a context the page's cache sealed is written once, not per request.
  const rest: Record<string, unknown> = {};
  let indexKeys = false;
  for (const key in payload) {
    if (key !== 'context' && Object.hasOwn(payload, key)) {
      rest[key] = payload[key];
      if (!indexKeys && isIndexKey(key)) indexKeys = true;
    }
  }
  if (isLog && credentialTransferTokens !== undefined && credentialTransferTokens.length > 0 && isCredentialTransferTokens(credentialTransferTokens)) {
    rest[CREDENTIAL_TRANSFER_TOKENS_FIELD] = credentialTransferTokens;
  }
  let body: string;
  if (indexKeys || isIndexKey(xsrfFieldName) || xsrfFieldName === 'context' || Object.hasOwn(rest, 'toJSON') || 'toJSON' in context) {
    // The bodies whose text is not the context's followed by the rest's (an integer key goes before `context`, an
    // anti-forgery field named `context` replaces it, a `toJSON` writes something else): one object, written natively.
    const whole: Record<string, unknown> = Object.assign({ context }, rest);
    if (xsrfToken) whole[xsrfFieldName] = xsrfToken;
    body = JSON.stringify(whole);
  } else {
    if (xsrfToken) rest[xsrfFieldName] = xsrfToken;
    const contextText = clientContextText(context);
    body = isLog ? stringifyLogBody(contextText, rest) : withContext(contextText, JSON.stringify(rest));
  }
  return { url, options: { method: 'POST', headers, body } };
}

/** An array index (`"0"` … `"4294967294"`), which objects list before every other key. */
function isIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57 && numberText(Number(key) >>> 0) === key && key !== '4294967295';
}

let lastApiKey: string | undefined;
let lastKeyQuery = '';
/** `key={apiKey}` as `URLSearchParams` writes it, for the last key (the page has one). */
function keyQuery(apiKey: string): string {
  if (apiKey !== lastApiKey) {
    lastKeyQuery = new URLSearchParams({ key: apiKey }).toString();
    lastApiKey = apiKey;
  }
  return lastKeyQuery;
}

/** `JSON.stringify({ context, ...rest })` from the context's text and the rest's (`{…}`). */
const withContext = (contextText: string, restText: string): string =>
  restText === '{}' ? `{"context":${contextText}}` : `{"context":${contextText},${restText.slice(1)}`;

let markCount = 0;

/**
 * `JSON.stringify({ context, ...rest })` of a log request, the same string: its `events` written by
 * {@link stringifyLogEvents} (Node's `JSON.stringify` is most of the log sink's time), the context as its text,
 * the rest by {@link stringifyLogRequest} when its members are flat (the usual body), else natively with a mark where
 * the events go — a string no payload holds (NUL, a counter), checked to occur once — and the whole body made one flat
 * string.
 */
function stringifyLogBody(contextText: string, rest: Record<string, unknown>): string {
  if (!Object.hasOwn(rest, 'events')) return flat(withContext(contextText, JSON.stringify(rest)));
  // The usual body (events, request time, serialized id, anti-forgery token): no JSON.stringify at all.
  const written = stringifyLogRequest(contextText, rest);
  if (written !== undefined) return written;
  const events = rest.events;
  const mark = `\u0000vidframe-events-${numberText(++markCount)}\u0000`;
  rest.events = mark;
  const restText = JSON.stringify(rest);
  rest.events = events;
  const marked = `"events":${JSON.stringify(mark)}`;
  const at = restText.indexOf(marked);
  const native = () => flat(withContext(contextText, JSON.stringify(rest)));
  if (at < 0 || restText.indexOf(marked, at + 1) >= 0) return native();
  // `restText` starts with `{`: the context goes first, then what came before the events in the rest.
  return stringifyLogEvents(events, `{"context":${contextText},${restText.slice(1, at)}"events":`, restText.slice(at + marked.length)) ?? native();
}
