/**
 * `npm run bench -- abr`: VidFrame's embed against hls.js (HLS), shaka-player and dash.js (DASH), playing the same
 * H.264 ladder (`bench/abr/entry.ts`) under the same bandwidth schedules (`bench/abr/schedules.ts`).
 *
 * Every byte a player fetches goes through a fresh shaping proxy per play (`bench/abr/shapingProxy.ts`), whose clock
 * starts at the navigation: the peers' pages, dist files and media from the bench's static origin
 * (`bench/abr/pages.ts`), the embed's page, scripts and media from the reference server (`server/main.ts` in a process
 * of its own, with the entry's library as `VIDFRAME_LIBRARY_DIR`; it serves `dist/`, so `npm run build` first). The embed is framed by a host page
 * on an origin of its own, unshaped. Each play is a fresh Chromium with a fresh profile; the players play one after
 * another (never two at once: the machine's cores are few), their order turning from run to run. The figures come from
 * the `<video>` element alone (`bench/abr/probe.ts`, `bench/abr/metrics.ts`); the proxy's count of the bytes it carried
 * in each second goes into the result with them, as the proof that the link held to the schedule.
 *
 * Settings: `BENCH_ABR_RUNS` (plays of each player per schedule, default 5), `BENCH_ABR_SECONDS` (the length of each
 * play, default 60), `BENCH_ABR_SCHEDULES` (names, comma-separated; all by default), `BENCH_ABR_PLAYERS` (default all
 * four), `--entry <path>` or `BENCH_ABR_ENTRY` (the catalogue entry to play).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchProfileBrowser } from '../../test/e2e/helpers/browser';
import { onCleanup, startCurrentServer } from '../benchProcesses';
import { bitrateOf, loadBenchEntry, type BenchEntry } from './entry';
import { playMetrics, type PlayMetrics } from './metrics';
import { hostPage, PEERS, startStaticOrigin, type Player } from './pages';
import { PROBE_SCRIPT, type Probe } from './probe';
import { schedulesNamed, type Schedule } from './schedules';
import { startShapingProxy, type BandwidthStep, type ShapingProxy } from './shapingProxy';

export interface PlayRecord extends PlayMetrics {
  run: number;
  /** What the proxy carried: body bytes in all, the most any second carried over what the schedule gave it. */
  link: { deliveredBytes: number; maxSecondRatio: number; bytesInOutage: number };
  /** The page's first errors (uncaught, or logged as errors), for a play that went wrong. */
  errors: string[];
}

export interface ScheduleResult {
  name: string;
  description: string;
  steps: BandwidthStep[];
  plays: Partial<Record<Player, PlayRecord[]>>;
}

export interface AbrBenchResult {
  entry: { id: string; path: string; ladder: BenchEntry['ladder']; segmentSeconds: number };
  runs: number;
  seconds: number;
  players: Player[];
  schedules: ScheduleResult[];
}

interface Setup {
  entry: BenchEntry;
  seconds: number;
  origins: { peers: string; vidframe?: string; host?: string };
}

/** The page a player is opened on, through `proxy`. */
function playerUrl(player: Player, proxy: ShapingProxy, { entry, origins }: Setup): string {
  if (player !== 'vidframe') return `${proxy.origin}/player/${player}`;
  const embed = `${proxy.origin}/embed/${entry.id}?autoplay=1&mute=1&controls=0`;
  return `${origins.host}/?src=${encodeURIComponent(embed)}`;
}

/** The probe of the frame that has the `<video>` (the page's own, or the embed's frame). */
async function readProbe(page: Page): Promise<Probe> {
  const probes = await Promise.all(page.frames().map((f) => f.evaluate(() => (window as unknown as { __abr?: Probe }).__abr ?? null).catch(() => null)));
  const found = probes.filter((p): p is Probe => p !== null && p.found).sort((a, b) => b.samples.length - a.samples.length);
  return found[0] ?? { found: false, events: [], samples: [] };
}

function linkFigures(proxy: ShapingProxy): PlayRecord['link'] {
  const perSecond = proxy.deliveredPerSecond();
  let maxSecondRatio = 0;
  let bytesInOutage = 0;
  perSecond.forEach((bytes, s) => {
    const allowed = proxy.scheduledBytes(s, s + 1);
    if (allowed > 0) maxSecondRatio = Math.max(maxSecondRatio, bytes / allowed);
    else bytesInOutage += bytes;
  });
  return { deliveredBytes: perSecond.reduce((a, b) => a + b, 0), maxSecondRatio, bytesInOutage };
}

async function playOnce(player: Player, steps: BandwidthStep[], run: number, setup: Setup): Promise<PlayRecord> {
  const target = player === 'vidframe' ? setup.origins.vidframe! : setup.origins.peers;
  const proxy = await startShapingProxy({ target, schedule: steps });
  const viewer = await launchProfileBrowser();
  try {
    await viewer.context.addInitScript({ content: PROBE_SCRIPT });
    const page = await viewer.context.newPage();
    const errors: string[] = [];
    const note = (text: string) => errors.length < 5 && errors.push(text.slice(0, 300));
    page.on('pageerror', (e) => note(String(e)));
    page.on('console', (m) => m.type() === 'error' && note(m.text()));
    const url = playerUrl(player, proxy, setup);
    proxy.start();
    const navigationAt = Date.now();
    await page.goto(url, { waitUntil: 'commit', timeout: setup.seconds * 1000 });
    await page.waitForTimeout(Math.max(0, navigationAt + setup.seconds * 1000 - Date.now()));
    const endAt = Date.now();
    const probe = await readProbe(page);
    const metrics = playMetrics(probe, { navigationAt, endAt, bitrateOf: (h) => bitrateOf(setup.entry, h), segmentSeconds: setup.entry.segmentSeconds });
    return { run, ...metrics, link: linkFigures(proxy), errors };
  } finally {
    await viewer.close();
    await proxy.close();
  }
}

function failedPlay(run: number, error: unknown): PlayRecord {
  const metrics = playMetrics({ found: false, events: [], samples: [] }, { navigationAt: 0, endAt: 0, bitrateOf: () => NaN, segmentSeconds: 2 });
  return { run, ...metrics, link: { deliveredBytes: 0, maxSecondRatio: 0, bytesInOutage: 0 }, errors: [String(error).slice(0, 300)] };
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`abr: ${name} must be a whole number above 0, not "${process.env[name]}"`);
  return value;
}

function playersWanted(): Player[] {
  const all: Player[] = ['vidframe', ...PEERS];
  const names = process.env.BENCH_ABR_PLAYERS?.split(',').map((n) => n.trim());
  if (!names) return all;
  for (const n of names) if (!(all as string[]).includes(n)) throw new Error(`abr: no player "${n}" (${all.join(', ')})`);
  return all.filter((p) => names.includes(p));
}

/** The host page's origin: serves {@link hostPage} on the `src` it is given. */
async function startHostOrigin(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? 'about:blank';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(src));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://localhost:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

async function startOrigins(entry: BenchEntry, players: Player[]) {
  const peers = await startStaticOrigin(entry.libraryDir, { hls: entry.hls, dash: entry.dashH264 });
  if (!players.includes('vidframe')) return { origins: { peers: peers.origin }, close: () => peers.close() };
  // The server as `npm run serve` runs it, in a process of its own (so that its work is not the harness's), with the
  // entry's library and a throw-away data folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'vidframe-abr-'));
  const removeData = onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const vidframe = await startCurrentServer({ VIDFRAME_DATA_DIR: dataDir, VIDFRAME_LIBRARY_DIR: entry.libraryDir, VIDFRAME_RATE_LIMIT: 'off' }, 60_000);
  const host = await startHostOrigin();
  return {
    origins: { peers: peers.origin, vidframe: vidframe.origin, host: host.origin },
    close: async () => {
      await Promise.all([peers.close(), host.close()]);
      await vidframe.stop();
      rmSync(dataDir, { recursive: true, force: true });
      removeData();
    },
  };
}

export async function runAbrBench(args: string[]): Promise<AbrBenchResult> {
  const entry = loadBenchEntry(args);
  const runs = envNumber('BENCH_ABR_RUNS', 5);
  const seconds = envNumber('BENCH_ABR_SECONDS', 60);
  const schedules: Schedule[] = schedulesNamed(process.env.BENCH_ABR_SCHEDULES);
  const players = playersWanted();
  console.log(`abr: ${entry.id} (${entry.entryPath}), ${schedules.length} schedules × ${runs} runs × ${players.length} players × ${seconds} s`);
  const { origins, close } = await startOrigins(entry, players);
  const setup: Setup = { entry, seconds, origins };
  const results: ScheduleResult[] = [];
  try {
    for (const schedule of schedules) {
      const steps = schedule.steps(seconds);
      const result: ScheduleResult = { name: schedule.name, description: schedule.description, steps, plays: {} };
      results.push(result);
      for (let run = 0; run < runs; run++) {
        // The order turns from run to run, so that no player always follows the same one.
        const order = players.map((_, i) => players[(i + run) % players.length]);
        for (const player of order) {
          // A play that fails (the browser, the page) is recorded as not played, with the reason; the others go on.
          const play = await playOnce(player, steps, run, setup).catch((error: unknown) => failedPlay(run, error));
          (result.plays[player] ??= []).push(play);
          const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '—');
          console.log(
            `  ${schedule.name} #${run + 1} ${player.padEnd(8)} startup ${f(play.startupMs)} ms, stalls ${f(play.stalls)}, rebuffer ${f(play.rebufferSeconds, 1)} s, ` +
              `${f(play.bitrateKbps)} kbps, switches ${f(play.switches)}, QoE/seg ${f(play.qoePerSegment, 3)}, link ≤ ${play.link.maxSecondRatio.toFixed(3)}×` +
              (play.played ? '' : `  (did not play${play.errors[0] ? `: ${play.errors[0]}` : ''})`),
          );
        }
      }
    }
  } finally {
    await close();
  }
  return {
    entry: { id: entry.id, path: entry.entryPath, ladder: entry.ladder, segmentSeconds: entry.segmentSeconds },
    runs,
    seconds,
    players,
    schedules: results,
  };
}
