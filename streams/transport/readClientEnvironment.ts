import type { ClientEnvironment, UserAgentDataSnapshot } from './buildClientContext';

/** The window members {@link readClientEnvironment} reads (a real `Window` fits). */
export interface EnvironmentWindow {
  navigator?: Navigator & { connection?: { type?: string; effectiveType?: string }; userAgentData?: unknown };
  screen?: Screen;
  innerWidth?: number;
  innerHeight?: number;
  devicePixelRatio?: number;
  matchMedia?: (query: string) => { matches: boolean };
  history?: { length: number };
  document?: { visibilityState?: string };
  top?: unknown;
  self?: unknown;
  performance?: { timeOrigin?: number };
}

const safe = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

/** The parts of the environment that stay as they are for the life of a page (user agent, screen, time zone, …). */
type StablePart = Pick<ClientEnvironment, 'screen' | 'devicePixelRatio' | 'matchMedia' | 'timeZone' | 'framed' | 'pageLoadTimeMs'> & {
  navigator: Pick<NonNullable<ClientEnvironment['navigator']>, 'userAgent' | 'language' | 'userAgentData'>;
};

function readStable(win: EnvironmentWindow): StablePart {
  const nav = win.navigator;
  const hints = safe(() => nav?.userAgentData) as UserAgentDataSnapshot | undefined;
  return {
    navigator: {
      userAgent: safe(() => nav?.userAgent),
      language: safe(() => nav?.language),
      userAgentData: hints ?? undefined,
    },
    screen: safe(() => {
      const screen = win.screen;
      return screen
        ? { width: screen.width, height: screen.height, availWidth: screen.availWidth, availHeight: screen.availHeight, colorDepth: screen.colorDepth }
        : undefined;
    }),
    devicePixelRatio: safe(() => win.devicePixelRatio),
    matchMedia: typeof win.matchMedia === 'function' ? (query) => win.matchMedia!(query) : undefined,
    // `Intl.DateTimeFormat` is the costliest read of all (a formatter per call): once per page.
    timeZone: safe(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    framed: safe(() => win.top !== win.self),
    pageLoadTimeMs: safe(() => (win.performance?.timeOrigin ? Math.round(win.performance.timeOrigin) : undefined)),
  };
}

/**
 * The stable part and what is read now. Written member by member: `{ ...stable, navigator: {…}, … }` (a spread, then a
 * member of it redefined) costs V8 far more per call, and more as the page lives; the page reads it for every request.
 */
function withLive(win: EnvironmentWindow, stable: StablePart, page: ClientEnvironment['page']): ClientEnvironment {
  const connection = safe(() => win.navigator?.connection);
  return {
    navigator: {
      userAgent: stable.navigator.userAgent,
      language: stable.navigator.language,
      userAgentData: stable.navigator.userAgentData,
      connection: connection ? { type: connection.type, effectiveType: connection.effectiveType } : undefined,
    },
    screen: stable.screen,
    devicePixelRatio: stable.devicePixelRatio,
    matchMedia: stable.matchMedia,
    timeZone: stable.timeZone,
    framed: stable.framed,
    pageLoadTimeMs: stable.pageLoadTimeMs,
    // These change while the page lives (a resized frame, a hidden tab, a new network, a daylight-saving switch).
    innerWidth: safe(() => win.innerWidth),
    innerHeight: safe(() => win.innerHeight),
    utcOffsetMinutes: safe(() => -new Date().getTimezoneOffset()),
    historyLength: safe(() => win.history?.length),
    visible: safe(() => (win.document?.visibilityState ? win.document.visibilityState === 'visible' : undefined)),
    page,
  };
}

/**
 * A plain snapshot of the browser for `buildClientContext`. It is the only code of the transport that looks at a
 * window, and it takes that window as a parameter, so it runs under jsdom and Node with a fake.
 * Every read is guarded: a throwing getter (a sandboxed frame) leaves its field out.
 * A page that builds many requests uses {@link createClientEnvironmentReader}, which reads the stable part once.
 */
export function readClientEnvironment(win: EnvironmentWindow, page: ClientEnvironment['page'] = {}): ClientEnvironment {
  return withLive(win, readStable(win), page);
}

/**
 * The page's environment reader: what cannot change during a page's life (user agent, client hints, screen, pixel
 * ratio, time zone, framing, load time) is read once, on the first request; what can (frame size, visibility,
 * history length, connection, UTC offset) is read on every request.
 */
export function createClientEnvironmentReader(win: EnvironmentWindow): (page?: ClientEnvironment['page']) => ClientEnvironment {
  let stable: StablePart | undefined;
  return (page = {}) => withLive(win, (stable ??= readStable(win)), page);
}
