import { VIDFRAME_CLIENT_VERSION, WEB_EMBEDDED_PLAYER_CLIENT_NAME } from './clientIdentity';
import { numberText } from '../shared/numberText';

/** Web display modes of spec §3, as innertube names them. */
export type WebDisplayMode =
  'WEB_DISPLAY_MODE_STANDALONE' | 'WEB_DISPLAY_MODE_MINIMAL_UI' | 'WEB_DISPLAY_MODE_FULLSCREEN' | 'WEB_DISPLAY_MODE_BROWSER' | 'WEB_DISPLAY_MODE_UNKNOWN';

/** `context.client.connectionType` values. */
export type ConnectionType =
  | 'CONN_WIFI'
  | 'CONN_WIRED'
  | 'CONN_CELLULAR_UNKNOWN'
  | 'CONN_CELLULAR_2G'
  | 'CONN_CELLULAR_3G'
  | 'CONN_CELLULAR_4G'
  | 'CONN_DISCO'
  | 'CONN_NONE'
  | 'CONN_UNKNOWN';

/** `context.client.effectiveConnectionType` values (Network Information API `effectiveType`). */
export type EffectiveConnectionType =
  | 'EFFECTIVE_CONNECTION_TYPE_SLOW_2G'
  | 'EFFECTIVE_CONNECTION_TYPE_2G'
  | 'EFFECTIVE_CONNECTION_TYPE_3G'
  | 'EFFECTIVE_CONNECTION_TYPE_4G'
  | 'EFFECTIVE_CONNECTION_TYPE_UNKNOWN';

export type UserInterfaceTheme = 'USER_INTERFACE_THEME_DARK' | 'USER_INTERFACE_THEME_LIGHT';

/** One consistency token jar (`context.request.consistencyTokenJars[]`). */
export interface ConsistencyTokenJar {
  encryptedTokenJarContents: string;
  expirationSeconds?: string;
}

/** The client context of spec §3, shaped as the public innertube context. Absent facts are left out, never guessed. */
export interface ClientContext {
  client: {
    hl: string;
    gl: string;
    clientName: string;
    clientVersion: string;
    configInfo?: { appInstallData?: string; coldConfigData?: string; coldHashData?: string; hotHashData?: string };
    userAgent?: string;
    visitorData?: string;
    screenDensityFloat?: number;
    screenPixelDensity?: number;
    experimentsToken?: string;
    connectionType?: ConnectionType;
    effectiveConnectionType?: EffectiveConnectionType;
    mainAppWebInfo: { webDisplayMode: WebDisplayMode; graftUrl?: string };
    deviceMake?: string;
    deviceModel?: string;
    browserName?: string;
    browserVersion?: string;
    osName?: string;
    osVersion?: string;
    platform: 'DESKTOP' | 'MOBILE' | 'TABLET';
    screenWidthPoints?: number;
    screenHeightPoints?: number;
    timeZone?: string;
    utcOffsetMinutes?: number;
    userInterfaceTheme?: UserInterfaceTheme;
    locationInfo?: Record<string, unknown>;
  };
  user: { lockedSafetyMode: boolean; delegatedSessionId?: string; onBehalfOfUser?: string };
  request: { useSsl: true; consistencyTokenJars: ConsistencyTokenJar[]; internalExperimentFlags: [] };
  adSignalsInfo?: { params: { key: string; value: string }[] };
}

/** The parts of `navigator.connection` (Network Information API) that are read; absent in many browsers. */
export interface NetworkInformationSnapshot {
  type?: string;
  effectiveType?: string;
}

/** The parts of `navigator.userAgentData` (User-Agent Client Hints, low entropy) that are read. */
export interface UserAgentDataSnapshot {
  brands?: readonly { brand: string; version: string }[];
  mobile?: boolean;
  platform?: string;
}

/**
 * A plain snapshot of everything {@link buildClientContext} reads. `readClientEnvironment(window)` makes one from the
 * browser; tests pass a literal. Every field is optional: a missing one is left out of the context.
 */
export interface ClientEnvironment {
  navigator?: {
    userAgent?: string;
    language?: string;
    connection?: NetworkInformationSnapshot;
    userAgentData?: UserAgentDataSnapshot;
  };
  screen?: { width?: number; height?: number; availWidth?: number; availHeight?: number; colorDepth?: number };
  innerWidth?: number;
  innerHeight?: number;
  devicePixelRatio?: number;
  /** `window.matchMedia`, used only for `(display-mode: …)` queries. */
  matchMedia?: (query: string) => { matches: boolean };
  /** `Intl.DateTimeFormat().resolvedOptions().timeZone`. */
  timeZone?: string;
  /** Minutes east of UTC: `-new Date().getTimezoneOffset()`. */
  utcOffsetMinutes?: number;
  historyLength?: number;
  /** True when the page runs inside a frame (the embed normally does). */
  framed?: boolean;
  /** `document.visibilityState === 'visible'`. */
  visible?: boolean;
  /** Page-load time in ms since the epoch (ad-signal `dt`). */
  pageLoadTimeMs?: number;
  /** What the page configuration (server-inlined) says. */
  page?: {
    hl?: string;
    gl?: string;
    visitorData?: string;
    experimentsToken?: string;
    configInfo?: ClientContext['client']['configInfo'];
    /** URL theme parameter (spec §2). */
    theme?: string | null;
    locationInfo?: Record<string, unknown>;
    delegatedSessionId?: string;
    onBehalfOfUser?: string;
    consistencyTokenJars?: ConsistencyTokenJar[];
    clientVersion?: string;
    graftUrl?: string;
  };
}

/** Each display mode's media query, written once (the page asks them for every request). */
const DISPLAY_MODES: readonly [string, WebDisplayMode][] = [
  ['(display-mode: standalone)', 'WEB_DISPLAY_MODE_STANDALONE'],
  ['(display-mode: minimal-ui)', 'WEB_DISPLAY_MODE_MINIMAL_UI'],
  ['(display-mode: fullscreen)', 'WEB_DISPLAY_MODE_FULLSCREEN'],
  ['(display-mode: browser)', 'WEB_DISPLAY_MODE_BROWSER'],
];

const CONNECTION_TYPES: Readonly<Record<string, ConnectionType>> = {
  wifi: 'CONN_WIFI',
  ethernet: 'CONN_WIRED',
  cellular: 'CONN_CELLULAR_UNKNOWN',
  bluetooth: 'CONN_DISCO',
  wimax: 'CONN_CELLULAR_4G',
  none: 'CONN_NONE',
  mixed: 'CONN_UNKNOWN',
  other: 'CONN_UNKNOWN',
  unknown: 'CONN_UNKNOWN',
};

const EFFECTIVE_TYPES: Readonly<Record<string, EffectiveConnectionType>> = {
  'slow-2g': 'EFFECTIVE_CONNECTION_TYPE_SLOW_2G',
  '2g': 'EFFECTIVE_CONNECTION_TYPE_2G',
  '3g': 'EFFECTIVE_CONNECTION_TYPE_3G',
  '4g': 'EFFECTIVE_CONNECTION_TYPE_4G',
};

/** The first display mode whose media query matches; `unknown` without `matchMedia` or when none matches. */
export function webDisplayMode(matchMedia: ClientEnvironment['matchMedia']): WebDisplayMode {
  if (typeof matchMedia !== 'function') return 'WEB_DISPLAY_MODE_UNKNOWN';
  // `mode[0]`, not `for (const [query, name] of …)`: destructuring a pair is iterator calls per pair, in a function that
  // runs with every client context.
  for (const mode of DISPLAY_MODES) {
    try {
      if (matchMedia(mode[0])?.matches) return mode[1];
    } catch {
      return 'WEB_DISPLAY_MODE_UNKNOWN';
    }
  }
  return 'WEB_DISPLAY_MODE_UNKNOWN';
}

interface UaFacts {
  browserName?: string;
  browserVersion?: string;
  osName?: string;
  osVersion?: string;
  deviceMake?: string;
  deviceModel?: string;
  platform: 'DESKTOP' | 'MOBILE' | 'TABLET';
}

/** Browser, OS and device facts from the user-agent string (client hints win where they say more). */
export function parseUserAgent(userAgent = '', hints?: UserAgentDataSnapshot): UaFacts {
  const ua = userAgent;
  const pick = (re: RegExp) => re.exec(ua)?.[1];
  const facts: UaFacts = { platform: 'DESKTOP' };
  const browsers: [string, RegExp][] = [
    ['Edge Chromium', /Edg\/([\d.]+)/],
    ['Opera', /OPR\/([\d.]+)/],
    ['Firefox', /Firefox\/([\d.]+)/],
    ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
    ['Safari', /Version\/([\d.]+).*Safari\//],
  ];
  for (const [name, re] of browsers) {
    const version = pick(re);
    if (version) {
      facts.browserName = name;
      facts.browserVersion = version;
      break;
    }
  }
  const android = pick(/Android ([\d.]+)/);
  const ios = pick(/(?:iPhone|iPad|iPod)[^)]*OS ([\d_]+)/);
  const windows = pick(/Windows NT ([\d.]+)/);
  const mac = pick(/Mac OS X ([\d_.]+)/);
  if (android) {
    facts.osName = 'Android';
    facts.osVersion = android;
    facts.platform = /Mobile/.test(ua) ? 'MOBILE' : 'TABLET';
    const model = pick(/Android [\d.]+; (?:[a-zA-Z-]+; )?([^;)]+?)(?: Build\/[^;)]*)?\)/);
    if (model && model !== 'K') facts.deviceModel = model.trim();
  } else if (ios) {
    facts.osName = /iPad/.test(ua) ? 'iPadOS' : 'iOS';
    facts.osVersion = ios.replace(/_/g, '.');
    facts.deviceMake = 'Apple';
    facts.deviceModel = /iPad/.test(ua) ? 'iPad' : /iPod/.test(ua) ? 'iPod' : 'iPhone';
    facts.platform = /iPad/.test(ua) ? 'TABLET' : 'MOBILE';
  } else if (windows) {
    facts.osName = 'Windows';
    facts.osVersion = windows;
  } else if (mac) {
    facts.osName = 'Macintosh';
    facts.osVersion = mac.replace(/_/g, '.');
    facts.deviceMake = 'Apple';
  } else if (/CrOS/.test(ua)) {
    facts.osName = 'CrOS';
    facts.osVersion = pick(/CrOS \S+ ([\d.]+)/);
  } else if (/Linux/.test(ua)) {
    facts.osName = 'X11';
  }
  if (hints) {
    if (hints.mobile === true) facts.platform = 'MOBILE';
    if (!facts.osName && hints.platform) facts.osName = hints.platform;
  }
  return facts;
}

/**
 * Copies the members of `from` that are defined onto `into`, in order. Its own small function with a plain `for…in`,
 * not `for (const [key, value] of Object.entries(…))` inside the context's builder: that loop would make the engine
 * compile all of the builder to machine code, for a function that runs once per page or so.
 */
function assignDefined(into: object, from: Record<string, unknown>): void {
  for (const key in from) if (from[key] !== undefined) (into as Record<string, unknown>)[key] = from[key];
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const text = (s: unknown): s is string => typeof s === 'string' && s.length > 0;

/** Language (`hl`) and region (`gl`) from a BCP 47 tag such as `en-GB`. */
function localeParts(language: string | undefined): { hl?: string; gl?: string } {
  if (!text(language)) return {};
  const [lang = '', region] = language.split(/[-_]/); // split gives at least one part, so `lang` is always there
  return { hl: lang.toLowerCase(), gl: region && /^[a-zA-Z]{2}$/.test(region) ? region.toUpperCase() : undefined };
}

/** Ad-signal key/value pairs (spec §3 "ad-signal info"), only from facts that are present. */
function adSignals(env: ClientEnvironment): { key: string; value: string }[] {
  const pairs: [string, unknown][] = [
    ['dt', env.pageLoadTimeMs],
    ['flash', 0],
    ['frm', env.framed === undefined ? undefined : env.framed ? 1 : 0],
    ['u_tz', env.utcOffsetMinutes],
    ['u_his', env.historyLength],
    ['u_h', env.screen?.height],
    ['u_w', env.screen?.width],
    ['u_ah', env.screen?.availHeight],
    ['u_aw', env.screen?.availWidth],
    ['u_cd', env.screen?.colorDepth],
    ['bih', env.innerHeight],
    ['biw', env.innerWidth],
    ['vis', env.visible === undefined ? undefined : env.visible ? 1 : 2],
  ];
  const known = pairs.filter((pair): pair is [string, number] => finite(pair[1]));
  // `flash=0` alone says nothing about the page: no facts, no ad-signal info.
  return known.length > 1 ? known.map(([key, value]) => ({ key, value: numberText(value) })) : [];
}

/**
 * The client context of spec §3 from a plain environment snapshot. Pure: same snapshot, same context.
 *
 * - `connectionType` comes from `navigator.connection.type`, `effectiveConnectionType` from its `effectiveType`
 *   (Network Information API; both left out where the API is missing);
 * - the web display mode is the first of standalone, minimal-ui, fullscreen, browser whose `(display-mode: …)` query
 *   matches, `WEB_DISPLAY_MODE_UNKNOWN` otherwise;
 * - `hl`/`gl` come from the page configuration, falling back to `navigator.language`, then `en`/`US`;
 * - the logged-in flag is deliberately absent: it travels only as a header (spec §6).
 */
export function buildClientContext(env: ClientEnvironment = {}): ClientContext {
  const nav = env.navigator ?? {};
  const page = env.page ?? {};
  const locale = localeParts(nav.language);
  const ua = parseUserAgent(nav.userAgent, nav.userAgentData);
  const connection = nav.connection;
  const client: ClientContext['client'] = {
    hl: text(page.hl) ? page.hl : (locale.hl ?? 'en'),
    gl: text(page.gl) ? page.gl : (locale.gl ?? 'US'),
    clientName: WEB_EMBEDDED_PLAYER_CLIENT_NAME,
    clientVersion: text(page.clientVersion) ? page.clientVersion : VIDFRAME_CLIENT_VERSION,
    mainAppWebInfo: { webDisplayMode: webDisplayMode(env.matchMedia) },
    platform: ua.platform,
  };
  const optional: Partial<ClientContext['client']> = {
    configInfo: page.configInfo,
    userAgent: text(nav.userAgent) ? nav.userAgent : undefined,
    visitorData: text(page.visitorData) ? page.visitorData : undefined,
    screenDensityFloat: finite(env.devicePixelRatio) && env.devicePixelRatio > 0 ? env.devicePixelRatio : undefined,
    screenPixelDensity: finite(env.devicePixelRatio) && env.devicePixelRatio > 0 ? Math.max(1, Math.round(env.devicePixelRatio)) : undefined,
    experimentsToken: text(page.experimentsToken) ? page.experimentsToken : undefined,
    connectionType: connection?.type ? (CONNECTION_TYPES[connection.type] ?? 'CONN_UNKNOWN') : undefined,
    effectiveConnectionType: connection?.effectiveType ? (EFFECTIVE_TYPES[connection.effectiveType] ?? 'EFFECTIVE_CONNECTION_TYPE_UNKNOWN') : undefined,
    deviceMake: ua.deviceMake,
    deviceModel: ua.deviceModel,
    browserName: ua.browserName,
    browserVersion: ua.browserVersion,
    osName: ua.osName,
    osVersion: ua.osVersion,
    screenWidthPoints: finite(env.screen?.width) ? env.screen.width : undefined,
    screenHeightPoints: finite(env.screen?.height) ? env.screen.height : undefined,
    timeZone: text(env.timeZone) ? env.timeZone : undefined,
    utcOffsetMinutes: finite(env.utcOffsetMinutes) ? env.utcOffsetMinutes : undefined,
    userInterfaceTheme: page.theme === 'dark' ? 'USER_INTERFACE_THEME_DARK' : page.theme === 'light' ? 'USER_INTERFACE_THEME_LIGHT' : undefined,
    locationInfo: page.locationInfo,
  };
  assignDefined(client, optional);
  if (text(page.graftUrl)) client.mainAppWebInfo.graftUrl = page.graftUrl;

  const user: ClientContext['user'] = { lockedSafetyMode: false };
  if (text(page.delegatedSessionId)) user.delegatedSessionId = page.delegatedSessionId;
  if (text(page.onBehalfOfUser)) user.onBehalfOfUser = page.onBehalfOfUser;

  const jars = Array.isArray(page.consistencyTokenJars) ? page.consistencyTokenJars.filter((jar) => jar && text(jar.encryptedTokenJarContents)) : [];
  const context: ClientContext = {
    client,
    user,
    request: { useSsl: true, consistencyTokenJars: jars, internalExperimentFlags: [] },
  };
  const params = adSignals(env);
  if (params.length > 0) context.adSignalsInfo = { params };
  return context;
}
