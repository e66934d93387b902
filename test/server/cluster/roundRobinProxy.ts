import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request header naming the client address the proxy forwards (`X-Forwarded-For`); 127.0.0.1 without it. */
export const CLIENT_ADDRESS_HEADER = 'x-test-client-address';
/** The response header naming the backend origin that served the request. */
export const SERVED_BY_HEADER = 'x-served-by';

/**
 * A load balancer as simple as a deployment's: each request goes to the next backend in turn, with `X-Forwarded-For`
 * set to the client address it stands for. A backend that cannot be reached is a 502, never a silent retry (a POST may
 * have been stored). Removing a dead backend is the caller's part, as a health check's would be.
 */
export interface RoundRobinProxy {
  origin: string;
  /** The backend origins in rotation. */
  backends(): readonly string[];
  /** Which backend each request went to, in the order they came, with the path it asked for. */
  readonly served: { backend: string; method: string; path: string }[];
  add(backend: string): void;
  remove(backend: string): void;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(initial: readonly string[]): Promise<RoundRobinProxy> {
  let rotation = [...initial];
  let turn = 0;
  const served: RoundRobinProxy['served'] = [];
  const server = createServer((incoming, outgoing) => {
    const backend = rotation[turn++ % rotation.length];
    served.push({ backend, method: incoming.method ?? 'GET', path: incoming.url ?? '/' });
    const { [CLIENT_ADDRESS_HEADER]: client, ...headers } = incoming.headers;
    const forwarded: IncomingHttpHeaders = { ...headers, 'x-forwarded-for': typeof client === 'string' ? client : '127.0.0.1' };
    // A fresh connection each time (no pool): a pooled socket the backend closed while idle would turn into a 502.
    const upstream = request(`${backend}${incoming.url}`, { method: incoming.method, headers: forwarded, agent: false }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, [SERVED_BY_HEADER]: backend });
      answer.pipe(outgoing);
      answer.once('aborted', () => outgoing.destroy());
      answer.once('error', () => outgoing.destroy());
    });
    upstream.once('error', () => {
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(502, { 'content-type': 'text/plain', [SERVED_BY_HEADER]: backend }).end(`the backend ${backend} did not answer\n`);
    });
    incoming.pipe(upstream);
  });
  // Longer than the clients' own idle keep-alive, so the proxy never closes a connection a client is about to reuse.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    backends: () => rotation,
    served,
    add: (backend) => {
      rotation = [...rotation, backend];
    },
    remove: (backend) => {
      rotation = rotation.filter((b) => b !== backend);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
