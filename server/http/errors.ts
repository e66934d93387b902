import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** The JSON error body every 4xx/5xx of the reference server uses. */
export const errorBody = (code: number, message: string) => ({ error: { code, message } });

/** An error a route answers with its own status and message (a 4xx, or a 503 it means); anything else is a generic 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries (a 401's `WWW-Authenticate`, a 429's `Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * The one error handler of the server (the collector's scope inherits it): every error answers in the JSON shape
 * above. A route's own refusals ({@link HttpError}) and schema failures say what was wrong in their words; Fastify's
 * own 413 and 415 name the limit and the type; a failure of ours (5xx) is logged and answered without internals (a
 * 5xx a route means, such as a 503 for a read past its time bound, is an {@link HttpError} and keeps its message).
 * Headers an error carries stay (a 416 names the file's size in Content-Range; a 429 its Retry-After).
 */
export function replyWithError(error: Partial<FastifyError> & { headers?: Record<string, string> }, request: FastifyRequest, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500) request.log.error(error);
  if (error.headers && typeof error.headers === 'object') reply.headers(error.headers);
  const message =
    error instanceof HttpError
      ? error.message || 'Bad request.'
      : status >= 500
        ? 'Internal server error.'
        : error.validation
          ? error.message || 'Bad request.'
          : status === 413
            ? `Request body is larger than ${request.routeOptions.bodyLimit ?? 'the limit of'} bytes`
            : status === 415
              ? `Unsupported content type ${JSON.stringify(request.headers['content-type'] ?? '')}: send application/json.`
              : error.message || 'Bad request.';
  return reply.code(status).send(errorBody(status, message));
}
