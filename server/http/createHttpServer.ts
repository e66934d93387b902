import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { errorBody } from './errors';

export interface HttpServerOptions {
  logger: boolean;
  /**
   * Which proxies' `X-Forwarded-For` names the client: `false` (the peer is the client), `true` (any), a hop count, or
   * comma-separated addresses / CIDRs.
   */
  trustProxy: boolean | number | string;
}

/** The Fastify instance every plugin is registered on. */
export function createHttpServer({ logger, trustProxy }: HttpServerOptions): FastifyInstance {
  return Fastify({
    logger,
    // A hop count is valid at run time (Fastify passes it to proxy-addr) though its types leave numbers out.
    trustProxy: trustProxy as boolean | string,
    // Graceful stop: requests in flight finish, idle keep-alive connections close, new requests get 503.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Malformed URLs (a bad escape, an over-long path segment) get the same JSON error shape as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof (error as { statusCode?: number }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 400;
      (reply as FastifyReply).code(status).send(errorBody(status, error.message));
    },
  });
}
