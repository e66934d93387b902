import { resolve } from 'node:path';
import { buildApp } from './app';

/** `npm start`: one process serving the embed, the demo host page, the media and the reference API on localhost. */
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? 'localhost';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a whole number from 0 to 65535, not "${process.env.PORT}".`);
  process.exit(2);
}

const app = await buildApp({
  rootDir: resolve(import.meta.dirname, '..'),
  logger: process.env.LOG === '1',
  dataDir: process.env.VIDFRAME_DATA_DIR,
  testHooks: process.env.VIDFRAME_TEST_HOOKS === '1',
  trustedOrigins: (process.env.VIDFRAME_TRUSTED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
});
try {
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`VidFrame is running: http://${host}:${actual}/ (demo host page), http://${host}:${actual}/embed/VFsunrise01 (embed)`);
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${port} is already in use on ${host}. Stop the other server or pick another port: PORT=${port + 1} npm start`);
  } else {
    console.error('VidFrame could not start:', error);
  }
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void app.close().then(() => process.exit(0)));
}
