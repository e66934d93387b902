import type { Frame, Page } from 'playwright-core';

/**
 * Slows `page` down as a loaded machine does: its renderer (which runs the embed's frame too) `rate` times slower through
 * CDP, and every chunk of the embed and every API answer delayed by 200–800 ms, so the element's events, the host's
 * commands and the services arrive in other orders than on a quiet machine.
 */
export async function slowDown(page: Page, rate = 4): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.route(/\/(assets\/[^/]+\.js|youtubei\/v1\/[^?]+)(\?.*)?$/, async (route) => {
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 600));
    await route.continue();
  });
}

/**
 * A third-party host page speaking the IFrame Player API wire protocol with a small raw `postMessage` script of its
 * own (no SDK): it frames the embed, sends `listening` every 250 ms until the embed answers (and after each iframe
 * load), keeps every message it receives in `window.received`, merges `initialDelivery`/`infoDelivery` into
 * `window.cache` the way host libraries do, and wipes the cache when it sends a load/cue command.
 */
export const rawHostPage = (embedUrl: string, embedOrigin: string, extra = '') => `<!doctype html>
<html><head><meta charset="utf-8"><title>raw host</title></head><body>
<iframe id="player" width="640" height="360" src="${embedUrl}" allow="autoplay; fullscreen"></iframe>
${extra}
<script>
(function () {
  var frame = document.getElementById('player');
  var EMBED = ${JSON.stringify(embedOrigin)};
  window.received = []; window.cache = {}; window.apiInfo = null; window.listenCount = 0;
  var answered = false;
  window.addEventListener('message', function (e) {
    if (e.origin !== EMBED || e.source !== frame.contentWindow || typeof e.data !== 'string') return;
    var m; try { m = JSON.parse(e.data); } catch (_) { return; }
    window.received.push(m);
    // readyToListen asks for a listening now; any other message means the embed answered.
    if (m.event === 'readyToListen') listen(); else answered = true;
    if (m.event === 'initialDelivery' || m.event === 'infoDelivery') for (var k in m.info) window.cache[k] = m.info[k];
    if (m.event === 'apiInfoDelivery') window.apiInfo = m.info;
  });
  function post(o) { o.id = 1; o.channel = 'widget'; frame.contentWindow.postMessage(JSON.stringify(o), EMBED); }
  window.send = function (func, args) {
    if (/^(load|cue)/.test(func)) window.cache = {};
    post({ event: 'command', func: func, args: args === undefined ? [] : args });
  };
  window.rawPost = function (data, target) { frame.contentWindow.postMessage(data, target || EMBED); };
  function listen() { window.listenCount++; post({ event: 'listening' }); }
  var timer = setInterval(function () { if (answered) clearInterval(timer); else listen(); }, 250);
  frame.addEventListener('load', listen);
})();
</script></body></html>`;

type Msg = { event: string; info?: unknown; id?: unknown; channel?: unknown };
declare global {
  interface Window {
    received: Msg[];
    cache: Record<string, unknown>;
    apiInfo: Record<string, unknown> | null;
    listenCount: number;
    send(func: string, args?: unknown): void;
    rawPost(data: unknown, target?: string): void;
  }
}

/** Waits until the host's cache satisfies `predicate` (bounded by Playwright's timeout). */
export const waitCache = (page: Page, predicate: string, arg?: unknown) =>
  page.waitForFunction(`(function (c, arg) { return ${predicate}; })(window.cache, ${JSON.stringify(arg ?? null)})`, undefined, { timeout: 15_000 });

/** Waits until the host received a message matching `event` (and `info`, compared as JSON, when given). */
export const waitMessage = (page: Page, event: string, info?: unknown) =>
  page.waitForFunction(
    ([e, i]) => window.received.some((m) => m.event === e && (i === '__any__' || JSON.stringify(m.info) === i)),
    [event, info === undefined ? '__any__' : JSON.stringify(info)] as const,
    { timeout: 15_000 },
  );

export const events = (page: Page) => page.evaluate(() => window.received.map((m) => m.event));
export const cache = (page: Page) => page.evaluate(() => window.cache);
export const videoElement = (frame: Frame) =>
  frame.evaluate(() => {
    const v = document.querySelector('video')!;
    return { paused: v.paused, muted: v.muted, volume: v.volume, rate: v.playbackRate, currentTime: v.currentTime };
  });
