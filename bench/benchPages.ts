/**
 * The pages of the page benchmark (bench/embedPage.ts) other than the embed: the host that frames a player and times
 * it, the bare page it is measured against, the probe every frame runs, and the one-page server that serves them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The host: frames one URL, speaks the handshake like a raw IFrame-API client, times everything on its own clock. */
export const hostPage = () => `<!doctype html>
<html><head><meta charset="utf-8"><title>bench host</title></head><body style="margin:0">
<script>
window.bench = { received: [] };
window.startFrame = function (src, origin) {
  var frame = document.createElement('iframe');
  frame.width = 640; frame.height = 360; frame.allow = 'autoplay; fullscreen'; frame.style.border = '0';
  var answered = false;
  function post(o) { o.id = 1; o.channel = 'widget'; frame.contentWindow.postMessage(JSON.stringify(o), origin); }
  function listen() { post({ event: 'listening' }); }
  window.addEventListener('message', function (e) {
    if (e.source !== frame.contentWindow || typeof e.data !== 'string') return;
    var m; try { m = JSON.parse(e.data); } catch (_) { return; }
    var t = performance.timeOrigin + performance.now();
    if (m.event === 'readyToListen') { listen(); return; }
    answered = true;
    window.bench.received.push({ t: t, m: m });
    if (m.event === 'onReady' && window.bench.ready === undefined) window.bench.ready = t;
    var waiter = window.bench.waiter;
    if (waiter && waiter.match(m)) { window.bench.waiter = null; waiter.done(t); }
  });
  window.bench.send = function (func, args) { post({ event: 'command', func: func, args: args }); };
  window.bench.waitFor = function (match) {
    return new Promise(function (done) { window.bench.waiter = { match: match, done: done }; });
  };
  var timer = setInterval(function () { if (answered) clearInterval(timer); else listen(); }, 250);
  frame.addEventListener('load', listen);
  window.bench.created = performance.timeOrigin + performance.now();
  frame.src = src;
  document.body.appendChild(frame);
};
window.seekRoundTrip = function (to) {
  var sent = performance.timeOrigin + performance.now();
  var p = window.bench.waitFor(function (m) {
    return m.event === 'infoDelivery' && m.info && typeof m.info.currentTime === 'number' && Math.abs(m.info.currentTime - to) < 0.3;
  });
  window.bench.send('seekTo', [to, true]);
  return p.then(function (t) { return t - sent; });
};
window.pauseAndWait = function () {
  var p = window.bench.waitFor(function (m) {
    return (m.event === 'onStateChange' && m.info === 2) || (m.event === 'infoDelivery' && m.info && m.info.playerState === 2);
  });
  window.bench.send('pauseVideo', []);
  return p;
};
</script></body></html>`;

/** The bare page: a `<video>` on the same file, and the smallest responder to the host protocol. */
export const barePage = (mediaUrl: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>bare</title>
<style>html,body{margin:0;height:100%;background:#000}video{width:100%;height:100%}</style></head><body>
<video id="v" src="${mediaUrl}" muted autoplay playsinline loop></video>
<script>
var v = document.getElementById('v'), host = null;
function post(o) { if (host) parent.postMessage(JSON.stringify(o), host); }
function state() { return v.ended ? 0 : v.paused ? 2 : 1; }
// Like the embed (host protocol §3.6): ready before any listening, it asks the host for one.
if (parent !== window) parent.postMessage(JSON.stringify({ event: 'readyToListen', channel: 'widget', id: 1 }), '*');
addEventListener('message', function (e) {
  var m; try { m = JSON.parse(e.data); } catch (_) { return; }
  if (m.event === 'listening') {
    if (!host) { host = e.origin; post({ event: 'initialDelivery', info: { currentTime: v.currentTime, playerState: state() } }); post({ event: 'onReady', info: null }); }
    return;
  }
  if (m.event !== 'command') return;
  if (m.func === 'seekTo') v.currentTime = m.args[0];
  else if (m.func === 'pauseVideo') v.pause();
  else if (m.func === 'playVideo') v.play();
});
v.addEventListener('seeked', function () { post({ event: 'infoDelivery', info: { currentTime: v.currentTime } }); });
// What the protocol asks of any player while it plays: the host is kept told of the time.
v.addEventListener('timeupdate', function () { post({ event: 'infoDelivery', info: { currentTime: v.currentTime } }); });
v.addEventListener('pause', function () { post({ event: 'onStateChange', info: 2 }); });
v.addEventListener('playing', function () { post({ event: 'onStateChange', info: 1 }); });
</script></body></html>`;

/** In every frame (not the host): the first presented video frame and the media request's start, on the epoch clock. */
export const FRAME_PROBE = `(() => {
  if (window === window.top || window.__bench) return;
  let shown;
  window.__bench = { firstFrameShown: new Promise((resolve) => (shown = resolve)) };
  const at = (t) => { if (window.__bench.firstFrame === undefined) { window.__bench.firstFrame = t; shown(); } };
  document.addEventListener('loadeddata', (e) => {
    const v = e.target;
    if (window.__bench.firstFrame !== undefined || !(v instanceof HTMLVideoElement)) return;
    if (typeof v.requestVideoFrameCallback === 'function') {
      v.requestVideoFrameCallback((now, meta) => at(performance.timeOrigin + (meta.presentationTime || now)));
    } else at(performance.timeOrigin + performance.now());
  }, true);
})();`;

export function serveOne(hostName: string, html: () => string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html()));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ origin: `http://${hostName}:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}
