import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../http/errors';
import {
  COLLECTOR_STORE_RETRY_AFTER_SEC,
  ERROR_REPORT_MAX_BODY_BYTES,
  ERROR_REPORT_MAX_EXTRA_FIELDS,
  ERROR_REPORT_MAX_EXTRA_KEY_CHARS,
  ERROR_REPORT_MAX_EXTRA_VALUE_CHARS,
  ERROR_REPORT_MAX_LINE_CHARS,
  ERROR_REPORT_MAX_MESSAGE_CHARS,
  ERROR_REPORT_MAX_STACK_CHARS,
  ERROR_REPORT_MAX_URL_CHARS,
} from '../limits';
import type { CollectorStore } from '../store';
import { jsonTextNestsDeeperThan, nestsDeeperThan } from '../ingest/validateEvents';

/**
 * `POST /error_204`: the error-reporting endpoint (spec §7 logerror, type jserror). Fields come from the query and
 * from a form or JSON body; every field is bounded (message 250 characters as the client cuts it, stack, URLs, line,
 * at most {@link ERROR_REPORT_MAX_EXTRA_FIELDS} extra fields). An unreadable body is kept as `rawBody`, cut. 204 once
 * stored; 503 when the store cannot take it.
 */
export function registerErrorRoute(
  scope: FastifyInstance,
  { store, rateLimit, now }: { store: CollectorStore; rateLimit: Record<string, unknown> | false; now: () => number },
): void {
  scope.post('/error_204', { bodyLimit: ERROR_REPORT_MAX_BODY_BYTES, config: rateLimit ? { rateLimit } : {} }, async (request, reply) => {
    const fields: Record<string, string> = {};
    const take = (source: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(source)) {
        if (v === undefined || v === null) continue;
        // A field nested past any real report is kept as a note, never serialised (that could overflow the stack).
        fields[k] = typeof v === 'string' ? v : nestsDeeperThan(v, 32) ? '[nested too deep]' : JSON.stringify(v);
      }
    };
    take((request.query ?? {}) as Record<string, unknown>);
    const text = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
    const type = String(request.headers['content-type'] ?? '');
    if (text) {
      let parsed: unknown;
      if (type.includes('json') && !jsonTextNestsDeeperThan(text, 1_000)) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      } else if (type.includes('x-www-form-urlencoded')) {
        parsed = Object.fromEntries(new URLSearchParams(text));
      }
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) take(parsed as Record<string, unknown>);
      else fields.rawBody = text; // unreadable input is kept (cut below), not dropped
    }
    const { msg, message: m, url, file, line, stack, type: errorType, ...rest } = fields;
    const message = m ?? msg ?? '';
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries(rest).slice(0, ERROR_REPORT_MAX_EXTRA_FIELDS)) {
      extra[k.slice(0, ERROR_REPORT_MAX_EXTRA_KEY_CHARS)] = v.slice(0, ERROR_REPORT_MAX_EXTRA_VALUE_CHARS);
    }
    const optional = (key: string, value: string | undefined, max: number) => (value === undefined ? {} : { [key]: value.slice(0, max) });
    try {
      await store.recordError({
        receivedAtMs: now(),
        message: message.slice(0, ERROR_REPORT_MAX_MESSAGE_CHARS),
        messageTruncated: message.length > ERROR_REPORT_MAX_MESSAGE_CHARS,
        ...optional('url', url, ERROR_REPORT_MAX_URL_CHARS),
        ...optional('file', file, ERROR_REPORT_MAX_URL_CHARS),
        ...optional('line', line, ERROR_REPORT_MAX_LINE_CHARS),
        ...optional('stack', stack, ERROR_REPORT_MAX_STACK_CHARS),
        ...optional('type', errorType, ERROR_REPORT_MAX_EXTRA_VALUE_CHARS),
        extra,
      });
    } catch (error) {
      request.log.error({ err: error }, 'collector: the store refused an error report');
      return reply.code(503).header('retry-after', String(COLLECTOR_STORE_RETRY_AFTER_SEC)).send(errorBody(503, 'The error report could not be stored now'));
    }
    return reply.code(204).send();
  });
}
