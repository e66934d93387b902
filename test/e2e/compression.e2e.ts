/**
 * The embed on the wire (issue 15): every script and style of the embed's first load, and `/iframe_api`, is sent
 * pre-compressed (brotli or gzip, by `Accept-Encoding`, with `Vary`), byte-identical once decoded, and the first
 * load stays within the size budget in `bench/size-budget.json` (bytes, never time).
 */
import { request as httpRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type RunningServer } from './helpers/servers';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that keeps the bytes as sent (fetch would decode them and choose its own Accept-Encoding). */
function rawGet(url: string, acceptEncoding?: string): Promise<RawResponse> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

const decode = (r: RawResponse) =>
  r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

/** The scripts, module preloads and styles the embed page names: what the browser fetches before the player starts. */
function firstLoadAssets(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*\bhref="([^"]+)"/g)) urls.add(m[1]);
  return [...urls];
}

const budget = JSON.parse(readFileSync(resolve(__dirname, '../../bench/size-budget.json'), 'utf8')) as {
  embedFirstLoad: { brotliBytes: number; gzipBytes: number };
  streamingEngine: { brotliBytes: number };
};

let server: RunningServer;
let assets: string[];

beforeAll(async () => {
  server = await startServer();
  const page = await rawGet(`${server.origin}/embed/VFsunrise01`);
  expect(page.status).toBe(200);
  assets = firstLoadAssets(decode(page).toString('utf8'));
});
afterAll(() => server.close());

test('the embed page names its first-load scripts and styles, all root-relative', () => {
  expect(assets.some((u) => u.endsWith('.js'))).toBe(true);
  expect(assets.some((u) => u.endsWith('.css'))).toBe(true);
  for (const u of assets) expect(u).toMatch(/^\/assets\//);
});

test('the first load is at most three files, so that with the poster and the media it fits six HTTP/1.1 connections', () => {
  // Seven requests at once (three shared chunks more) made the media request wait for a free connection (issue 15).
  expect(assets.length).toBeLessThanOrEqual(3);
  expect(assets.filter((u) => u.endsWith('.css'))).toHaveLength(1);
});

test.each([
  ['br, gzip, deflate', 'br'],
  ['gzip', 'gzip'],
  ['gzip;q=1, br;q=0', 'gzip'],
])('with Accept-Encoding "%s" every first-load asset is sent as %s, varies on it, and decodes to the plain file', async (accept, expected) => {
  for (const url of assets) {
    const [compressed, plain] = await Promise.all([rawGet(server.origin + url, accept), rawGet(server.origin + url)]);
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(expected);
    expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
    expect(compressed.body.length).toBeLessThan(plain.body.length);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(decode(compressed).equals(plain.body)).toBe(true);
  }
});

test('/iframe_api is sent compressed by Accept-Encoding, with Vary, and plain to a client that asks for nothing', async () => {
  const [br, gzip, plain] = await Promise.all([
    rawGet(`${server.origin}/iframe_api`, 'br, gzip'),
    rawGet(`${server.origin}/iframe_api`, 'gzip'),
    rawGet(`${server.origin}/iframe_api`),
  ]);
  expect(br.headers['content-encoding']).toBe('br');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(plain.headers['content-encoding']).toBeUndefined();
  for (const r of [br, gzip, plain]) {
    expect(r.status).toBe(200);
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(r.headers['content-type']).toMatch(/javascript/);
  }
  expect(decode(br).equals(plain.body)).toBe(true);
  expect(decode(gzip).equals(plain.body)).toBe(true);
});

test('the first load fits the size budget as served, brotli and gzip (bench/size-budget.json)', async () => {
  const sum = async (accept: string) => {
    let total = 0;
    for (const url of assets) total += (await rawGet(server.origin + url, accept)).body.length;
    return total;
  };
  const [brotli, gzip] = await Promise.all([sum('br'), sum('gzip')]);
  // The figures, for the reader of the CI log when the budget is hit.
  console.log(
    `embed first load as served: ${brotli} B brotli (budget ${budget.embedFirstLoad.brotliBytes}), ${gzip} B gzip (budget ${budget.embedFirstLoad.gzipBytes})`,
  );
  expect(brotli).toBeLessThanOrEqual(budget.embedFirstLoad.brotliBytes);
  expect(gzip).toBeLessThanOrEqual(budget.embedFirstLoad.gzipBytes);
});

test('the streaming engine, fetched at the first stream, fits its budget as served (bench/size-budget.json)', async () => {
  const dir = resolve(__dirname, '../../dist/assets');
  const entry = readdirSync(dir).find((f) => /^startAdaptive-[\w-]+\.js$/.test(f));
  expect(entry).toBeDefined();
  // The chunk and every chunk it imports that the first load has not fetched already.
  const chunks = new Set<string>();
  const visit = (file: string) => {
    if (chunks.has(file) || assets.includes(`/assets/${file}`)) return;
    chunks.add(file);
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) if (m[1]) visit(m[1]);
  };
  visit(entry as string);
  let brotli = 0;
  for (const file of chunks) brotli += (await rawGet(`${server.origin}/assets/${file}`, 'br')).body.length;
  console.log(`streaming engine as served: ${brotli} B brotli in ${chunks.size} chunks (budget ${budget.streamingEngine.brotliBytes})`);
  expect(brotli).toBeGreaterThan(0);
  expect(brotli).toBeLessThanOrEqual(budget.streamingEngine.brotliBytes);
});
