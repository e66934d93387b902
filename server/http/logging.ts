import type { FastifyRequest } from 'fastify';

/** Where the log lines go: the process's stdout by default; tests pass a stream to read them. */
export interface LogDestination {
  stream: { write(line: string): void };
}

/**
 * `false` (silent: tests, embedding), `true` (JSON lines on stdout) or a destination. The lines are pino's (Fastify's
 * logger), one JSON object each, so a log shipper reads them without a parser of its own.
 */
export type LoggerSetting = boolean | LogDestination;

/** A query parameter whose value is a credential: the admin token of the sign-in link, API keys, secrets, signatures. */
const SECRET_PARAMETER = /token|key|secret|passw|auth|session|sig/i;

/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]';

/**
 * The URL as a log line may show it: every query parameter whose name says it carries a credential keeps its name
 * and loses its value. The rest of the URL is left as the client sent it (undecoded), so the line still says what was
 * asked.
 */
export function urlForLog(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const name = part.split('=', 1)[0]!;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a malformed escape: the name as sent is matched
      }
      return SECRET_PARAMETER.test(decoded) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** The request as the access log shows it: no headers (credentials travel there), the URL without its secrets. */
const requestForLog = (request: FastifyRequest) => ({
  method: request.method,
  url: urlForLog(request.url),
  host: request.host,
  remoteAddress: request.ip,
});

/**
 * Fastify's logger options for a {@link LoggerSetting}: JSON lines at `info`, requests serialized without their secrets,
 * and credential headers censored wherever a line carries headers.
 */
export function loggerOptionsOf(setting: LoggerSetting) {
  if (setting === false) return false;
  return {
    level: 'info',
    serializers: { req: requestForLog },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    ...(setting === true ? {} : { stream: setting.stream }),
  };
}
