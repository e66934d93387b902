import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXIT } from '../../../scripts/ingest/ingestErrors';
import { segmentFileName } from '../../../scripts/ingest/readMpd';
import type { CatalogEntry } from '../../../scripts/ingest/buildEntry';

/**
 * `npm run ingest` as a site owner runs it: the real command (tsx), real ffmpeg and ffprobe, on tiny sources that
 * ffmpeg's lavfi generates here, with `--fast`.
 */
const root = resolve(__dirname, '../../..');
const main = join(root, 'scripts/ingest/main.ts');
let work: string;
let library: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command to its end (or, with `interruptOn`, sends SIGINT once stderr shows that text). */
function ingestCli(args: string[], opts: { env?: NodeJS.ProcessEnv; interruptOn?: string } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { cwd: root, env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (opts.interruptOn && !interrupted && stderr.includes(opts.interruptOn)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const ff = (...args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);
const lavfiSource = (file: string, seconds: number, size: string) =>
  ff(
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file],
  );

/** ffprobe's video packets of an init segment followed by one media segment: their times and keyframe flags. */
function packetsOf(init: string, segment: string): { pts: number; end: number; key: boolean }[] {
  const joined = join(work, `joined-${Math.random().toString(36).slice(2)}`);
  writeFileSync(joined, Buffer.concat([readFileSync(init), readFileSync(segment)]));
  const csv = execFileSync(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,duration_time,flags', '-of', 'csv=p=0', joined],
    {
      encoding: 'utf8',
    },
  );
  rmSync(joined);
  return csv
    .trim()
    .split('\n')
    .map((line) => {
      const [pts, duration, flags] = line.split(',');
      return { pts: Number(pts), end: Number(pts) + Number(duration), key: flags.startsWith('K') };
    });
}

const entryPath = (id: string) => join(library, 'entries', `${id}.json`);
const readEntry = (id: string) => JSON.parse(readFileSync(entryPath(id), 'utf8')) as CatalogEntry;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'vidframe-ingest-'));
  library = join(work, 'library');
  lavfiSource(join(work, 'clip.mp4'), 4, '320x240');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run ingest on a real source', () => {
  let first: Run;
  beforeAll(async () => {
    first = await ingestCli([
      join(work, 'clip.mp4'),
      '--fast',
      '--id',
      'VFingest001',
      '--title',
      'Tiny clip',
      '--channel',
      'Test Author',
      '--library',
      library,
    ]);
  }, 60_000);

  it('writes an entry matching the contract, every file it names on disk with the stated bytes', () => {
    expect(first.stderr).toContain('ingest: [2/6] H.264 ladder 144p–240p (DASH + HLS)');
    expect(first.code).toBe(EXIT.OK);
    const entry = readEntry('VFingest001');
    expect(entry).toMatchObject({ id: 'VFingest001', title: 'Tiny clip', author: 'Test Author', embeddable: true, captions: [] });
    expect(entry.channelId).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    expect(entry.durationSeconds).toBeCloseTo(4, 1);
    const formats = entry.adaptive.formats;
    expect(formats.map((f) => `${f.kind} ${f.quality ?? ''} ${f.mimeType.split(';')[0]}`)).toEqual([
      'video tiny video/mp4',
      'video small video/mp4',
      'audio  audio/mp4',
      'video tiny video/webm',
      'video small video/webm',
      'audio  audio/webm',
    ]);
    expect(formats.map((f) => /codecs="([^".]*)/.exec(f.mimeType)![1])).toEqual(['avc1', 'avc1', 'mp4a', 'vp09', 'vp09', 'opus']);
    expect(formats.slice(0, 2).map((f) => [f.width, f.height])).toEqual([
      [192, 144],
      [320, 240],
    ]);
    for (const f of formats) {
      expect(statSync(join(library, f.init)).isFile()).toBe(true);
      expect(f.segmentSeconds).toBe(2);
      expect(f.segmentBytes).toHaveLength(2); // 4 s in segments of 2 s
      f.segmentBytes.forEach((bytes, k) => expect(statSync(join(library, segmentFileName(f.segments, f.startNumber + k))).size).toBe(bytes));
      expect(existsSync(join(library, segmentFileName(f.segments, f.startNumber + f.segmentBytes.length)))).toBe(false);
      expect(f.bitrate).toBe(Math.round((f.segmentBytes.reduce((a, b) => a + b, 0) * 8) / entry.durationSeconds));
    }
    const [progressive] = entry.renditions;
    expect(progressive).toMatchObject({
      quality: 'small',
      width: 320,
      height: 240,
      mimeType: expect.stringMatching(/^video\/mp4; codecs="avc1\.[0-9a-f]{6}, mp4a\.40\.2"$/),
    });
    expect(statSync(join(library, progressive.file)).size).toBe(progressive.bytes);
    expect(readFileSync(join(library, entry.poster)).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // a JPEG
    expect(entry.storyboard).toMatchObject({ intervalSeconds: 2, columns: 10, rows: 10, thumbWidth: 160, thumbHeight: 90, count: 2 });
    expect(entry.storyboard.sheets).toHaveLength(1);
    expect(statSync(join(library, entry.storyboard.sheets[0])).isFile()).toBe(true);
    // Nothing temporary is left beside the version folder.
    expect(readdirSync(join(library, 'videos/VFingest001'))).toEqual([entry.poster.split('/')[2]]);
    expect(readdirSync(join(library, 'entries'))).toEqual(['VFingest001.json']);
  });

  it('starts every segment of every video rendition on a keyframe at the same instant, none longer than 4 s', () => {
    const entry = readEntry('VFingest001');
    for (const f of entry.adaptive.formats.filter((v) => v.kind === 'video')) {
      f.segmentBytes.forEach((_bytes, k) => {
        const packets = packetsOf(join(library, f.init), join(library, segmentFileName(f.segments, f.startNumber + k)));
        expect(packets[0].key).toBe(true);
        // Each segment starts at k × 2 s (WebM's timestamps may sit a few milliseconds later, behind the audio's pre-skip).
        expect(Math.abs(packets[0].pts - k * 2)).toBeLessThan(0.02);
        expect(packets.filter((p) => p.key)).toHaveLength(1);
        expect(packets.at(-1)!.end - packets[0].pts).toBeLessThanOrEqual(4);
      });
    }
  });

  it('writes the DASH manifests and an HLS master playlist over the same fMP4 segments', () => {
    const entry = readEntry('VFingest001');
    for (const mpd of Object.values(entry.adaptive.dash)) expect(readFileSync(join(library, mpd), 'utf8')).toContain('<MPD');
    const master = readFileSync(join(library, entry.adaptive.hls), 'utf8');
    const dir = join(library, entry.adaptive.hls, '..');
    const playlists = master.split('\n').filter((l) => l.endsWith('.m3u8') && !l.startsWith('#'));
    expect(playlists).toEqual(['media_0.m3u8', 'media_1.m3u8']);
    expect(master).toContain('URI="media_2.m3u8"');
    expect(master).toContain('RESOLUTION=320x240');
    const media = readFileSync(join(dir, 'media_1.m3u8'), 'utf8');
    expect(media).toContain('#EXT-X-MAP:URI="init-1.m4s"');
    expect(media).toContain('seg-1-00002.m4s');
    expect(media).not.toContain('PROGRAM-DATE-TIME');
  });

  it('changes nothing when the same file is ingested again, and says so', async () => {
    const before = readFileSync(entryPath('VFingest001'));
    const versions = readdirSync(join(library, 'videos/VFingest001'));
    const again = await ingestCli([
      join(work, 'clip.mp4'),
      '--fast',
      '--id',
      'VFingest001',
      '--title',
      'Tiny clip',
      '--channel',
      'Test Author',
      '--library',
      library,
    ]);
    expect(again.code).toBe(EXIT.OK);
    expect(again.stdout).toContain('already ingested with these settings: nothing changed');
    expect(readFileSync(entryPath('VFingest001'))).toEqual(before);
    expect(readdirSync(join(library, 'videos/VFingest001'))).toEqual(versions);
  }, 30_000);
});

describe('npm run ingest on bad input', () => {
  const runs = new Map<string, Run>();
  beforeAll(async () => {
    const f = (name: string) => join(work, name);
    writeFileSync(f('notes.mp4'), 'hello world, this is not a video\n');
    writeFileSync(f('empty.mp4'), '');
    ff('-f', 'lavfi', '-i', 'sine=duration=2', f('audio.m4a'));
    ff('-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-frames:v', '1', f('still.png'));
    ff('-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-frames:v', '0', f('nothing.mp4'));
    // Three frames 10,000 s apart: over the 4 h bound in a few bytes.
    ff('-f', 'lavfi', '-i', 'color=size=16x16:rate=1/10000', '-frames:v', '3', '-c:v', 'libx264', f('endless.mp4'));
    // A sparse file: over the byte bound without writing it.
    writeFileSync(f('huge.mp4'), '');
    truncateSync(f('huge.mp4'), 17 * 1024 ** 3);
    // An MP4 cut short: its index (at the end) is gone. Another with its frames overwritten.
    const clip = readFileSync(f('clip.mp4'));
    writeFileSync(f('cut.mp4'), clip.subarray(0, Math.floor(clip.length / 2)));
    const garbled = Buffer.from(clip);
    for (let i = 4096; i < garbled.length - 4096; i += 7) garbled[i] = (garbled[i] * 31 + 7) & 255;
    writeFileSync(f('garbled.mp4'), garbled);
    // Chapters for the 4 s clip: one past its end; one line that is not a chapter.
    writeFileSync(f('late.txt'), '0:00 Start\n0:05 After the end\n');
    writeFileSync(f('prose.txt'), '0:00 Start\nsee you at two\n');
    const cases: [string, string[], NodeJS.ProcessEnv?][] = [
      ['missing', [f('nowhere.mp4')]],
      ['text', [f('notes.mp4')]],
      ['still', [f('still.png')]],
      ['audio', [f('audio.m4a')]],
      ['empty', [f('empty.mp4')]],
      ['nothing', [f('nothing.mp4')]],
      ['endless', [f('endless.mp4')]],
      ['huge', [f('huge.mp4')]],
      ['cut', [f('cut.mp4')]],
      ['garbled', [f('garbled.mp4')]],
      ['noFile', []],
      ['badId', [f('clip.mp4'), '--id', 'tooshort']],
      ['lateChapter', [f('clip.mp4'), '--chapters', f('late.txt')]],
      ['proseChapters', [f('clip.mp4'), '--chapters', f('prose.txt')]],
      ['noFfprobe', [f('clip.mp4')], { FFPROBE: join(work, 'no-such-ffprobe') }],
      ['noFfmpeg', [f('clip.mp4')], { FFMPEG: join(work, 'no-such-ffmpeg') }],
    ];
    // Four at a time: each is a Node process of its own.
    for (let i = 0; i < cases.length; i += 4) {
      const batch = cases.slice(i, i + 4);
      const results = await Promise.all(batch.map(([, args, env]) => ingestCli([...args, '--library', library, '--fast'], { env })));
      batch.forEach(([name], j) => runs.set(name, results[j]));
    }
  }, 60_000);

  it.each([
    ['missing', EXIT.SOURCE_UNREADABLE, 'nowhere.mp4 does not exist'],
    ['text', EXIT.NOT_A_VIDEO, 'the source is not a video'],
    ['still', EXIT.NOT_A_VIDEO, 'the source is a still image (png_pipe), not a video'],
    ['audio', EXIT.AUDIO_ONLY, 'the source is audio only: it has no video stream'],
    ['empty', EXIT.ZERO_LENGTH, 'the source is empty (zero bytes)'],
    ['nothing', EXIT.ZERO_LENGTH, 'the source holds no media (zero length)'],
    ['endless', EXIT.TOO_LARGE, 'over the limit of 14400 s (MAX_SOURCE_SECONDS)'],
    ['huge', EXIT.TOO_LARGE, 'over the limit of 17179869184 bytes (MAX_SOURCE_BYTES)'],
    ['cut', EXIT.CORRUPT, 'the source is a damaged media file'],
    ['garbled', EXIT.CORRUPT, "the source's video does not decode"],
    ['noFile', EXIT.BAD_ARGUMENTS, 'ingest: no source file given (npm run ingest -- --help)'],
    ['badId', EXIT.BAD_ARGUMENTS, '--id must be 11 characters of [A-Za-z0-9_-]'],
    ['lateChapter', EXIT.BAD_ARGUMENTS, 'late.txt: chapters[1]: startSeconds 5 must be before the end of the video'],
    ['proseChapters', EXIT.BAD_ARGUMENTS, 'prose.txt: line 2 is not "<m:ss or h:mm:ss> <title>": "see you at two"'],
    [
      'noFfprobe',
      EXIT.TOOLS_MISSING,
      'no-such-ffprobe is not installed (or not runnable): install ffmpeg, which brings ffprobe (Debian: apt-get install ffmpeg)',
    ],
    ['noFfmpeg', EXIT.TOOLS_MISSING, 'no-such-ffmpeg is not installed'],
  ])('%s: exits %i and says "%s", leaving no entry', (name, code, message) => {
    const run = runs.get(name)!;
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(code);
    expect(readdirSync(join(library, 'entries'))).toEqual(['VFingest001.json']);
  });
});

describe('npm run ingest interrupted', () => {
  it('stops on Ctrl-C with exit 130, removes its temporary folder and writes no entry', async () => {
    const source = join(work, 'longer.mp4');
    lavfiSource(source, 12, '640x360');
    const run = await ingestCli([source, '--id', 'VFinterrupt', '--library', library, '--plain'], { interruptOn: '[2/6]' });
    expect(run.stderr).toContain('ingest: interrupted by SIGINT: nothing was written');
    expect(run.code).toBe(EXIT.INTERRUPTED);
    expect(existsSync(entryPath('VFinterrupt'))).toBe(false);
    expect(readdirSync(join(library, 'videos/VFinterrupt'))).toEqual([]);
  }, 30_000);
});
