/**
 * What one playback tick costs the embed, measured without the noise of a whole playback: the frame of the
 * page benchmark (`bench/embedPage.ts`), playing, is frozen (the element really paused, its `paused` and
 * `currentTime` faked to read "playing, at wall-clock time"), then gets synthetic `timeupdate` events at a steady pace;
 * CDP ScriptDuration over those ticks, minus the same span without ticks, divided by the ticks, is the script time of
 * one tick with everything it sets off (host post, React renders, logging, pings). Ticks are spaced
 * `TICK_SPACING_MS` apart (default 150: wider than the 100 ms host coalescing window, as the real 250 ms ticks are).
 *
 *   npm run build
 *   node --import tsx bench/tickCost.ts            # the embed; `bare` for the bare page
 *
 * Settings: `TICK_COUNT` (default 200), `TICK_SPACING_MS` (default 150), `TICK_ROUNDS` (default 3: rounds of ticks
 * and of quiet, alternated; the median is reported with the spread), `TICK_PROFILE=1` (then one more round of ticks
 * under the CPU profiler, attributed to the original sources as `bench/profilePlayback.ts` does; `TICK_PROFILE_TOP` rows),
 * `TICK_BLOCK=ui,services` (the embed without those lazy chunks: what each adds to a tick).
 * A diagnostic for iterating on the per-tick work; the page benchmark stays the measure the targets are judged on.
 */
import { writeFileSync } from 'node:fs';
import { BENCH_MEDIA_PATH, cdpFor, openFrame, newViewer, startBenchPages, withoutChunk, type Kind } from './benchFrame';
import type { CDPSession } from 'playwright-core';
import { attribute, type Profile } from './cpuProfile';

async function scriptMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? NaN) * 1000;
}

async function main(): Promise<void> {
  const kind: Kind = process.argv.includes('bare') ? 'bare' : 'vidframe';
  const count = Number(process.env.TICK_COUNT ?? 200);
  const spacing = Number(process.env.TICK_SPACING_MS ?? 150);
  const rounds = Number(process.env.TICK_ROUNDS ?? 3);
  const { servers, close } = await startBenchPages();
  const mediaPath = BENCH_MEDIA_PATH;
  const viewer = await newViewer();
  try {
    const context = viewer.context;
    // `TICK_BLOCK=ui,services`: the embed without those lazy chunks, to see what each adds to a tick.
    for (const chunk of (process.env.TICK_BLOCK ?? '').split(',').filter(Boolean)) await withoutChunk(context, chunk);
    const { page, frame } = await openFrame(context, servers, kind, mediaPath);
    const cdp = await cdpFor(context, page, frame);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' }).catch(() => cdp.send('Performance.enable'));
    // Let the start-up settle (the services and controls load on idle), then freeze the element as "playing".
    await page.waitForTimeout(3000);
    // (Page code as strings: the TypeScript loader would wrap named functions in a helper the page lacks.)
    await frame.evaluate(`new Promise((done) => {
      const v = document.querySelector('video');
      const t0 = performance.now();
      const at = v.currentTime;
      // The real pause says 2 (its event comes in a task of its own): then say playing again, as the element would.
      v.addEventListener('pause', () => {
        v.dispatchEvent(new Event('play'));
        v.dispatchEvent(new Event('playing'));
        done();
      }, { once: true });
      HTMLMediaElement.prototype.pause.call(v);
      Object.defineProperty(v, 'paused', { configurable: true, get: () => false });
      Object.defineProperty(v, 'currentTime', { configurable: true, get: () => at + (performance.now() - t0) / 1000, set: () => undefined });
    })`);
    // Past the controls' auto-hide (3 s after playing starts), as in steady playback.
    await page.waitForTimeout(4000);
    const ticks = `new Promise((done) => {
      const v = document.querySelector('video');
      let left = ${count};
      const tick = () => {
        v.dispatchEvent(new Event('timeupdate'));
        if (--left > 0) setTimeout(tick, ${spacing});
        else done();
      };
      tick();
    })`;
    if (process.env.TICK_DEBUG === '1') {
      console.log(
        await frame.evaluate(
          `JSON.stringify({ chrome: document.querySelector('.vf-chrome')?.className, state: document.querySelector('.vf-player')?.dataset.state })`,
        ),
      );
    }
    const quiet: number[] = [];
    const ticked: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let before = await scriptMs(cdp);
      const startedAt = Date.now();
      await frame.evaluate(ticks);
      const span = Date.now() - startedAt;
      ticked.push((await scriptMs(cdp)) - before);
      before = await scriptMs(cdp);
      await page.waitForTimeout(span);
      quiet.push((await scriptMs(cdp)) - before);
    }
    const perTick = ticked.map((t, i) => ((t - quiet[i]) / count) * 1000);
    const sorted = [...perTick].sort((a, b) => a - b);
    console.log(
      `${kind}: ${count} ticks × ${rounds} rounds, ${spacing} ms apart: ${sorted[sorted.length >> 1].toFixed(0)} µs script per tick ` +
        `(rounds: ${perTick.map((x) => x.toFixed(0)).join(', ')} µs; quiet spans ${quiet.map((q) => q.toFixed(1)).join(', ')} ms)`,
    );
    if (process.env.TICK_PROFILE === '1') {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 }); // µs
      await cdp.send('Profiler.start');
      await frame.evaluate(ticks);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      attribute(profile, Number(process.env.TICK_PROFILE_TOP ?? 40), `[${count} synthetic ticks] `);
      // `TICK_PROFILE_SAVE=<file>`: the raw profile too (`.cpuprofile`: DevTools opens it; `bench/profileCallers.ts` reads it).
      if (process.env.TICK_PROFILE_SAVE) writeFileSync(process.env.TICK_PROFILE_SAVE, JSON.stringify(profile));
    }
    await cdp.detach().catch(() => undefined);
  } finally {
    await viewer.close();
    await close();
  }
}

await main();
