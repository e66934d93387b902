import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 right now (the OS picks it). Another process may take it before the caller binds it: the
 * starters that use it try again when the address is in use.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
