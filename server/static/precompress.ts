import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** The text types worth compressing (media, fonts and images are compressed already; source maps are for developers and left plain, which keeps the build quick). */
export const COMPRESSIBLE_EXTENSIONS = ['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.ico'] as const;

/** Below this, the headers outweigh the saving; the server sends the plain file. */
export const MIN_COMPRESS_BYTES = 512;

export interface PrecompressedFile {
  path: string;
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) next to every compressible file under `dir`, at
 * build time, so the server streams them (`@fastify/static`'s `preCompressed`) instead of compressing per request.
 * A variant that would not be smaller is not written; the server then falls back to the plain file.
 */
export function precompressDir(dir: string): PrecompressedFile[] {
  const written: PrecompressedFile[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      if (!entry.isFile() || !(COMPRESSIBLE_EXTENSIONS as readonly string[]).includes(extname(entry.name))) continue;
      if (statSync(path).size < MIN_COMPRESS_BYTES) continue;
      const raw = readFileSync(path);
      const br = brotliCompressSync(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
      const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
      if (br.length < raw.length) writeFileSync(`${path}.br`, br);
      if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
      written.push({ path, raw: raw.length, gzip: Math.min(gz.length, raw.length), brotli: Math.min(br.length, raw.length) });
    }
  };
  walk(dir);
  return written;
}
