import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { registerSecurityHeaders } from '../security/securityHeaders';
import { errorBody, replyWithError } from './errors';

export interface HttpBasicsOptions {
  /** Answer unknown URLs with the JSON 404; false when another handler (Vite, in development) answers them. */
  notFound: boolean;
  /** Where the rate limits count (`cluster/`: in the database several servers share); default: this process's memory. */
  rateLimitStore?: FastifyRateLimitStoreCtor;
}

/**
 * What every route of the server shares, on the root instance: the JSON error shape of every error and of unknown
 * URLs, the closing of connections while the app closes (the drain's 503s are `createHttpServer`'s), the security
 * headers (`security/`) and the rate-limit plugin, which routes turn on one by one (`global: false`) next to their
 * other limits.
 */
export async function registerHttpBasics(app: FastifyInstance, { notFound, rateLimitStore }: HttpBasicsOptions): Promise<void> {
  app.setErrorHandler(replyWithError);
  if (notFound) {
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${request.url.split('?')[0]}`));
    });
  }

  // Graceful stop: a reply sent while the server is closing also closes its keep-alive connection, so the stop
  // waits for the requests in flight and not for their clients' idle connections.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  await registerSecurityHeaders(app);
  await app.register(fastifyRateLimit, { global: false, ...(rateLimitStore && { store: rateLimitStore }) });
}
