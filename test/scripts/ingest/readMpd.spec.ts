import { readMpd, segmentFileName } from '../../../scripts/ingest/readMpd';
import { buildEntry, formatEntry, measuredBitrate, type FamilyOutput } from '../../../scripts/ingest/buildEntry';
import { masterPlaylist, tidyMediaPlaylist } from '../../../scripts/ingest/hlsPlaylists';
import { chooseLadder } from '../../../scripts/ingest/ladder';

/** A manifest as ffmpeg 5.1's dash muxer writes it (trimmed): templates inside each representation. */
const H264_MPD = `<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="PT5.0S">
	<Period id="0" start="PT0.0S">
		<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" frameRate="25/1" maxWidth="320" maxHeight="240" par="4:3">
			<Representation id="0" mimeType="video/mp4" codecs="avc1.4d400c" bandwidth="151777" width="192" height="144" sar="1:1">
				<SegmentTemplate timescale="1000000" duration="2000000" initialization="init-$RepresentationID$.m4s" media="seg-$RepresentationID$-$Number%05d$.m4s" startNumber="1">
				</SegmentTemplate>
			</Representation>
			<Representation id="1" mimeType="video/mp4" codecs="avc1.4d400d" bandwidth="340067" width="320" height="240" sar="1:1">
				<SegmentTemplate timescale="1000000" duration="2000000" initialization="init-$RepresentationID$.m4s" media="seg-$RepresentationID$-$Number%05d$.m4s" startNumber="1">
				</SegmentTemplate>
			</Representation>
		</AdaptationSet>
		<AdaptationSet id="1" contentType="audio" startWithSAP="1" segmentAlignment="true">
			<Representation id="2" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000">
				<AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2" />
				<SegmentTemplate timescale="1000000" duration="2000000" initialization="init-$RepresentationID$.m4s" media="seg-$RepresentationID$-$Number%05d$.m4s" startNumber="1">
				</SegmentTemplate>
			</Representation>
		</AdaptationSet>
	</Period>
</MPD>`;

describe('readMpd', () => {
  it("reads each representation's type, codecs, size and segment template, the representation id filled in", () => {
    expect(readMpd(H264_MPD)).toEqual([
      {
        id: '0',
        contentType: 'video',
        mimeType: 'video/mp4',
        codecs: 'avc1.4d400c',
        width: 192,
        height: 144,
        initialization: 'init-0.m4s',
        media: 'seg-0-$Number%05d$.m4s',
        startNumber: 1,
        segmentSeconds: 2,
      },
      expect.objectContaining({ id: '1', codecs: 'avc1.4d400d', width: 320, height: 240, media: 'seg-1-$Number%05d$.m4s' }),
      {
        id: '2',
        contentType: 'audio',
        mimeType: 'audio/mp4',
        codecs: 'mp4a.40.2',
        initialization: 'init-2.m4s',
        media: 'seg-2-$Number%05d$.m4s',
        startNumber: 1,
        segmentSeconds: 2,
      },
    ]);
  });

  it("reads a template the adaptation set holds for all its representations, and the set's mime type", () => {
    const xml = `<MPD><Period><AdaptationSet contentType="audio" mimeType="audio/webm" codecs="opus">
      <SegmentTemplate timescale="1000" duration="4000" initialization="i-$RepresentationID$.webm" media="s-$RepresentationID$-$Number$.webm" startNumber="0"/>
      <Representation id="a" bandwidth="96000"/></AdaptationSet></Period></MPD>`;
    expect(readMpd(xml)).toEqual([
      {
        id: 'a',
        contentType: 'audio',
        mimeType: 'audio/webm',
        codecs: 'opus',
        initialization: 'i-a.webm',
        media: 's-a-$Number$.webm',
        startNumber: 0,
        segmentSeconds: 4,
      },
    ]);
  });

  it('refuses what is not a manifest it can read', () => {
    expect(() => readMpd('<html></html>')).toThrow('the DASH manifest has no MPD element');
    expect(() => readMpd('<MPD><AdaptationSet contentType="video"><Representation id="0" mimeType="video/mp4" codecs="x"/></AdaptationSet></MPD>')).toThrow(
      'the DASH manifest names no SegmentTemplate for 0',
    );
    expect(() => readMpd('<MPD><AdaptationSet contentType="text"><Representation id="0" mimeType="text/vtt"/></AdaptationSet></MPD>')).toThrow(
      'the DASH manifest has a text representation',
    );
  });

  it('names segment files from a template', () => {
    expect(segmentFileName('seg-0-$Number%05d$.m4s', 7)).toBe('seg-0-00007.m4s');
    expect(segmentFileName('s-$Number$.webm', 12)).toBe('s-12.webm');
  });
});

describe('the entry and the HLS playlists', () => {
  const rungs = chooseLadder(240, 4 / 3);
  const h264: FamilyOutput = {
    family: 'h264',
    manifest: 'h264/manifest.mpd',
    rungs,
    representations: readMpd(H264_MPD),
    segmentBytes: [
      [25000, 20000, 5000],
      [50000, 40000, 10000],
      [32000, 32000, 16000],
    ],
  };
  const vp9: FamilyOutput = { ...h264, family: 'vp9', manifest: 'vp9/manifest.mpd' };
  const input = {
    id: 'VFtest00001',
    title: 'Test',
    author: 'Ann',
    channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
    durationSeconds: 5,
    base: 'videos/VFtest00001/abc',
    families: [h264, vp9],
    progressive: { quality: 'small', width: 320, height: 240, file: 'progressive.mp4', codecs: 'avc1.4d400d, mp4a.40.2', bytes: 1234 },
    storyboard: { sheets: ['storyboard/sheet-000.jpg'], intervalSeconds: 2, columns: 10, rows: 10, thumbWidth: 160, thumbHeight: 90, count: 3 },
    poster: 'poster.jpg',
    hls: 'h264/master.m3u8',
    segmentSeconds: 2,
  };
  const entry = buildEntry(input);

  it('states each format as the contract says: quality, size, measured bit rate, paths under the version folder', () => {
    expect(entry.adaptive.formats[0]).toEqual({
      kind: 'video',
      quality: 'tiny',
      width: 192,
      height: 144,
      bitrate: 80000, // 50,000 bytes × 8 / 5 s
      mimeType: 'video/mp4; codecs="avc1.4d400c"',
      init: 'videos/VFtest00001/abc/h264/init-0.m4s',
      segments: 'videos/VFtest00001/abc/h264/seg-0-$Number%05d$.m4s',
      startNumber: 1,
      segmentSeconds: 2,
      segmentBytes: [25000, 20000, 5000],
    });
    expect(entry.adaptive.formats.map((f) => `${f.kind}:${f.quality ?? ''}`)).toEqual([
      'video:tiny',
      'video:small',
      'audio:',
      'video:tiny',
      'video:small',
      'audio:',
    ]);
    expect(entry.adaptive.dash).toEqual({ h264: 'videos/VFtest00001/abc/h264/manifest.mpd', vp9: 'videos/VFtest00001/abc/vp9/manifest.mpd' });
    expect(entry.renditions).toEqual([
      {
        quality: 'small',
        width: 320,
        height: 240,
        file: 'videos/VFtest00001/abc/progressive.mp4',
        mimeType: 'video/mp4; codecs="avc1.4d400d, mp4a.40.2"',
        bytes: 1234,
      },
    ]);
    expect(entry.storyboard.sheets).toEqual(['videos/VFtest00001/abc/storyboard/sheet-000.jpg']);
    expect(measuredBitrate([1000, 1000], 2)).toBe(8000);
  });

  it('refuses a manifest whose renditions do not match the rungs', () => {
    const wrong = { ...h264, rungs: chooseLadder(360, 4 / 3) };
    expect(() => buildEntry({ ...input, families: [wrong] })).toThrow('the h264 manifest has 2 video representations for 3 rungs');
  });

  it('writes the entry as JSON that reads back to itself, one format per line', () => {
    const text = formatEntry(entry, '    ');
    expect(JSON.parse(text)).toEqual(entry);
    expect(text.split('\n').filter((l) => l.includes('"kind"'))).toHaveLength(6);
    expect(text.startsWith('    {\n      "id": "VFtest00001",\n')).toBe(true);
  });

  it('drops the wall-clock stamps from a media playlist and marks it VOD', () => {
    const tidy = tidyMediaPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n#EXT-X-PROGRAM-DATE-TIME:2026-11-28T00:31:05.000+0000\nseg-0-00001.m4s\n');
    expect(tidy).toBe('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\nseg-0-00001.m4s\n');
  });

  it('writes a master playlist with the measured peak and average bandwidth of each variant, audio included', () => {
    const [tiny, small, audio] = entry.adaptive.formats;
    const text = masterPlaylist([tiny, small], audio, 25, (f) => `media_${entry.adaptive.formats.indexOf(f)}.m3u8`);
    expect(text).toContain('#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="media_2.m3u8"');
    // Peak: 25,000 + 32,000 bytes in one 2 s segment = 228,000 bit/s; average 80,000 + 128,000.
    expect(text).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=228000,AVERAGE-BANDWIDTH=208000,RESOLUTION=192x144,FRAME-RATE=25.000,CODECS="avc1.4d400c,mp4a.40.2",AUDIO="audio"\nmedia_0.m3u8',
    );
    expect(text).toContain('RESOLUTION=320x240');
  });
});
