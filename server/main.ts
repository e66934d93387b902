import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildApp } from './app';
import { ConfigError, readConfig } from './config';
import { startAdsHost } from './ads/startAdsHost';
import { drainAndClose } from './http/drain';
import { STOP_SIGNAL_REPEAT_MS } from './http/limits';

/**
 * `npm start` (`node dist/server/main.js`, the build of this file) and `npm run dev` (this file through tsx): one
 * process serving the embed, the demo host page, the media, the reference API and the collector, and on a second port
 * the ads host (the anonymous id's own origin). It logs JSON lines on stdout (Fastify's logger); on a terminal it
 * also prints a banner for a person. Neither ever carries the admin token: they say where it is.
 */

/**
 * The project folder: the nearest one above this module holding `package.json`. The same from `server/main.ts` and
 * from its build `dist/server/main.js`, so `media/`, `dist/` and `server/attestation/program.js` are found from both.
 */
function projectRootOf(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** On a terminal a person reads the output; otherwise a machine does, and every line is JSON. */
const forPeople = process.stdout.isTTY === true;

/** A failure before the logger exists: a sentence on a terminal, a JSON line (pino's shape, level fatal) otherwise. */
function fail(message: string, exitCode: number): never {
  if (forPeople) console.error(message);
  else process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: message })}\n`);
  process.exit(exitCode);
}

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error), 2);
}
const { port, host } = config;
// `npm run dev` passes --dev (the same as VIDFRAME_DEV=1): the pages from source through Vite, with hot reload.
if (process.argv.slice(2).includes('--dev')) config.app.dev = true;
const command = config.app.dev ? 'npm run dev' : 'npm start';

let app: Awaited<ReturnType<typeof buildApp>>;
let adsHost: Awaited<ReturnType<typeof startAdsHost>> | undefined;
try {
  app = await buildApp({ rootDir: projectRootOf(import.meta.dirname), ...config.app, ads: config.ads });
} catch (error) {
  fail(`VidFrame could not start: ${error instanceof Error ? error.message : String(error)}`, 1);
}
try {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  adsHost = await startAdsHost(config, actual);
  const { adminTokenSource, adminTokenFile, store } = app.vidframe;
  const adminTokenFrom = { env: 'VIDFRAME_ADMIN_TOKEN', database: 'the state database', file: adminTokenFile, generated: adminTokenFile }[adminTokenSource];
  const running = `VidFrame is running${config.app.dev ? ' in development (pages from source, hot reload)' : ''}: ${base}/ (demo host page), ${base}/embed/VFsunrise01 (embed)`;
  const facts = { origin: base, dashboard: `${base}/collector`, store: store.kind, adminTokenFrom, adsHost: adsHost.origin };
  // Off a terminal, the start is one JSON line with the facts; on one, a banner a person reads.
  if (!forPeople) app.log.info(facts, running);
  else {
    console.log(running);
    console.log(`Collector dashboard (store: ${store.kind}): ${base}/collector`);
    console.log(
      adminTokenSource === 'env'
        ? '    sign in with the admin token you set in VIDFRAME_ADMIN_TOKEN'
        : adminTokenSource === 'database'
          ? '    sign in with the admin token kept in the state database, the same on every server (npm run secrets -- admin-token)'
          : `    sign in with the admin token kept in ${adminTokenFile}${adminTokenSource === 'generated' ? ' (generated now)' : ''}`,
    );
    console.log(`Ads host (anonymous id): ${adsHost.origin}/pagead/id${config.ads.origin ? `, announced to the embed as ${config.ads.origin}` : ''}`);
  }
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    const ads = app.server.listening;
    const busy = ads ? config.ads.port : port;
    app.log.fatal(
      `Port ${busy} is already in use on ${host}. Stop the other server or pick another port: ${ads ? 'VIDFRAME_ADS_PORT' : 'PORT'}=${busy + 1} ${command}`,
    );
  } else {
    app.log.fatal({ err: error }, 'VidFrame could not start');
  }
  await app.close().catch(() => undefined);
  process.exit(1);
}

// The stop (SIGTERM from a process manager, or `npm start`'s, which hands its signals to this process; SIGINT, Ctrl-C):
// no new connections, requests arriving get 503 with Retry-After, requests in flight finish and their writes commit,
// then the store closes and the process exits 0. A second signal exits at once, unless it comes within
// STOP_SIGNAL_REPEAT_MS of the first: a Ctrl-C reaches both npm and this process, and npm hands its copy on too.
let stoppedAt: number | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stoppedAt !== undefined && performance.now() - stoppedAt < STOP_SIGNAL_REPEAT_MS) return;
    if (stoppedAt !== undefined) {
      app.log.warn({ signal }, 'VidFrame stops now, without waiting for the requests in flight');
      process.exit(1);
    }
    stoppedAt = performance.now();
    app.log.info({ signal }, 'VidFrame is stopping: requests in flight finish, new ones get 503');
    void Promise.all([drainAndClose(app), adsHost && drainAndClose(adsHost.app)]).then(
      () => {
        app.log.info('VidFrame stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'VidFrame did not stop cleanly');
        process.exit(1);
      },
    );
  });
}
