/**
 * The build's source maps (`dist/assets/*.map`), read with a small decoder (base64 VLQ), so that a CPU profile of the
 * embed speaks in the repository's file names (bench/profilePlayback.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const ASSETS = join(ROOT, 'dist/assets');

// ── Source maps: a small decoder (base64 VLQ), so that the profile speaks in our file names ─────────────────────────
interface Mapped {
  source: string;
  line: number; // 1-based
  column: number; // 0-based
  name?: string;
}

interface SourceMapV3 {
  sources: string[];
  names: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
}

const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

class SourceMap {
  /** Per generated line: segments [generatedColumn, source, line, column, name?] sorted by column. */
  private readonly lines: number[][][] = [];
  constructor(private readonly map: SourceMapV3) {
    let source = 0;
    let line = 0;
    let column = 0;
    let name = 0;
    for (const text of map.mappings.split(';')) {
      const segments: number[][] = [];
      let generated = 0;
      for (const raw of text.split(',')) {
        if (!raw) continue;
        const values: number[] = [];
        let value = 0;
        let shift = 0;
        for (const ch of raw) {
          const digit = B64.get(ch)!;
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            values.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        generated += values[0];
        if (values.length >= 4) {
          source += values[1];
          line += values[2];
          column += values[3];
          if (values.length >= 5) {
            name += values[4];
            segments.push([generated, source, line, column, name]);
          } else segments.push([generated, source, line, column]);
        }
      }
      this.lines.push(segments);
    }
  }

  /** The original position of a 0-based generated line and column. */
  lookup(line: number, column: number): Mapped | undefined {
    const segments = this.lines[line];
    if (!segments || segments.length === 0) return undefined;
    let lo = 0;
    let hi = segments.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid][0] <= column) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const s = segments[Math.max(found, 0)];
    return { source: this.map.sources[s[1]], line: s[2] + 1, column: s[3], name: s.length > 4 ? this.map.names[s[4]] : undefined };
  }

  sourceLine(source: string, line: number): string | undefined {
    const i = this.map.sources.indexOf(source);
    return this.map.sourcesContent?.[i]?.split('\n')[line - 1];
  }
}

const maps = new Map<string, SourceMap | null>();
export function mapFor(url: string): SourceMap | null {
  const file = url.split('?')[0].split('/').pop() ?? '';
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    if (file.endsWith('.js') && readdirSync(ASSETS).includes(`${file}.map`)) {
      map = new SourceMap(JSON.parse(readFileSync(join(ASSETS, `${file}.map`), 'utf8')) as SourceMapV3);
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

/** `node_modules/rxjs/dist/esm5/internal/Subscriber.js` → `rxjs/…/Subscriber.js`; our files relative to the root. */
export function shortSource(source: string): string {
  const clean = source.replace(/^(\.\.\/)+/, '');
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(clean);
  if (nm) return `${nm[1]}/…/${nm[2].split('/').pop()}`;
  return clean;
}
