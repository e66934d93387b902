import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import { registerDrain } from './drain';
import { errorBody } from './errors';
import { loggerOptionsOf, type LoggerSetting } from './logging';

export interface HttpServerOptions {
  /** JSON log lines (`logging.ts`): off, on stdout, or to a given stream. */
  logger: LoggerSetting;
  /** Log a line per request and per reply (the access log); errors are logged either way. Default true. */
  logRequests?: boolean;
  /**
   * Which proxies' `X-Forwarded-For` names the client: `false` (the peer is the client), `true` (any), a hop count, or
   * comma-separated addresses / CIDRs.
   */
  trustProxy: boolean | number | string;
}

/**
 * The Fastify instance every plugin is registered on (the server's and the ads host's), with the graceful stop's hooks
 * (`drain.ts`) first, so that `drainAndClose` answers 503 with `Retry-After` on either.
 */
export function createHttpServer({ logger, logRequests = true, trustProxy }: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    logger: loggerOptionsOf(logger),
    logController: new LogController({ disableRequestLogging: !logRequests }),
    // A hop count is valid at run time (Fastify passes it to proxy-addr) though its types leave numbers out.
    trustProxy: trustProxy as boolean | string,
    // The graceful stop is `drain.ts`'s: it closes idle connections only after a grace, and its 503 carries Retry-After.
    forceCloseConnections: false,
    return503OnClosing: true,
    // Malformed URLs (a bad escape, an over-long path segment) get the same JSON error shape as everything else.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof (error as { statusCode?: number }).statusCode === 'number' ? (error as { statusCode: number }).statusCode : 400;
      (reply as FastifyReply).code(status).send(errorBody(status, error.message));
    },
  });
  registerDrain(app);
  return app;
}
