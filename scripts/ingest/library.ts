/**
 * The library on disk (docs/adaptive-streaming.md, "The library"): `videos/<id>/<version>/…` made in a temporary
 * folder beside it and renamed into place whole, and `entries/<id>.json` written last, to a temporary name, then
 * renamed. A reader therefore sees a version folder complete or not at all, and an entry only once every file it names
 * is in place.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { segmentFileName } from './readMpd';

export interface VideoPaths {
  /** `videos/<id>/<version>` relative to the library: the prefix of every path in the entry. */
  base: string;
  versionDir: string;
  /** Where this run builds the version before renaming it into place. */
  tempDir: string;
  entry: string;
}

/** The prefix of a temporary version folder; the server never reads one (no entry names it). */
export const TEMP_PREFIX = '.tmp-';

export function videoPaths(library: string, id: string, version: string, pid = process.pid): VideoPaths {
  const base = `videos/${id}/${version}`;
  return {
    base,
    versionDir: join(library, base),
    tempDir: join(library, 'videos', id, `${TEMP_PREFIX}${version}-${pid}`),
    entry: join(library, 'entries', `${id}.json`),
  };
}

/** The SHA-256 of a file's bytes, hex, read as a stream (a source may be gigabytes). */
export function digestFile(file: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file, { signal })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', (e) => reject(signal?.aborted ? signal.reason : e))
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The first `count` bytes of a file (fewer when it is shorter). */
export async function readHead(file: string, count: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the temporary folders of runs that died without cleaning up (killed, power lost): their process is gone. */
export async function removeStaleTemps(videoDir: string): Promise<void> {
  const names = existsSync(videoDir) ? await readdir(videoDir) : [];
  for (const name of names) {
    const pid = Number(/^\.tmp-.*-(\d+)$/.exec(name)?.[1]);
    if (pid > 0 && pid !== process.pid && !isAlive(pid)) await rm(join(videoDir, name), { recursive: true, force: true });
  }
}

/**
 * Renames the finished temporary folder to the version folder. When another run finished the same version first,
 * its folder stays (the same bytes) and this one is removed.
 */
export async function moveIntoPlace(tempDir: string, versionDir: string): Promise<void> {
  try {
    await rename(tempDir, versionDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
    await rm(tempDir, { recursive: true, force: true });
  }
}

/** Each media segment's size, from `startNumber` up to the first number with no file. */
export async function segmentSizes(dir: string, template: string, startNumber: number): Promise<number[]> {
  const sizes: number[] = [];
  for (let n = startNumber; ; n++) {
    const file = join(dir, segmentFileName(template, n));
    if (!existsSync(file)) return sizes;
    sizes.push((await stat(file)).size);
  }
}

/** The entry's current bytes, or `undefined` when there is none. */
export const readEntry = async (file: string): Promise<string | undefined> => (existsSync(file) ? readFile(file, 'utf8') : undefined);

/** Writes the entry to a temporary name beside it, then renames it over the old one: a reader sees old or new, whole. */
export async function writeEntryAtomically(file: string, text: string): Promise<void> {
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${file.slice(dir.length + 1)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * The `codecs` of an H.264 MP4 (`avc1.4d401e`), from its `avcC` box: profile, compatibility and level bytes. The box
 * sits in the index, at the front of a `+faststart` file.
 */
export async function avcCodecOf(file: string): Promise<string> {
  const head = Buffer.from(await readHead(file, 1024 * 1024));
  const at = head.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > head.length) throw new Error(`${file} has no avcC box at its front`);
  const hex = (b: number) => b.toString(16).padStart(2, '0');
  return `avc1.${hex(head[at + 5]!)}${hex(head[at + 6]!)}${hex(head[at + 7]!)}`;
}
