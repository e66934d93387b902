import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES, precompressDir } from '../../../server/static/precompress';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidframe-precompress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (n: number) => 'export const greeting = "hello, viewer";\n'.repeat(Math.ceil(n / 40)).slice(0, n);

test('writes .br and .gz next to every compressible file, in subfolders too, each decoding to the original', () => {
  mkdirSync(join(dir, 'nested'));
  writeFileSync(join(dir, 'a.js'), text(4000));
  writeFileSync(join(dir, 'nested', 'b.css'), text(2000).replace(/export const/g, '.x'));
  const written = precompressDir(dir);
  expect(written.map((f) => f.path).sort()).toEqual([join(dir, 'a.js'), join(dir, 'nested', 'b.css')]);
  for (const f of written) {
    const raw = readFileSync(f.path);
    expect(brotliDecompressSync(readFileSync(`${f.path}.br`)).equals(raw)).toBe(true);
    expect(gunzipSync(readFileSync(`${f.path}.gz`)).equals(raw)).toBe(true);
    expect(f.raw).toBe(raw.length);
    expect(f.brotli).toBe(readFileSync(`${f.path}.br`).length);
    expect(f.gzip).toBeLessThan(f.raw);
  }
});

test('leaves media, source maps, tiny files and incompressible data plain', () => {
  writeFileSync(join(dir, 'clip.mp4'), text(4000));
  writeFileSync(join(dir, 'a.js.map'), text(4000));
  writeFileSync(join(dir, 'tiny.js'), text(MIN_COMPRESS_BYTES - 1));
  // Random bytes do not compress: no variant larger than the file is written.
  const noise = Buffer.alloc(4000);
  for (let i = 0; i < noise.length; i++) noise[i] = ((i * 2654435761) >>> 24) ^ ((i * 40503) & 0xff);
  writeFileSync(join(dir, 'noise.json'), noise);
  precompressDir(dir);
  for (const name of ['clip.mp4', 'a.js.map', 'tiny.js']) {
    expect(existsSync(join(dir, `${name}.br`))).toBe(false);
    expect(existsSync(join(dir, `${name}.gz`))).toBe(false);
  }
  for (const suffix of ['.br', '.gz']) {
    const variant = join(dir, `noise.json${suffix}`);
    if (existsSync(variant)) expect(readFileSync(variant).length).toBeLessThan(noise.length);
  }
});

test('running it twice does not compress the variants themselves', () => {
  writeFileSync(join(dir, 'a.js'), text(4000));
  precompressDir(dir);
  precompressDir(dir);
  expect(existsSync(join(dir, 'a.js.br.br'))).toBe(false);
  expect(existsSync(join(dir, 'a.js.gz.gz'))).toBe(false);
});
