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

/**
 * A plain snapshot of the browser for `buildClientContext`. It is the only code of the transport that looks at a
 * window, and it takes that window as a parameter, so it runs under jsdom and Node with a fake.
 * Every read is guarded: a throwing getter (a sandboxed frame) leaves its field out.
 */
export function readClientEnvironment(win: EnvironmentWindow, page: ClientEnvironment['page'] = {}): ClientEnvironment {
  const safe = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  const nav = win.navigator;
  const connection = safe(() => nav?.connection);
  const hints = safe(() => nav?.userAgentData) as UserAgentDataSnapshot | undefined;
  return {
    navigator: {
      userAgent: safe(() => nav?.userAgent),
      language: safe(() => nav?.language),
      connection: connection ? { type: connection.type, effectiveType: connection.effectiveType } : undefined,
      userAgentData: hints ?? undefined,
    },
    screen: safe(() =>
      win.screen
        ? {
            width: win.screen.width,
            height: win.screen.height,
            availWidth: win.screen.availWidth,
            availHeight: win.screen.availHeight,
            colorDepth: win.screen.colorDepth,
          }
        : undefined,
    ),
    innerWidth: safe(() => win.innerWidth),
    innerHeight: safe(() => win.innerHeight),
    devicePixelRatio: safe(() => win.devicePixelRatio),
    matchMedia: typeof win.matchMedia === 'function' ? (query) => win.matchMedia!(query) : undefined,
    timeZone: safe(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    utcOffsetMinutes: safe(() => -new Date().getTimezoneOffset()),
    historyLength: safe(() => win.history?.length),
    framed: safe(() => win.top !== win.self),
    visible: safe(() => (win.document?.visibilityState ? win.document.visibilityState === 'visible' : undefined)),
    pageLoadTimeMs: safe(() => (win.performance?.timeOrigin ? Math.round(win.performance.timeOrigin) : undefined)),
    page,
  };
}
