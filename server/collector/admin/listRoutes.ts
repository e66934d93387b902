import type { FastifyInstance } from 'fastify';
import { COLLECTOR_MAX_CLIENT_EVENT_ID_CHARS, COLLECTOR_MAX_EVENT_NAME_CHARS, COLLECTOR_MAX_SEARCH_CHARS } from '../limits';
import { COLLECTOR_ENDPOINTS, type EventQuery, type Page, type PageQuery, PING_KINDS, type PingKind, type StoredEvent } from '../store';
import { accountIdProperty, pageProperties, querystring, type AdminContext, type PageParams } from './adminContext';

/**
 * The list reads, each a bounded page with a cursor, filtered in the store:
 *
 * - `GET /collector/api/events?limit&cursor&name&endpoint&stream&text&sinceMs&untilMs&pageId&accountId`
 * - `GET /collector/api/conflicts?…` (the same filters): the conflicting copies of events (a key stored before with
 *   another payload), each kept beside the first arrival that the events list
 * - `GET /collector/api/requests?limit&cursor&stream&pageId&accountId&sinceMs&untilMs`, `GET /collector/api/errors?limit&cursor…`
 * - `GET /collector/api/pings?limit&cursor&docid&ei&cpn&kind&sinceMs&untilMs`: the ping beacons (spec §7)
 *
 * `pageId` lists what the page sent on its own stream only (`EventQuery.pageId`): another stream using the page's id
 * is not the page.
 */
export function registerListRoutes(scope: FastifyInstance, { store, guard, timed }: AdminContext): void {
  /** The events and their conflicting copies take the same filters. */
  const eventListRoute = (url: string, read: (query: EventQuery) => Promise<Page<StoredEvent>>, operation: string) =>
    scope.get<{ Querystring: PageParams & Omit<EventQuery, keyof PageQuery> }>(
      url,
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
      async (request) => timed(operation, () => read(request.query)),
    );
  eventListRoute('/collector/api/events', (query) => store.listEvents(query), 'listEvents');
  eventListRoute('/collector/api/conflicts', (query) => store.listConflicts(query), 'listConflicts');

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
