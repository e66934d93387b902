import type { FastifyInstance } from 'fastify';
import { Server as NetServer } from 'node:net';
import { errorBody } from './errors';
import { DRAIN_IDLE_GRACE_MS, DRAIN_RETRY_AFTER_SEC, DRAIN_TIMEOUT_MS } from './limits';

const draining = new WeakMap<FastifyInstance, { on: boolean }>();

/**
 * The root hooks of the graceful stop ({@link drainAndClose}): while the server drains, a request that arrives is
 * answered 503 with `Retry-After` before any route runs, and every reply closes its connection, so a client learns to
 * go elsewhere and no connection outlives the drain. Requests that arrived before the drain run to their end.
 */
export function registerDrain(app: FastifyInstance): void {
  const state = { on: false };
  draining.set(app, state);
  app.addHook('onRequest', async (_request, reply) => {
    if (!state.on) return;
    return reply.code(503).header('retry-after', String(DRAIN_RETRY_AFTER_SEC)).send(errorBody(503, 'The server is stopping: retry in a moment'));
  });
  app.addHook('onSend', async (_request, reply) => {
    if (state.on) reply.header('connection', 'close');
  });
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * The graceful stop of a listening app: no new connections; requests arriving on open connections get 503 with
 * `Retry-After`; requests in flight finish normally; idle connections are closed only after a grace, so a request
 * already on its way is answered rather than reset; then the app closes (its `onClose` hooks commit and close the
 * store). Past `timeoutMs` the remaining connections are closed and the app closes anyway.
 */
export async function drainAndClose(app: FastifyInstance, { graceMs = DRAIN_IDLE_GRACE_MS, timeoutMs = DRAIN_TIMEOUT_MS } = {}): Promise<void> {
  const state = draining.get(app);
  if (state) state.on = true;
  const server = app.server;
  if (server.listening) {
    // The listening socket alone: Node's http close would also destroy the idle keep-alive connections at once,
    // resetting a request a client has just sent on one of them.
    const allClosed = new Promise<void>((done) => NetServer.prototype.close.call(server, () => done()));
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    await sleep(Math.min(graceMs, timeoutMs));
    server.closeIdleConnections();
    await allClosed;
    clearTimeout(deadline);
  }
  await app.close();
}
