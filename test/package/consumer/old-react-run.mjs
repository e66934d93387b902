// Runs the bundle of old-react-main.tsx under jsdom (its path given, with jsdom's) and prints what it reports.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [jsdomPath, bundle] = process.argv.slice(2);
const { JSDOM } = createRequire(import.meta.url)(jsdomPath);
const { window } = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', { url: 'https://host.example/app', pretendToBeVisual: true });
for (const key of Object.getOwnPropertyNames(window)) {
  if (!(key in globalThis)) globalThis[key] = window[key];
}
await import(pathToFileURL(bundle).href);
console.log(JSON.stringify(await window.vidframeCheck));
// The players' timers would keep Node running.
process.exit(0);
