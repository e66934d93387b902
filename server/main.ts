import { resolve } from 'node:path';
import { buildApp } from './app';
import { ConfigError, readConfig } from './config';

/** `npm start`: one process serving the embed, the demo host page, the media, the reference API and the collector. */
let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
}
const { port, host } = config;

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp({ rootDir: resolve(import.meta.dirname, '..'), ...config.app });
} catch (error) {
  console.error('VidFrame could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
}
try {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
  console.log(`VidFrame is running: ${base}/ (demo host page), ${base}/embed/VFsunrise01 (embed)`);
  console.log(`Collector dashboard (store: ${app.vidframe.store.kind}), sign in with this link:`);
  console.log(`    ${base}/collector?token=${encodeURIComponent(app.vidframe.adminToken)}`);
  if (app.vidframe.adminTokenSource === 'generated') console.log('(a new admin token was generated into the data folder: secrets/admin-token)');
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use on ${host}. Stop the other server or pick another port: PORT=${port + 1} npm start`);
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
    void app.close().then(
      () => process.exit(0),
      (error) => {
        console.error('VidFrame did not stop cleanly:', error);
        process.exit(1);
      },
    );
  });
}
