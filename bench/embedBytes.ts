/**
 * The embed's first load on the wire, as the real server sends it: the scripts, module preloads and styles its HTML
 * names (what the browser fetches before the player starts), summed plain, gzip and brotli. The same files as
 * `test/e2e/compression.e2e.ts`, which holds them to `bench/size-budget.json`.
 */
import { request as httpRequest } from 'node:http';

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
  files: string[];
}

/** A GET that keeps the bytes as sent. */
function rawBytes(url: string, acceptEncoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The first load of the embed page of `videoId` at `origin`: its scripts, module preloads and styles. */
export async function embedBytes(origin: string, videoId: string): Promise<Bytes> {
  const html = (await rawBytes(`${origin}/embed/${videoId}`, 'identity')).toString('utf8');
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*\brel="(?:modulepreload|stylesheet)"[^>]*\bhref="([^"]+)"/g)) files.add(m[1]);
  const sum = async (enc: string) => (await Promise.all([...files].map((f) => rawBytes(origin + f, enc)))).reduce((n, b) => n + b.length, 0);
  const [raw, gzip, brotli] = await Promise.all([sum('identity'), sum('gzip'), sum('br')]);
  return { raw, gzip, brotli, files: [...files] };
}
