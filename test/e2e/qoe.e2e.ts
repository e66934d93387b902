import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { startShapingProxy, type ShapingProxy } from '../../bench/abr/shapingProxy';
import type { HostServer, RunningServer } from './helpers/servers';
import { withE2eEnvironment } from './helpers/environment';
import { collectorOf, countsOf, launchProfileBrowser, openEmbed, until, type Collector, type ProfileBrowser } from './telemetry.helpers';

/**
 * In the browser: the embed plays the adaptive sample through Media Source Extensions, and its quality of experience
 * (start-up time, the renditions on screen with their bitrates, bandwidth estimates, a rebuffer) reaches the real
 * collector through the page's logging, and the collector's time series charts it. The page's remaining events are
 * delivered the way a leaving viewer's are: by closing the page.
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
let proxy: ShapingProxy | undefined;
beforeEach(async () => {
  await collector.clearFaults();
  await collector.clear();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const VIDEO = 'VFladder001';
const ladderBitrates = (): number[] => {
  type Entry = { id: string; adaptive?: { formats: { kind: string; bitrate: number }[] } };
  const { videos } = JSON.parse(readFileSync(resolve(__dirname, '../../media/catalog.json'), 'utf8')) as { videos: Entry[] };
  const entry = videos.find((v) => v.id === VIDEO);
  return (entry?.adaptive?.formats ?? []).filter((f) => f.kind === 'video').map((f) => f.bitrate);
};

/**
 * Pauses the play, closes the page as a leaving viewer does, and waits until the collector holds every event the page
 * counted, one named `expected` among them; returns the media time played and each event's payloads by name.
 */
async function pauseAndCollect(page: Page, frame: Frame, pageId: string, expected: string) {
  await frame.evaluate(() => document.querySelector('video')!.pause());
  await frame.waitForSelector('.vf-player[data-state="2"]');
  const playedSec = await frame.evaluate(() => document.querySelector('video')!.currentTime);
  await frame.waitForFunction(() => window.vidframeTelemetryDiagnostics!.counts.events > 0);
  const counts = await countsOf(frame);
  await page.close({ runBeforeUnload: true });
  const events = await until(
    () => collector.events(pageId),
    (e) => e.length >= counts.events && e.some((x) => x.name === expected),
    `all ${counts.events} events of the page, a ${expected} among them`,
  );
  const payloads = (name: string) => events.filter((e) => e.name === name).map((e) => e.event[name]);
  return { playedSec, payloads };
}

describe('quality of experience at the collector', () => {
  it('logs the start-up time, the switch up with its reason, the renditions played and the bandwidth estimates of an adaptive playback', async () => {
    const startedAt = Date.now();
    // The embed loads over a 250 kbps link (the page's load measures it, so the stream starts on the lowest rung),
    // which becomes 5 Mbps once the video plays.
    proxy = await startShapingProxy({ target: server.origin, schedule: [{ atSeconds: 0, kbps: 250 }] });
    proxy.start();
    const { page, frame, pageId } = await openEmbed(browser, { ...server, origin: proxy.origin }, host, VIDEO, 'autoplay=1');
    // Playing through the stream (no progressive file on the element), for a few seconds, then paused.
    await frame.waitForSelector('.vf-player[data-state="1"]', { timeout: 30_000 });
    expect(await frame.evaluate(() => document.querySelector('video')!.getAttribute('src') ?? '')).not.toMatch(/progressive\.mp4/);
    proxy.setRate(5_000);
    // On the fast link the stream switches up: wait for a taller picture on screen, then play a second more.
    await frame.waitForFunction(() => document.querySelector('video')!.videoHeight > 144, undefined, { timeout: 30_000 });
    const switchedAt = await frame.evaluate(() => document.querySelector('video')!.currentTime);
    await frame.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 1, switchedAt, { timeout: 30_000 });
    const { playedSec, payloads } = await pauseAndCollect(page, frame, pageId, 'renditionPlayed');
    const bitrates = ladderBitrates();
    expect(bitrates.length).toBeGreaterThan(1);

    // One start-up time, from the load to the first frame, within the test's own span.
    const [startup, ...moreStartups] = payloads('startupTime');
    expect(moreStartups).toEqual([]);
    expect(startup).toEqual({ videoId: VIDEO, startupMs: expect.any(Number) });
    expect(startup.startupMs).toBeGreaterThan(0);
    expect(startup.startupMs).toBeLessThan(Date.now() - startedAt);

    // The renditions on screen while playing: ladder bitrates, their times adding up to about what played.
    const played = payloads('renditionPlayed');
    expect(played.length).toBeGreaterThan(0);
    for (const r of played) {
      expect(bitrates).toContain(r.bitrate);
      expect(r.videoId).toBe(VIDEO);
    }
    const playedMs = played.reduce((sum, r) => sum + r.durationMs, 0);
    expect(playedMs).toBeGreaterThan(playedSec * 1000 * 0.5);
    // The switch up is logged with the reason of the decision that chose it; each switch goes between two ladder
    // bitrates, and the last rendition played is the one the last switch put on screen.
    const switches = payloads('qualitySwitch');
    expect(switches.length).toBeGreaterThan(0);
    expect(switches[0]).toMatchObject({ videoId: VIDEO, fromQuality: played[0].quality });
    expect(switches[0].toBitrate).toBeGreaterThan(switches[0].fromBitrate);
    expect(played.at(-1).quality).toBe(switches.at(-1).toQuality);
    for (const s of switches) {
      expect(s.reason).not.toBe('unknown');
      expect(bitrates).toContain(s.fromBitrate);
      expect(bitrates).toContain(s.toBitrate);
    }
    // The bandwidth estimate: at least one, a positive rate.
    const estimates = payloads('bandwidthEstimate');
    expect(estimates.length).toBeGreaterThan(0);
    expect(estimates[0].bps).toBeGreaterThan(0);
    // Playback was never interrupted by waiting here: a rebuffer end, if any, has a start before it.
    expect(payloads('rebufferEnd').length).toBeLessThanOrEqual(payloads('rebufferStart').length);

    // The collector's chart data: the start-up percentiles and the time-weighted bitrate over the test's span.
    const response = await fetch(`${server.origin}/collector/api/timeseries?sinceMs=${startedAt - 60_000}&untilMs=${Date.now() + 60_000}&bucketMs=600000`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(response.status).toBe(200);
    const { buckets } = (await response.json()) as { buckets: Record<string, number>[] };
    const charted = buckets.filter((b) => b.startupP50Ms !== undefined);
    expect(charted.map((b) => b.startupP50Ms)).toEqual([startup.startupMs]);
    const weighted = buckets.find((b) => b.bitrateMeanBps !== undefined)!;
    expect(weighted.bitrateMeanBps).toBeGreaterThanOrEqual(Math.min(...bitrates));
    expect(weighted.bitrateMeanBps).toBeLessThanOrEqual(Math.max(...bitrates));
  });

  it('logs a real rebuffer: its start where the playhead waited, its end once the link came back, with how long it lasted', async () => {
    // A slow link keeps the buffer short; the link then goes dead until the playhead has waited, then comes back fast.
    proxy = await startShapingProxy({ target: server.origin, schedule: [{ atSeconds: 0, kbps: 400 }] });
    proxy.start();
    const { page, frame, pageId } = await openEmbed(browser, { ...server, origin: proxy.origin }, host, VIDEO, 'autoplay=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.5, undefined, { timeout: 30_000 });
    proxy.setRate(0);
    await frame.waitForSelector('.vf-player[data-state="3"]', { timeout: 40_000 });
    const waitedAt = await frame.evaluate(() => document.querySelector('video')!.currentTime);
    // The link stays dead a measured half second after the player said so: a lower bound for the logged duration.
    await frame.waitForTimeout(500);
    proxy.setRate(5_000);
    await frame.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 0.5, waitedAt, { timeout: 30_000 });
    const { payloads } = await pauseAndCollect(page, frame, pageId, 'rebufferEnd');
    const starts = payloads('rebufferStart');
    const ends = payloads('rebufferEnd');
    expect(starts.length).toBeGreaterThan(0);
    expect(ends).toHaveLength(starts.length);
    const last = ends.at(-1);
    expect(last).toMatchObject({ videoId: VIDEO });
    expect(starts.some((r: { mediaTimeSec: number }) => Math.abs(r.mediaTimeSec - waitedAt) < 0.5)).toBe(true);
    // It lasted at least the half second the link stayed dead after the player said it was buffering.
    expect(last.durationMs).toBeGreaterThanOrEqual(500);
  }, 120_000);
});
