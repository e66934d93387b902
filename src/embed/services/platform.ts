import { createPlatformCalls, type PlatformCalls } from '../../../streams/platform/platformCalls';
import type { EmbedApi } from './api';
import type { ErrorReporting } from './errorReporting';

/**
 * Starts the page's platform calls of spec §7 (subscribe, share panels, feedback, bell, watch later, the viewer state
 * of a video) over the page's one API client, so they carry the viewer's identity like every other call. A failed call
 * never throws into the UI (it resolves as a failure result); its spec §8 line (`Error: API fetch failed`, `Request
 * timed out`, …) goes to the console, and to the page's error reporting when there is one, so a broken call on the
 * server side shows up in the collector's error reports and not only in one viewer's console.
 *
 * @param reporting the page's error reporting (absent when it could not start: the console still gets the line).
 */
export function startPlatformCalls(api: EmbedApi, win: Window, reporting?: Pick<ErrorReporting, 'report'>): PlatformCalls {
  // The DOM typings leave `console` off `Window`; the frame's own console is the one its developer tools show.
  const pageConsole = (win as unknown as { console?: Console }).console ?? console;
  return createPlatformCalls({
    fetchApi: api.fetchApi,
    log: (message, { endpoint, status, error }) => {
      pageConsole.warn('[vidframe] platform call failed:', endpoint, status ?? '', message);
      reporting?.report(error, `platform ${endpoint}`);
    },
  });
}
