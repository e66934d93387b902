import type { onRequestAsyncHookHandler } from 'fastify';
import { ADMIN_API_ACCOUNT_ID_PATTERN, ADMIN_API_MAX_ACCOUNT_ID_CHARS } from '../../../streams/collector/adminApi';
import { COLLECTOR_DEFAULT_PAGE_SIZE, COLLECTOR_MAX_PAGE_SIZE } from '../limits';
import type { CollectorStore } from '../store';
import type { FaultInjector } from '../testHooks/faultInjector';

/** What the admin routes share, built once by `registerAdminApi`. */
export interface AdminContext {
  store: CollectorStore;
  /** The admin guard every route runs as its `onRequest` hook, before validation (bearer token, known Host). */
  guard: onRequestAsyncHookHandler;
  faults: FaultInjector;
  testHooks: boolean;
  /** A timed store read; a read the store cannot answer as asked is the client's 400. */
  timed: <T>(operation: string, read: () => Promise<T>) => Promise<T>;
}

/** The paging parameters of every list read: a bounded page, a cursor, a time range. */
export const pageProperties = {
  limit: { type: 'integer', minimum: 1, maximum: COLLECTOR_MAX_PAGE_SIZE, default: COLLECTOR_DEFAULT_PAGE_SIZE },
  cursor: { type: 'string', maxLength: 200 },
  sinceMs: { type: 'integer', minimum: 0 },
  untilMs: { type: 'integer', minimum: 0 },
} as const;

export interface PageParams {
  limit: number;
  cursor?: string;
  sinceMs?: number;
  untilMs?: number;
}

/** The `accountId` filter: a bounded token (agreed with the dashboard in `streams/collector/adminApi.ts`). */
export const accountIdProperty = { type: 'string', minLength: 1, maxLength: ADMIN_API_MAX_ACCOUNT_ID_CHARS, pattern: ADMIN_API_ACCOUNT_ID_PATTERN } as const;

/** A query string schema that refuses unknown parameters. */
export const querystring = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, properties });
