import { renderEarlyResponderScript, type EarlyHandshake, type EarlyWindow } from '../../../streams/host/earlyHandshake';

/** The inline responder's world in tests: the embed's window, a host window, the script run from its text alone. */

export const HOST = 'https://host.example:8443';
export const EMBED = 'https://embed.example';

/** A window for the responder: a parent that records its posts, and the `message` listeners it adds. */
export function fakeWindow({ framed = true } = {}) {
  const parentPosts: { message: unknown; target: string }[] = [];
  const listeners = new Set<(event: { data: unknown; origin: string; source: unknown }) => void>();
  const win = {
    parent: undefined as unknown,
    location: { origin: EMBED },
    innerWidth: 640,
    innerHeight: 360,
    addEventListener: (_type: 'message', l: (event: { data: unknown; origin: string; source: unknown }) => void) => listeners.add(l),
    removeEventListener: (_type: 'message', l: (event: { data: unknown; origin: string; source: unknown }) => void) => listeners.delete(l),
  } as EarlyWindow;
  win.parent = framed ? { postMessage: (message: string, target: string) => parentPosts.push({ message: JSON.parse(message), target }) } : win;
  const deliver = (data: unknown, origin: string, source: unknown) => listeners.forEach((l) => l({ data, origin, source }));
  return { win, parentPosts, listeners, deliver };
}

/** A host window that records what it is sent. */
export function hostWindow() {
  const posts: { message: Record<string, unknown>; target: string }[] = [];
  return { posts, postMessage: (message: string, target: string) => posts.push({ message: JSON.parse(message), target }) };
}

/** Runs the responder's script text alone, as the page does: nothing of this module is in scope. */
export function runScript(win: EarlyWindow, data: EarlyHandshake) {
  new Function('window', renderEarlyResponderScript(data))(win);
}
