/**
 * What the JS heap after load consists of: the page benchmark's frame (`bench/embedPage.ts`), 3 s after
 * ready (the services and controls chunks load on idle before that), after a forced GC: `Runtime.getHeapUsage` (the
 * benchmark's figure) and a heap snapshot's self sizes by node type (code, strings, objects, …), the biggest groups,
 * and the strings over 4 KB. The bare page first, as the reference. (`openFrame` waits for the first frame with one
 * awaited call, not by polling in the frame, so the test driver's injected script and its code are not in
 * either frame's heap.)
 *
 *   npm run build
 *   node --import tsx bench/heapComposition.ts
 *   HEAP_BLOCKS="ui services ui,services" node --import tsx bench/heapComposition.ts   # also without those chunks
 */
import { BENCH_MEDIA_PATH, cdpFor, openFrame, newViewer, startBenchPages, withoutChunk, type Kind } from './benchFrame';
const { servers, close } = await startBenchPages();
const mediaPath = BENCH_MEDIA_PATH;
const runs: [Kind, string][] = [
  ['bare', ''],
  ['vidframe', ''],
  ...(process.env.HEAP_BLOCKS ?? '')
    .split(' ')
    .filter(Boolean)
    .map((b): [Kind, string] => ['vidframe', b]),
];
for (const [kind, block] of runs) {
  const viewer = await newViewer();
  try {
    const context = viewer.context;
    for (const b of block.split(',').filter(Boolean)) await withoutChunk(context, b);
    const { page, frame } = await openFrame(context, servers, kind, mediaPath);
    await page.waitForTimeout(3000);
    const cdp = await cdpFor(context, page, frame);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const chunks: string[] = [];
    cdp.on('HeapProfiler.addHeapSnapshotChunk', (e: { chunk: string }) => chunks.push(e.chunk));
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    const snap = JSON.parse(chunks.join('')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
    const f = snap.snapshot.meta.node_fields,
      w = f.length,
      T = f.indexOf('type'),
      N = f.indexOf('name'),
      S = f.indexOf('self_size');
    const types = snap.snapshot.meta.node_types[0];
    const byType: Record<string, number> = {};
    const byName: Record<string, number> = {};
    const bigStrings: [number, string][] = [];
    let total = 0;
    for (let i = 0; i < snap.nodes.length; i += w) {
      const type = types[snap.nodes[i + T]];
      const size = snap.nodes[i + S];
      const name = snap.strings[snap.nodes[i + N]];
      total += size;
      byType[type] = (byType[type] ?? 0) + size;
      const key = type === 'code' || type === 'hidden' || type === 'array' || type === 'object' || type === 'native' ? `${type}: ${name.slice(0, 60)}` : type;
      byName[key] = (byName[key] ?? 0) + size;
      if (type === 'string' && size > 4000) bigStrings.push([size, name.slice(0, 80).replace(/\s+/g, ' ')]);
    }
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    console.log(`\n== ${kind}${block ? ` without ${block}` : ''}: getHeapUsage ${kb(usedSize)}, snapshot self sizes ${kb(total)}`);
    console.log(
      'by node type:',
      Object.entries(byType)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${kb(v)}`)
        .join(', '),
    );
    console.log('top:');
    for (const [k, v] of Object.entries(byName)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25))
      console.log(`  ${kb(v).padStart(7)}  ${k}`);
    console.log('strings > 4 KB:', bigStrings.length, kb(bigStrings.reduce((n, [s]) => n + s, 0)));
    for (const [s, t] of bigStrings.sort((a, b) => b[0] - a[0]).slice(0, 12)) console.log(`  ${kb(s).padStart(7)}  ${t}`);
  } finally {
    await viewer.close();
  }
}
await close();
