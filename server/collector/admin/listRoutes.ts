import type { FastifyInstance } from 'fastify';
import { COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS, COLLECTOR_MAX_EVENT_NAME_CHARS, COLLECTOR_MAX_SEARCH_CHARS } from '../limits';
import { type CollectorEndpoint, COLLECTOR_ENDPOINTS, PING_KINDS, type PingKind } from '../store';
import { accountIdProperty, pageProperties, querystring, type AdminContext, type PageParams } from './adminContext';

/**
 * The list reads, each a bounded page with a cursor, filtered in the store:
 *
 * - `GET /collector/api/events?limit&cursor&name&endpoint&stream&text&sinceMs&untilMs&pageId&accountId`
 * - `GET /collector/api/requests?limit&cursor&stream&pageId&accountId&sinceMs&untilMs`, `GET /collector/api/errors?limit&cursor…`
 * - `GET /collector/api/pings?limit&cursor&docid&ei&cpn&kind&sinceMs&untilMs`: the ping beacons (spec §7)
 */
export function registerListRoutes(scope: FastifyInstance, { store, guard, timed }: AdminContext): void {
  scope.get<{
    Querystring: PageParams & { name?: string; endpoint?: CollectorEndpoint; stream?: string; text?: string; pageId?: string; accountId?: string };
  }>(
    '/collector/api/events',
    {
      onRequest: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          name: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_EVENT_NAME_CHARS },
          endpoint: { type: 'string', enum: COLLECTOR_ENDPOINTS },
          stream: { type: 'string', minLength: 1, maxLength: 64 },
          text: { type: 'string', maxLength: COLLECTOR_MAX_SEARCH_CHARS },
          pageId: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS },
          accountId: accountIdProperty,
        }),
      },
    },
    async (request) => {
      const { pageId, ...query } = request.query;
      return timed('listEvents', () => store.listEvents({ ...query, ...(pageId !== undefined ? { clientEventIdPrefix: `${pageId}:` } : {}) }));
    },
  );

  scope.get<{ Querystring: PageParams & { stream?: string; pageId?: string; accountId?: string } }>(
    '/collector/api/requests',
    {
      onRequest: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          stream: { type: 'string', minLength: 1, maxLength: 64 },
          pageId: { type: 'string', minLength: 1, maxLength: COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS },
          accountId: accountIdProperty,
        }),
      },
    },
    async (request) => timed('listRequests', () => store.listRequests(request.query)),
  );

  scope.get<{ Querystring: PageParams }>('/collector/api/errors', { onRequest: guard, schema: { querystring: querystring(pageProperties) } }, async (request) =>
    timed('listErrors', () => store.listErrors(request.query)),
  );

  scope.get<{ Querystring: PageParams & { docid?: string; ei?: string; cpn?: string; kind?: PingKind } }>(
    '/collector/api/pings',
    {
      onRequest: guard,
      schema: {
        querystring: querystring({
          ...pageProperties,
          docid: { type: 'string', minLength: 1, maxLength: 64 },
          ei: { type: 'string', minLength: 1, maxLength: 64 },
          cpn: { type: 'string', minLength: 1, maxLength: 64 },
          kind: { type: 'string', enum: PING_KINDS },
        }),
      },
    },
    async (request) => timed('listPings', () => store.listPings(request.query)),
  );
}
