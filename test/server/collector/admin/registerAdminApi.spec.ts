import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAdminApi } from '../../../../server/collector/admin/registerAdminApi';
import type { CollectorStore, StoredRequest } from '../../../../server/collector/store';
import { createSqliteStore } from '../../../../server/collector/stores/sqlite/createSqliteStore';
import { createFaultInjector } from '../../../../server/collector/testHooks/faultInjector';
import { replyWithError } from '../../../../server/http/errors';
import { createMetrics } from '../../../../server/health/createMetrics';
import { ADMIN_API_MAX_ACCOUNT_ID_CHARS, type Page, type StoredEvent } from '../../../../streams/collector/adminApi';
import { playerEvents } from '../../../../streams/logging/playerEvents';
import { clientPage } from '../storeConformance';

/**
 * The admin API's `accountId` filter on a real SQLite store: "what did account X send", page by page, and
 * a bad value refused by the route's JSON Schema before the store sees it. The guard is the app's concern (proven
 * through the whole app in `test/server/collector.spec.ts`); here it lets everything through.
 */
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

describe('registerAdminApi: the accountId filter', () => {
  let dir: string;
  let store: CollectorStore;
  let app: FastifyInstance;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'admin-api-'));
    store = createSqliteStore(join(dir, 'vidframe.sqlite'));
    app = Fastify();
    app.setErrorHandler(replyWithError);
    registerAdminApi(app, { store, guard: async () => undefined, faults: createFaultInjector(), testHooks: false, metrics: createMetrics() });
    await app.ready();

    const alice = clientPage('pgAlice', 'st-alice');
    const anonymous = clientPage('pgAnon', 'st-anon');
    const state = (page: ReturnType<typeof clientPage>, mediaTimeSec: number) =>
      page.event(playerEvents.stateChange({ videoId: 'v', previousState: 1, state: 2, mediaTimeSec }));
    for (const sent of [
      alice.request(T0 + 1, [state(alice, 1), state(alice, 2)], { viewer: { accountId: 'acct-alice', channelId: 'UCalice' } }),
      anonymous.request(T0 + 2, [state(anonymous, 1)]),
      alice.request(T0 + 3, [state(alice, 3)], { viewer: { accountId: 'acct-alice' } }),
      anonymous.request(T0 + 4, [state(anonymous, 2)], { viewer: { accountId: 'acct-bob' } }), // bob signed in on that page
    ]) {
      await store.recordLogRequest(sent.request, sent.events);
    }
  });
  afterEach(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });
  const walk = async <T>(path: string): Promise<{ items: T[]; pages: number }> => {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const reply = await get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(reply.statusCode).toBe(200);
      const page = reply.json<Page<T>>();
      items.push(...page.items);
      if (!page.nextCursor) return { items, pages };
      cursor = page.nextCursor;
    }
  };

  it('lists only what that account sent, events and requests, page by page, with the account on each', async () => {
    const events = await walk<StoredEvent>('/collector/api/events?limit=1&accountId=acct-alice');
    expect(events.pages).toBe(3);
    expect(events.items.map((e) => [e.clientEventId, e.accountId, e.channelId])).toEqual([
      ['pgAlice:1', 'acct-alice', 'UCalice'],
      ['pgAlice:2', 'acct-alice', 'UCalice'],
      ['pgAlice:3', 'acct-alice', undefined],
    ]);
    const requests = await walk<StoredRequest>('/collector/api/requests?limit=1&accountId=acct-alice');
    expect(requests.items.map((r) => [r.receivedAtMs, r.accountId])).toEqual([
      [T0 + 1, 'acct-alice'],
      [T0 + 3, 'acct-alice'],
    ]);
    expect((await get('/collector/api/events?accountId=acct-bob&pageId=pgAnon')).json().items.map((e: StoredEvent) => e.clientEventId)).toEqual(['pgAnon:2']);
    expect((await get('/collector/api/events?accountId=acct-nobody')).json()).toEqual({ items: [] });

    // Without the filter, anonymous events are listed too, without an account.
    const all = (await get('/collector/api/events')).json<Page<StoredEvent>>().items;
    expect(all).toHaveLength(5);
    expect(all[2]).toMatchObject({ clientEventId: 'pgAnon:1' });
    expect(all[2]).not.toHaveProperty('accountId');
  });

  it.each([
    ['empty', ''],
    ['too long', 'a'.repeat(ADMIN_API_MAX_ACCOUNT_ID_CHARS + 1)],
    ['a space', 'acct alice'],
    ['a quote', "acct-'alice"],
    ['a percent', 'acct%25'],
    ['a newline', 'acct%0Aalice'],
    ['non-ASCII', 'acct-%C3%A9'],
  ])('refuses an accountId with %s: 400 from the schema, on both lists', async (_why, value) => {
    for (const list of ['events', 'requests']) {
      const reply = await get(`/collector/api/${list}?accountId=${value}`);
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toEqual({ error: { code: 400, message: expect.stringMatching(/accountId/) } });
    }
  });

  it('takes the longest accountId the limit allows', async () => {
    const reply = await get(`/collector/api/events?accountId=${'a'.repeat(ADMIN_API_MAX_ACCOUNT_ID_CHARS)}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ items: [] });
  });
});
