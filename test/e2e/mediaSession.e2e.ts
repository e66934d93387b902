import type { Browser, Frame, Page } from 'playwright-core';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';
import { rawHostPage } from './host.helpers';

/**
 * The Media Session in the framed embed, where the operating system meets it: the session shows the playing video
 * (title, channel, poster, state, position) and its action handlers, the ones the browser calls for a media key, the
 * lock screen or the notification, act on the player. The page's `setActionHandler` is watched (an init script keeps
 * each handler it is given) so the test calls them as the browser does. Needs `npm run build`.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

type Handler = ((details: { action: string; seekTime?: number; seekOffset?: number }) => void) | null;
type SessionWindow = Window & { mediaHandlers: Record<string, Handler> };

/** The embed of `query` framed by a host page, with every frame's Media Session handlers kept where a test can call them. */
async function openFramed(query: string): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const session = navigator.mediaSession;
    const handlers: Record<string, unknown> = {};
    (window as unknown as { mediaHandlers: typeof handlers }).mediaHandlers = handlers;
    const set = session.setActionHandler.bind(session);
    session.setActionHandler = (action, handler) => {
      handlers[action] = handler;
      set(action, handler);
    };
  });
  const embedUrl = `${server.origin}/embed/${query}`;
  await page.goto(host.page(`/session-${Math.random().toString(36).slice(2)}.html`, rawHostPage(embedUrl, server.origin)));
  return { page, frame: await frameWith(page, '/embed/') };
}

/** Calls the frame's handler for `action`, as the browser does for a media key. */
const act = (frame: Frame, action: string, details: { seekTime?: number; seekOffset?: number } = {}) =>
  frame.evaluate(([a, d]) => (window as unknown as SessionWindow).mediaHandlers[a]!({ action: a, ...d }), [action, details] as const);

const video = (frame: Frame) => frame.evaluate(() => ({ paused: document.querySelector('video')!.paused, time: document.querySelector('video')!.currentTime }));

describe('the Media Session of the framed embed', () => {
  it('shows the playing video and its state, and the media keys pause, seek and play it', async () => {
    const { page, frame } = await openFramed('VFsunrise01?autoplay=1&mute=1');
    await frame.waitForFunction(() => navigator.mediaSession.playbackState === 'playing' && navigator.mediaSession.metadata !== null);
    const metadata = await frame.evaluate(() => {
      const m = navigator.mediaSession.metadata!;
      return { title: m.title, artist: m.artist, artwork: m.artwork.map((a) => new URL(a.src).pathname) };
    });
    expect(metadata).toEqual({ title: 'Sunrise over the test pattern', artist: 'VidFrame Samples', artwork: [expect.stringMatching(/VFsunrise01/)] });
    // No playlist: no previous or next track for the system to offer.
    expect(
      await frame.evaluate(() => [
        (window as unknown as SessionWindow).mediaHandlers.nexttrack,
        (window as unknown as SessionWindow).mediaHandlers.previoustrack,
      ]),
    ).toEqual([null, null]);

    await act(frame, 'pause');
    await frame.waitForFunction(() => document.querySelector('video')!.paused && navigator.mediaSession.playbackState === 'paused');
    await act(frame, 'seekto', { seekTime: 1 });
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 1) < 0.05);
    // A key without an offset of its own moves 10 s, as the l key does; paused stays paused.
    await act(frame, 'seekforward');
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 11) < 0.05);
    expect((await video(frame)).paused).toBe(true);
    await act(frame, 'seekbackward', { seekOffset: 4 });
    await frame.waitForFunction(() => Math.abs(document.querySelector('video')!.currentTime - 7) < 0.05);
    await act(frame, 'play');
    await frame.waitForFunction(() => !document.querySelector('video')!.paused && navigator.mediaSession.playbackState === 'playing');
    await page.close();
  });

  it('in a playlist, the next-track key plays the next video, which the session then shows', async () => {
    const { page, frame } = await openFramed('VFsunrise01?autoplay=1&mute=1&playlist=VFcitylight');
    await frame.waitForFunction(() => typeof (window as unknown as SessionWindow).mediaHandlers.nexttrack === 'function');
    await frame.waitForFunction(() => navigator.mediaSession.metadata?.title === 'Sunrise over the test pattern');
    await act(frame, 'nexttrack');
    await frame.waitForFunction(() => navigator.mediaSession.metadata?.title === 'City lights' && navigator.mediaSession.playbackState === 'playing');
    await page.close();
  });
});
