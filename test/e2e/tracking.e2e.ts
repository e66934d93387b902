import type { BrowserContext } from 'playwright-core';
import type { StoredPing } from '../../server/collector/store';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { collectorOf, launchProfileBrowser, openEmbed, until, type Collector, type ProfileBrowser } from './telemetry.helpers';

/**
 * Spec §7 ping beacons and `video_stats` in the browser: the real embed, framed by a host on another origin, plays a
 * sample video; the real collector shows its playback ping and watchtime pings (read through the admin API), and a
 * debugging event of the page arrives with endpoint `video_stats`. Production constants: the watchtime interval is
 * 10 s, log batches leave on page close (keepalive). No fixed sleeps: every wait is a condition in the page or a
 * bounded poll of the collector.
 */
let server: RunningServer;
let host: HostServer;
let profile: ProfileBrowser;
let browser: BrowserContext;
let collector: Collector;

withE2eEnvironment((env) => {
  ({ server, host, browser: profile } = env);
  browser = profile.context;
  collector = collectorOf(server);
}, launchProfileBrowser);
beforeEach(async () => {
  await collector.clear();
});

/** Every ping the collector holds for `docid`, oldest first. */
async function pingsOf(docid: string): Promise<StoredPing[]> {
  const response = await fetch(`${server.origin}/collector/api/pings?limit=500&docid=${docid}`, { headers: { authorization: `Bearer ${server.adminToken}` } });
  if (!response.ok) throw new Error(`GET /collector/api/pings: ${response.status} ${await response.text()}`);
  return (await response.json()).items as StoredPing[];
}
const watchtime = (pings: StoredPing[]) => pings.filter((p) => p.kind === 'watchtime');
/** Seconds played, by the segments of these pings. */
const played = (pings: StoredPing[]) => pings.reduce((sum, p) => sum + p.et.reduce((s, end, i) => s + end - p.st[i], 0), 0);

describe('ping beacons at the collector', () => {
  it('a video played to its end: the playback ping, a watchtime ping 10 s in, the end (1 straight to 0, no pause); the segments cover the video', async () => {
    const { frame } = await openEmbed(browser, server, host, 'VFsunrise01', 'autoplay=1&mute=1');
    const tracking = await frame.evaluate(() => (window.vidframeConfig as any).args.player_response.playbackTracking);
    const ei = new URLSearchParams(tracking.videostatsPlaybackUrl.baseUrl.split('?')[1]).get('ei');

    await frame.waitForSelector('.vf-player[data-state="0"]', { timeout: 40_000 });
    const pings = await until(
      () => pingsOf('VFsunrise01'),
      (p) => watchtime(p).some((w) => w.state === 'ended'),
      'the ping of the end',
    );

    const [playback, ...rest] = pings;
    expect(playback).toMatchObject({ kind: 'playback', docid: 'VFsunrise01', ei, seq: 0, len: 12.008, st: [], et: [] });
    expect(playback.cmt).toBeLessThan(1);
    expect(playback.cpn).toMatch(/^[\w-]{16}$/);
    // One playback: the same response and nonce on every ping, numbered 1, 2, … in order.
    for (const [i, p] of rest.entries()) expect(p).toMatchObject({ kind: 'watchtime', ei, cpn: playback.cpn, seq: i + 1 });
    const states = rest.map((p) => p.state);
    // The interval ping 10 s after playing started, then the end's own ping, which takes the last segment: the pause
    // the element fires at its end is not a state of the player (issue 17 item 10), so no paused ping comes between.
    expect(states).toEqual(['playing', 'ended']);
    const last = rest[rest.length - 1];
    expect(last.st).toHaveLength(1);
    expect(last.et[0]).toBeCloseTo(12, 0);
    expect(last.cmt).toBeCloseTo(12, 0);
    expect(rest[0].cmt).toBeGreaterThan(8);
    expect(rest[0].cmt).toBeLessThan(11.5);
    expect(rest[0].rt).toBeGreaterThan(playback.rt);
    // Segments follow each other: each ping starts where the previous one ended (±0.3 s of time update granularity).
    const segments = rest.flatMap((p) => p.st.map((st, i) => [st, p.et[i]]));
    expect(segments[0][0]).toBeLessThan(1);
    for (let i = 1; i < segments.length; i++) expect(Math.abs(segments[i][0] - segments[i - 1][1])).toBeLessThan(0.3);
    expect(played(rest)).toBeGreaterThan(11);
    expect(played(rest)).toBeLessThan(12.5);
    await frame.page().close();
  });

  it('pings at pause, and a final ping when the viewer leaves', async () => {
    const { page, frame } = await openEmbed(browser, server, host, 'VFcitylight', 'autoplay=1&mute=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 1.5);
    await frame.evaluate(() => document.querySelector('video')!.pause());
    await frame.waitForSelector('.vf-player[data-state="2"]');
    const pausedAt = await frame.evaluate(() => document.querySelector('video')!.currentTime);
    const atPause = await until(
      () => pingsOf('VFcitylight'),
      (p) => watchtime(p).some((w) => w.state === 'paused'),
      'the ping at pause',
    );
    const paused = watchtime(atPause).find((w) => w.state === 'paused')!;
    expect(paused.cmt).toBeCloseTo(pausedAt, 1);
    expect(paused.et[paused.et.length - 1]).toBeCloseTo(pausedAt, 1);
    expect(paused.final).toBe(false);

    // Playing again, then the viewer leaves: the page's hiding sends the last ping, through keepalive.
    await frame.evaluate(() => document.querySelector('video')!.play());
    await frame.waitForFunction((from) => document.querySelector('video')!.currentTime > from + 1, pausedAt);
    const leftAt = await frame.evaluate(() => document.querySelector('video')!.currentTime);
    await page.close({ runBeforeUnload: true });

    const pings = await until(
      () => pingsOf('VFcitylight'),
      (p) => watchtime(p).some((w) => w.final),
      'the final ping',
    );
    const final = watchtime(pings).find((w) => w.final)!;
    expect(final).toMatchObject({ cpn: paused.cpn, seq: paused.seq + 1, state: 'playing' });
    // Within 0.3 s: the page reads the time a moment after the test's own read of it.
    expect(Math.abs(final.st[0] - pausedAt)).toBeLessThan(0.3);
    expect(final.et[final.et.length - 1]).toBeGreaterThanOrEqual(leftAt - 0.3);
    expect(final.et[final.et.length - 1]).toBeLessThan(leftAt + 1);
  });

  it('a media error is logged as a debugging event with its MediaError code, and arrives with endpoint video_stats', async () => {
    const { page, frame, pageId } = await openEmbed(browser, server, host, 'VFbrokenvid', 'autoplay=1');
    await frame.waitForSelector('.vf-error');
    const code = await frame.evaluate(() => document.querySelector('video')!.error?.code);
    expect(code).toBeGreaterThanOrEqual(1);
    await page.close({ runBeforeUnload: true });

    const events = await until(
      () => collector.events(pageId),
      (e) => e.some((x) => x.name === 'mediaError'),
      'the mediaError event',
    );
    const debug = events.filter((e) => e.name === 'mediaError');
    expect(debug).toHaveLength(1);
    expect(debug[0].endpoint).toBe('video_stats');
    expect(debug[0].event.mediaError).toMatchObject({ videoId: 'VFbrokenvid', code });
    expect(typeof debug[0].event.mediaError.message).toBe('string');
    // It went in a request of its own to video_stats, with the page's context like every log request.
    const requests = await collector.requests(pageId);
    const videoStats = requests.filter((r) => r.endpoint === 'video_stats');
    expect(videoStats).toHaveLength(1);
    expect(videoStats[0].serializedClientEventId?.serializedEventId).toBe(pageId);
    // The broken video never played: no playback ping, no watchtime ping.
    expect(await pingsOf('VFbrokenvid')).toEqual([]);
  });
});
