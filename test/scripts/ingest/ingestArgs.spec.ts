import { DEFAULT_CHANNEL, DEFAULT_LIBRARY, INGEST_USAGE, parseIngestArgs } from '../../../scripts/ingest/ingestArgs';
import { EXIT } from '../../../scripts/ingest/ingestErrors';
import { channelIdFor, titleFromFileName, versionOf, videoIdFromDigest } from '../../../scripts/ingest/ids';

const parse = (argv: string[], env: Record<string, string> = {}, tty = false) => parseIngestArgs(argv, env, tty);

describe('parseIngestArgs', () => {
  it('reads a file and the defaults: the library from VIDFRAME_LIBRARY_DIR, else .data/library; bar on a terminal', () => {
    expect(parse(['clip.mp4'])).toEqual({
      kind: 'run',
      options: { file: 'clip.mp4', channel: DEFAULT_CHANNEL, library: DEFAULT_LIBRARY, preset: 'normal', threads: 0, progress: 'lines' },
    });
    expect(parse(['clip.mp4'], { VIDFRAME_LIBRARY_DIR: '/srv/lib' }, true)).toMatchObject({ options: { library: '/srv/lib', progress: 'bar' } });
  });

  it('reads every option, as `--name value` or `--name=value`, and `--` before a file that starts with a dash', () => {
    const parsed = parse(
      ['--id', 'VFabc_-1234', '--title=My trip', '--channel', ' Ann ', '--library', 'lib', '--fast', '--threads=1', '--plain', '--', '-odd.mp4'],
      {},
      true,
    );
    expect(parsed).toEqual({
      kind: 'run',
      options: { file: '-odd.mp4', id: 'VFabc_-1234', title: 'My trip', channel: 'Ann', library: 'lib', preset: 'fast', threads: 1, progress: 'lines' },
    });
  });

  it('answers --help with the usage, which lists the exit codes and the limits', () => {
    expect(parse(['x.mp4', '--help'])).toEqual({ kind: 'help' });
    expect(parse(['-h'])).toEqual({ kind: 'help' });
    for (const code of Object.values(EXIT)) expect(INGEST_USAGE).toMatch(new RegExp(`^  ${code} `, 'm'));
    expect(INGEST_USAGE).toContain('apt-get install ffmpeg');
    expect(INGEST_USAGE).toContain('at most 4 h long, 16 GiB');
  });

  it.each([
    [[], 'no source file given'],
    [['a.mp4', 'b.mp4'], 'one source file at a time (got 2)'],
    [['a.mp4', '--id', 'short'], '--id must be 11 characters of [A-Za-z0-9_-]'],
    [['a.mp4', '--id', 'VFabc!12345'], '--id must be 11 characters of [A-Za-z0-9_-]'],
    [['a.mp4', '--id'], '--id needs a value'],
    [['a.mp4', '--speed', '2'], 'unknown option --speed'],
    [['a.mp4', '--threads', '-1'], '--threads must be a whole number from 0 (ffmpeg chooses) to 64'],
    [['a.mp4', '--threads', 'two'], '--threads must be a whole number from 0 (ffmpeg chooses) to 64'],
    [['a.mp4', '--title', '  '], '--title must be 1 to 200 characters of text, without control characters'],
    [['a.mp4', '--channel', 'a\u0007b'], '--channel must be 1 to 200 characters of text, without control characters'],
    [['a.mp4', '--title', 'x'.repeat(201)], '--title must be 1 to 200 characters of text, without control characters'],
    [['a.mp4', '--library', ''], '--library must name a folder'],
  ])('refuses %j: %s', (argv, message) => {
    expect(parse(argv)).toEqual({ kind: 'error', message });
  });
});

describe('the derived names', () => {
  const digest = 'b10424aaebcbcc03145e46f439a9d1832ee157b78852b133a24c44b3d527ccef';

  it('derives an 11-character video id from the source digest, the same every time', () => {
    expect(videoIdFromDigest(digest)).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(videoIdFromDigest(digest)).toBe(videoIdFromDigest(digest));
    expect(videoIdFromDigest(digest.replace('b1', 'b2'))).not.toBe(videoIdFromDigest(digest));
  });

  it('derives one channel id per author: UC + 22 characters, different for another author', () => {
    expect(channelIdFor('Ann')).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    expect(channelIdFor('Ann')).toBe(channelIdFor('Ann'));
    expect(channelIdFor('Bob')).not.toBe(channelIdFor('Ann'));
  });

  it('names the version from the source and the settings: either changing gives another', () => {
    const v = versionOf(digest, { preset: 'normal' });
    expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(versionOf(digest, { preset: 'normal' })).toBe(v);
    expect(versionOf(digest, { preset: 'fast' })).not.toBe(v);
    expect(versionOf(digest.replace('b1', 'b2'), { preset: 'normal' })).not.toBe(v);
  });

  it('takes the default title from the file name', () => {
    expect(titleFromFileName('/videos/My_summer__trip.final.mp4')).toBe('My summer trip.final');
    expect(titleFromFileName('clip.mp4')).toBe('clip');
    expect(titleFromFileName('.mp4')).toBe('.mp4');
    expect(titleFromFileName('___.mov')).toBe('Untitled video');
  });
});
