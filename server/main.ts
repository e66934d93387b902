import { resolve } from 'node:path';
import { buildApp } from './app';
import { ConfigError, readConfig } from './config';
import { startAdsHost } from './ads/startAdsHost';

/**
 * `npm start`: one process serving the embed, the demo host page, the media, the reference API and the collector, and
 * on a second port the ads host (the anonymous id's own origin).
 */
let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
}
const { port, host } = config;
// `npm run dev` passes --dev (the same as VIDFRAME_DEV=1): the pages from source through Vite, with hot reload.
if (process.argv.slice(2).includes('--dev')) config.app.dev = true;
const command = config.app.dev ? 'npm run dev' : 'npm start';

let app: Awaited<ReturnType<typeof buildApp>>;
let adsHost: Awaited<ReturnType<typeof startAdsHost>> | undefined;
try {
  app = await buildApp({ rootDir: resolve(import.meta.dirname, '..'), ...config.app, ads: config.ads });
} catch (error) {
  console.error('VidFrame could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
}
try {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  console.log(
    `VidFrame is running${config.app.dev ? ' in development (pages from source, hot reload)' : ''}: ${base}/ (demo host page), ${base}/embed/VFsunrise01 (embed)`,
  );
  console.log(`Collector dashboard (store: ${app.vidframe.store.kind}), sign in with this link:`);
  console.log(`    ${base}/collector?token=${encodeURIComponent(app.vidframe.adminToken)}`);
  if (app.vidframe.adminTokenSource === 'generated') console.log('(a new admin token was generated into the data folder: secrets/admin-token)');
  adsHost = await startAdsHost(config, actual);
  console.log(`Ads host (anonymous id): ${adsHost.origin}/pagead/id${config.ads.origin ? `, announced to the embed as ${config.ads.origin}` : ''}`);
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    const ads = app.server.listening;
    const busy = ads ? config.ads.port : port;
    console.error(
      `Port ${busy} is already in use on ${host}. Stop the other server or pick another port: ${ads ? 'VIDFRAME_ADS_PORT' : 'PORT'}=${busy + 1} ${command}`,
    );
  } else {
    console.error('VidFrame could not start:', error);
  }
  await app.close().catch(() => undefined);
  process.exit(1);
}

// Graceful stop: no new connections, requests in flight finish and their writes commit, then the store closes.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second signal: stop now
    stopping = true;
    void Promise.all([app.close(), adsHost?.app.close()]).then(
      () => process.exit(0),
      (error) => {
        console.error('VidFrame did not stop cleanly:', error);
        process.exit(1);
      },
    );
  });
}
