import { relative } from 'node:path';
import { precompressDir } from './precompress';

// `tsx server/static/precompressCli.ts dist/assets dist/iframe_api`: the last step of `npm run build`.
const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: tsx server/static/precompressCli.ts <dir>...');
  process.exit(2);
}
let raw = 0;
let gzip = 0;
let brotli = 0;
let files = 0;
for (const dir of dirs) {
  for (const f of precompressDir(dir)) {
    files += 1;
    raw += f.raw;
    gzip += f.gzip;
    brotli += f.brotli;
  }
  console.log(`precompressed ${relative(process.cwd(), dir) || dir}`);
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`${files} files: ${kb(raw)} raw, ${kb(gzip)} gzip, ${kb(brotli)} brotli`);
