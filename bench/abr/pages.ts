/**
 * The peers' side of the adaptive benchmark: a static origin serving the library (the entry's manifests and segments
 * at `/library/`), the peers' dist files from node_modules at `/vendor/` (brotli-compressed when the browser accepts
 * it, as any site would serve them) and one page per peer at `/player/<peer>`: a 1280×720 `<video>`, muted and
 * autoplaying, and the player on the entry's manifest with its default settings. The embed's page is the host page
 * (`hostPage`), served on its own origin, framing the embed from the shaping proxy.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

export const PEERS = ['hls.js', 'shaka', 'dash.js'] as const;
export type Peer = (typeof PEERS)[number];
export type Player = 'vidframe' | Peer;

const NODE_MODULES = resolve(import.meta.dirname, '../../node_modules');

/** Each peer's main dist file. */
const VENDOR: Record<Peer, string> = {
  'hls.js': 'hls.js/dist/hls.min.js',
  shaka: 'shaka-player/dist/shaka-player.dash.js',
  'dash.js': 'dashjs/dist/modern/umd/dash.all.min.js',
};

const TYPES: Record<string, string> = {
  '.mpd': 'application/dash+xml',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
};

/** How each peer starts on the manifest `src` with the `<video id="v">` (default settings). */
const START: Record<Peer, (src: string) => string> = {
  'hls.js': (src) => `const hls = new Hls(); hls.loadSource(${JSON.stringify(src)}); hls.attachMedia(v);`,
  shaka: (src) =>
    `shaka.polyfill.installAll(); const p = new shaka.Player(); p.attach(v).then(() => p.load(${JSON.stringify(src)})).catch((e) => console.error('shaka', e && e.code, String(e)));`,
  'dash.js': (src) => `const d = dashjs.MediaPlayer().create(); d.initialize(v, ${JSON.stringify(src)}, true);`,
};

export function peerPage(peer: Peer, manifestUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${peer}</title>
<style>html,body{margin:0;background:#000}video{width:1280px;height:720px;display:block}</style></head>
<body><video id="v" muted autoplay playsinline></video>
<script src="/vendor/${peer}.js"></script>
<script>const v = document.getElementById('v'); v.muted = true; ${START[peer](manifestUrl)} v.play().catch(() => undefined);</script>
</body></html>`;
}

/** The host page that frames the embed, 1280×720, as a site owner's page would. */
export function hostPage(embedUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title><style>html,body{margin:0}iframe{border:0;display:block}</style></head>
<body><iframe width="1280" height="720" allow="autoplay; fullscreen" src="${embedUrl.replace(/"/g, '&quot;')}"></iframe></body></html>`;
}

export interface StaticOrigin {
  origin: string;
  close(): Promise<void>;
}

const compressed = new Map<string, Buffer>();

function sendVendor(peer: Peer, req: IncomingMessage, res: ServerResponse): void {
  const path = join(NODE_MODULES, VENDOR[peer]);
  const headers = { 'content-type': TYPES['.js']!, 'cache-control': 'no-store', vary: 'accept-encoding' };
  if (!/\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    res.writeHead(200, headers).end(readFileSync(path));
    return;
  }
  let body = compressed.get(path);
  if (!body) {
    body = brotliCompressSync(readFileSync(path), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    compressed.set(path, body);
  }
  res.writeHead(200, { ...headers, 'content-encoding': 'br', 'content-length': String(body.length) }).end(body);
}

function sendFile(root: string, rel: string, res: ServerResponse): void {
  const path = normalize(join(root, rel));
  if (!path.startsWith(root + '/') || !existsSync(path) || !statSync(path).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': String(statSync(path).size),
    'cache-control': 'no-store',
  });
  createReadStream(path).pipe(res);
}

/** The static origin for the peers: `/library/…`, `/vendor/<peer>.js`, `/player/<peer>` on the entry's manifests. */
export async function startStaticOrigin(libraryDir: string, manifests: { hls: string; dash: string }): Promise<StaticOrigin> {
  const root = resolve(libraryDir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const peer = PEERS.find((p) => path === `/vendor/${p}.js` || path === `/player/${p}`);
    if (path === '/favicon.ico') res.writeHead(204).end();
    else if (peer && path.startsWith('/vendor/')) sendVendor(peer, req, res);
    else if (peer) {
      const manifest = peer === 'hls.js' ? manifests.hls : manifests.dash;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(peerPage(peer, `/library/${manifest}`));
    } else if (path.startsWith('/library/')) sendFile(root, path.slice('/library/'.length), res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
