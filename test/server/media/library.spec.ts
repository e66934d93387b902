import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { readConfig } from '../../../server/config';
import { findVideo } from '../../../server/media/catalog';
import { LIBRARY_RESCAN_MIN_INTERVAL_MS } from '../../../server/media/limits';
import { posterPath } from '../../../server/media/registerPosters';
import type { AdaptiveFormat, PlayerResponse } from '../../../streams/config/playerConfig';
import { readPlayerResponse } from '../../../streams/config/readPlayerResponse';
import { apiTokensFor } from '../../helpers/apiTokens';
import { type LibraryEntryJson, writeEntry, writeLibraryVideo } from './libraryFixture';

/**
 * The library of ingested videos through the whole app: the player answer of a video with a ladder, its files under
 * `/library/`, and entries written, changed, broken and removed while the server runs.
 */
const SECRET = 'library-spec-shared-secret-0123456789abcdef';
const mediaDir = resolve(__dirname, '../../../media');
const ID = 'VFlib000001';
let dataDir: string;
let libraryDir: string;
let app: VidFrameApp;
let entry: LibraryEntryJson;
let now = Date.now();
const tokens = apiTokensFor(SECRET, () => now);

const player = async (videoId: string): Promise<PlayerResponse> =>
  (await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { session_token: tokens.antiForgeryToken(), videoId } })).json();

/** Waits until `check` holds, asking every 20 ms, for at most 5 s (the watcher's quiet time is a tenth of a second). */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vidframe-data-'));
  // The default library: `<dataDir>/library`.
  libraryDir = join(dataDir, 'library');
  entry = writeLibraryVideo(libraryDir, ID);
  writeEntry(libraryDir, entry);
  app = await buildApp({ dataDir, mediaDir, distDir: join(dataDir, 'no-dist'), streamSecret: SECRET, rateLimit: false, now: () => now });
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the library folder', () => {
  it('is VIDFRAME_LIBRARY_DIR when set; otherwise the app takes <dataDir>/library (as this file’s app does)', () => {
    expect(readConfig({ VIDFRAME_LIBRARY_DIR: '/srv/vidframe/library' }).app.libraryDir).toBe('/srv/vidframe/library');
    expect(readConfig({ VIDFRAME_LIBRARY_DIR: ' ' }).app.libraryDir).toBeUndefined();
    expect(readConfig({}).app.libraryDir).toBeUndefined();
  });
});

describe('the player answer of a library video', () => {
  it('has its adaptive formats, DASH and HLS manifest URLs and storyboard, every URL root-relative under /library/', async () => {
    const answer = await player(ID);
    expect(readPlayerResponse(answer)).toBe(answer);
    const base = `/library/videos/${ID}/v1`;
    expect(answer.playabilityStatus).toEqual({ status: 'OK' });
    expect(answer.videoDetails).toMatchObject({ videoId: ID, title: 'A library video', thumbnailUrl: `${base}/poster.jpg`, lengthSeconds: 5.5 });
    const { formats, adaptiveFormats, dashManifestUrls, hlsManifestUrl } = answer.streamingData!;
    expect(formats).toEqual([{ quality: 'medium', width: 640, height: 360, url: `${base}/progressive.mp4`, mimeType: 'video/mp4; codecs="avc1.4d401e, mp4a.40.2"', contentLength: 300 }]);
    expect(adaptiveFormats![0]).toEqual<AdaptiveFormat>({
      kind: 'video',
      quality: 'tiny',
      width: 256,
      height: 144,
      bitrate: 104_000,
      mimeType: 'video/mp4; codecs="avc1.4d401e"',
      initUrl: `${base}/h264/init-0.m4s`,
      segmentUrl: `${base}/h264/seg-0-$Number%05d$.m4s`,
      startNumber: 1,
      segmentSeconds: 2,
      segmentBytes: [100, 101, 102],
    });
    expect(adaptiveFormats![2]).toEqual<AdaptiveFormat>({
      kind: 'audio',
      bitrate: 128_000,
      mimeType: 'audio/mp4; codecs="mp4a.40.2"',
      initUrl: `${base}/h264/init-2.m4s`,
      segmentUrl: `${base}/h264/seg-2-$Number%05d$.m4s`,
      startNumber: 1,
      segmentSeconds: 2,
      segmentBytes: [120, 121, 122],
    });
    expect(adaptiveFormats!.map((f) => f.segmentUrl.split('/').pop())).toEqual([
      'seg-0-$Number%05d$.m4s',
      'seg-1-$Number%05d$.m4s',
      'seg-2-$Number%05d$.m4s',
      'seg-3-$Number$.webm',
      'seg-4-$Number$.webm',
    ]);
    expect(dashManifestUrls).toEqual({ h264: `${base}/h264/manifest.mpd`, vp9: `${base}/vp9/manifest.mpd` });
    expect(hlsManifestUrl).toBe(`${base}/h264/master.m3u8`);
    expect(answer.storyboard).toEqual({
      sheetUrls: [`${base}/storyboard/sheet-000.jpg`, `${base}/storyboard/sheet-001.jpg`],
      intervalSeconds: 2,
      columns: 2,
      rows: 1,
      thumbWidth: 160,
      thumbHeight: 90,
      count: 3,
    });
  });

  it('serves every segment its answer names, with the size it states', async () => {
    const { adaptiveFormats } = (await player(ID)).streamingData!;
    for (const f of adaptiveFormats!) {
      expect((await app.inject(f.initUrl)).statusCode).toBe(200);
      for (const [k, bytes] of f.segmentBytes.entries()) {
        const url = f.segmentUrl.replace(/\$Number(?:%0(\d)d)?\$/, (_t, width?: string) => String(f.startNumber + k).padStart(Number(width ?? 0), '0'));
        const res = await app.inject(url);
        expect([url, res.statusCode, res.rawPayload.length]).toEqual([url, 200, bytes]);
      }
    }
  });

  it('a sample keeps its answer: no adaptive part, URLs under /media/', async () => {
    const answer = await player('VFsunrise01');
    expect(Object.keys(answer.streamingData!)).toEqual(['formats']);
    expect(answer.storyboard).toBeUndefined();
    expect(answer.videoDetails!.thumbnailUrl).toMatch(/^\/media\//);
  });

  it("serves a library video's poster at /vi/{id}/poster, and counts it in /healthz", async () => {
    const res = await app.inject(posterPath(ID));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(readFileSync(join(libraryDir, entry.poster as string)))).toBe(true);
    // Every sample of media/catalog.json and this library's one video.
    const samples = (JSON.parse(readFileSync(join(__dirname, '../../../media/catalog.json'), 'utf8')) as { videos: unknown[] }).videos.length;
    expect((await app.inject('/healthz')).json()).toMatchObject({ videos: samples + 1 });
  });
});

describe('GET /library/…', () => {
  const file = (name: string) => `/library/videos/${ID}/v1/${name}`;

  it.each([
    ['h264/manifest.mpd', 'application/dash+xml'],
    ['h264/master.m3u8', 'application/vnd.apple.mpegurl'],
    ['h264/init-0.m4s', 'video/iso.segment'],
    ['h264/seg-1-00002.m4s', 'video/iso.segment'],
    ['vp9/seg-3-1.webm', 'video/webm'],
    ['progressive.mp4', 'video/mp4'],
    ['storyboard/sheet-000.jpg', 'image/jpeg'],
  ])('serves %s as %s, readable by any origin, cached for a year', async (name, type) => {
    const res = await app.inject({ url: file(name), headers: { origin: 'https://other.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(String(res.headers['cache-control'])).toMatch(/max-age=31536000.*immutable/);
    expect(res.rawPayload.length).toBe(statSync(join(libraryDir, `videos/${ID}/v1/${name}`)).size);
  });

  it('answers a range with 206 and the right bytes', async () => {
    const res = await app.inject({ url: file('h264/seg-1-00002.m4s'), headers: { range: 'bytes=10-29' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 10-29/111');
    expect(res.headers['content-type']).toBe('video/iso.segment');
    expect(res.rawPayload.length).toBe(20);
  });

  it('lets any origin read the sample media too', async () => {
    const res = await app.inject(`/media/${findVideo(app.vidframe.catalog.current(), 'VFsunrise01')!.renditions[0]!.file}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toBe('video/webm');
  });

  it.each([`/library/entries/${ID}.json`, `/library/videos/../entries/${ID}.json`, '/library/videos/%2e%2e/entries/x.json', `/library/videos/${ID}/.hidden`, '/library/videos/none.m4s'])(
    'refuses %s with a 4xx: only the files under videos/ are served',
    async (url) => {
      const res = await app.inject(url);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    },
  );
});

describe('entries written while the server runs', () => {
  const title = async (id: string) => (await player(id)).videoDetails?.title;

  it('a flood of requests for unknown ids reads the library once per interval, not once per request', async () => {
    const catalog = app.vidframe.catalog;
    now += LIBRARY_RESCAN_MIN_INTERVAL_MS;
    const before = catalog.scans;
    for (let i = 0; i < 30; i++) expect((await player(`VFflood${String(i).padStart(4, '0')}`)).playabilityStatus.errorCode).toBe('video.unavailable');
    expect(catalog.scans).toBe(before + 1);
    now += LIBRARY_RESCAN_MIN_INTERVAL_MS;
    await player('VFflood0000');
    expect(catalog.scans).toBe(before + 2);
  });

  it('a new entry is served without a restart: the watcher reads it', async () => {
    const id = 'VFlib000002';
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, id, { title: 'Freshly ingested' }));
    // Asked without an id, the catalogue is never read for the request: only the watcher can bring the entry in.
    await eventually(() => findVideo(app.vidframe.catalog.current(), id) !== undefined, `${id} is in the catalogue`);
    expect(await title(id)).toBe('Freshly ingested');
    expect((await app.inject(posterPath(id))).statusCode).toBe(200);
  });

  it('a changed entry is served as it is now, its new version folder in its URLs', async () => {
    writeEntry(libraryDir, writeLibraryVideo(libraryDir, ID, { version: 'v2', title: 'Second cut' }));
    await eventually(async () => (await title(ID)) === 'Second cut', `${ID} has its new title`);
    expect((await player(ID)).streamingData!.adaptiveFormats![0]!.initUrl).toBe(`/library/videos/${ID}/v2/h264/init-0.m4s`);
  });

  it('a broken entry is skipped with a log line naming it and what is wrong; the others stay served', async () => {
    const warn = jest.spyOn(app.log, 'warn');
    try {
      const broken = writeLibraryVideo(libraryDir, 'VFlib000003');
      (broken.adaptive.formats[1]!.segmentBytes as number[])[0] = 7;
      writeEntry(libraryDir, broken);
      await eventually(() => warn.mock.calls.length > 0, 'the broken entry is logged');
      expect(String(warn.mock.calls[0]![0])).toBe(
        `Library: skipped entries/VFlib000003.json: Library ${libraryDir}, entry entries/VFlib000003.json (VFlib000003).adaptive.formats[1].segmentBytes[0]: is 7 but videos/VFlib000003/v1/h264/seg-1-00001.m4s has 110 bytes`,
      );
      expect((await player('VFlib000003')).playabilityStatus.errorCode).toBe('video.unavailable');
      expect(await title(ID)).toBe('Second cut');
    } finally {
      warn.mockRestore();
    }
  });

  it('a removed entry is no longer served', async () => {
    expect(await title('VFlib000002')).toBe('Freshly ingested');
    unlinkSync(join(libraryDir, 'entries/VFlib000002.json'));
    await eventually(async () => (await player('VFlib000002')).playabilityStatus.errorCode === 'video.unavailable', 'VFlib000002 is gone');
    expect((await app.inject(posterPath('VFlib000002'))).statusCode).toBe(404);
  });
});
