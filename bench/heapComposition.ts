/**
 * What the frame's JS heap holds after load (issue 15), the embed's and the bare page's: V8's used size after a
 * collection (`Runtime.getHeapUsage`, the page benchmark's figure) and a heap snapshot summed by node type (code,
 * strings, objects, …) and by name (top `HEAP_TOP`, default 25).
 *
 *   npm run build
 *   node --import tsx bench/heapComposition.ts
 *
 * Settings (environment): `HEAP_WAIT_MS` (default 2000) after ready before the snapshot (the lazy chunks load on
 * idle); `HEAP_BLOCK` a regular expression of URLs the frame may not load (e.g. `/assets/ui-` to see the heap without
 * the controls' chunk). Figures only; nothing is asserted.
 *
 * What it showed (2026-11-24, see `docs/performance.md`): 3.3–3.4 MB against the bare page's 1.23 MB, of which code
 * (machine code, bytecode and their metadata) ≈ 1.4 MB against 0.13 MB; without the controls' chunk 2.41 MB, without
 * the controls and the services 2.0 MB.
 */
import { launchBrowser } from '../test/e2e/helpers/browser';
import { startServer } from '../test/e2e/helpers/servers';
import { serveOne, hostPage, barePage, openFrame, cdpFor, VIDEO_ID, type Servers } from './embedPage';
import type { CDPSession } from 'playwright-core';

async function snapshot(cdp: CDPSession) {
  await cdp.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const f = snap.snapshot.meta.node_fields;
  const w = f.length;
  const ti = f.indexOf('type'),
    ni = f.indexOf('name'),
    si = f.indexOf('self_size');
  const types = snap.snapshot.meta.node_types[0];
  const byType: Record<string, number> = {};
  const byName: Record<string, number> = {};
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += w) {
    const type = types[snap.nodes[i + ti]];
    const size = snap.nodes[i + si];
    total += size;
    byType[type] = (byType[type] ?? 0) + size;
    const name = `${type}:${snap.strings[snap.nodes[i + ni]].slice(0, 60)}`;
    byName[name] = (byName[name] ?? 0) + size;
  }
  return { total, byType, byName };
}
const vidframe = await startServer();
const MEDIA = `/media/videos/${VIDEO_ID}/medium.webm`;
const bare = await serveOne('127.0.0.1', () => barePage(`${vidframe.origin}${MEDIA}`));
const host = await serveOne('localhost', hostPage);
const servers = { vidframe, host, bare } as Servers;
const browser = await launchBrowser();
try {
  for (const kind of ['vidframe', 'bare'] as const) {
    const context = await browser.newContext();
    const block = process.env.HEAP_BLOCK;
    if (block && kind === 'vidframe') await context.route(new RegExp(block), (r) => r.abort('failed'));
    const { page, frame } = await openFrame(context, servers, kind, MEDIA);
    await page.waitForTimeout(Number(process.env.HEAP_WAIT_MS ?? 2000));
    const cdp = await cdpFor(context, page, frame);
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const s = await snapshot(cdp);
    console.log(`\n${kind}: getHeapUsage ${(usage.usedSize / 1024).toFixed(0)} KB; snapshot ${(s.total / 1024).toFixed(0)} KB`);
    for (const [k, v] of Object.entries(s.byType)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12))
      console.log(`  ${(v / 1024).toFixed(0).padStart(6)} KB  ${k}`);
    console.log('  top names:');
    for (const [k, v] of Object.entries(s.byName)
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.HEAP_TOP ?? 25)))
      console.log(`  ${(v / 1024).toFixed(0).padStart(6)} KB  ${k}`);
    await context.close();
  }
} finally {
  await browser.close();
  await Promise.all([host.close(), bare.close()]);
  await vidframe.close();
}
