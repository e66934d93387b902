/**
 * Where a cold load of the framed embed spends its time: the frame's navigation and every resource it
 * fetched (requested, sent, first byte, last byte) and its `performance.mark`s, each as the median over several cold
 * loads, in milliseconds from the iframe's creation on the host — the clock of `npm run bench -- page`.
 *
 *   npm run build
 *   node --import tsx bench/loadTimeline.ts            # the embed; `bare` for the bare page of bench/embedPage.ts
 *
 * Settings (environment): `TIMELINE_LOADS` (default 10) cold loads; `TIMELINE_SERVER=process` runs the reference
 * server in a process of its own, as `npm start` does (the page benchmark runs it inside the benchmark's process, whose
 * event loop Playwright's driver shares, which can delay its answers). The frame is the page benchmark's: framed
 * cross-site by a listening host, `enablejsapi=1`, autoplay, muted. A `performance.mark` added to the page while
 * investigating shows up as `mark <name>`. Figures only; nothing is asserted.
 */
import { BENCH_MEDIA_PATH, openFrame, newViewer, startBenchPages, type Kind } from './benchFrame';
import { startCurrentServer, tempDir } from './benchProcesses';

const kind: Kind = process.argv.includes('bare') ? 'bare' : 'vidframe';
const loads = Number(process.env.TIMELINE_LOADS ?? 10);

// `TIMELINE_SERVER=process`: the reference server in a process of its own (as `npm start` runs it) instead of this one,
// where Playwright's driver shares its event loop.
const own = process.env.TIMELINE_SERVER === 'process' ? tempDir('vidframe-timeline-') : undefined;
const child = own ? await startCurrentServer({ VIDFRAME_DATA_DIR: own.dir }, 60_000) : undefined;
const { servers, close } = await startBenchPages(
  child
    ? {
        origin: child.origin,
        close: async () => {
          await child.stop();
          own?.remove();
        },
      }
    : undefined,
);
const rows = new Map<string, number[]>();
try {
  for (let i = 0; i < loads; i++) {
    const viewer = await newViewer();
    const context = viewer.context;
    try {
      const { page, frame } = await openFrame(context, servers, kind, BENCH_MEDIA_PATH);
      const { created, ready } = await page.evaluate(() => (window as unknown as { bench: { created: number; ready: number } }).bench);
      // (No named functions in here: the TypeScript loader would wrap them in a helper the page lacks.)
      const times = await frame.evaluate(async () => {
        if (document.readyState !== 'complete') {
          await new Promise((done) => {
            addEventListener('load', done, { once: true });
            setTimeout(done, 5_000);
          });
        }
        const origin = performance.timeOrigin;
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const out: [string, number][] = [
          ['navigation: request sent', origin + nav.requestStart],
          ['navigation: first byte', origin + nav.responseStart],
          ['navigation: HTML received', origin + nav.responseEnd],
          ['document: interactive (parsed)', origin + nav.domInteractive],
          ['document: DOMContentLoaded', origin + nav.domContentLoadedEventStart],
          ['document: load event', origin + nav.loadEventStart],
        ];
        for (const e of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
          // Hashes and queries off, so that every load's entries line up.
          const name = new URL(e.name).pathname.replace(/-[A-Za-z0-9_-]{8}\./, '.');
          out.push([`${name}: requested`, origin + e.startTime], [`${name}: sent`, origin + e.requestStart]);
          out.push([`${name}: first byte`, origin + e.responseStart], [`${name}: received`, origin + e.responseEnd]);
        }
        for (const m of performance.getEntriesByType('mark')) out.push([`mark ${m.name}`, origin + m.startTime]);
        return out;
      });
      times.push(['host: onReady', ready]);
      for (const [name, at] of times) {
        if (Number.isFinite(at)) rows.set(name, [...(rows.get(name) ?? []), at - created]);
      }
    } finally {
      await viewer.close();
    }
  }
} finally {
  await close();
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`${kind}: ${loads} cold loads, median ms from the iframe's creation (n = loads that had the entry)`);
for (const [name, values] of [...rows].sort((a, b) => median(a[1]) - median(b[1]))) {
  console.log(`${median(values).toFixed(1).padStart(8)}  ${name}${values.length < loads ? `  (n = ${values.length})` : ''}`);
}
