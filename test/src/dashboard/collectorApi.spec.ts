import { firstValueFrom, lastValueFrom, of, throwError } from 'rxjs';
import { CollectorApiError, createCollectorApi, fetchJson, queryString } from '../../../src/dashboard/collectorApi';

const json = (status: number, body: unknown, statusText = '') =>
  ({ status, ok: status >= 200 && status < 300, statusText, json: async () => body }) as unknown as Response;

describe('fetchJson', () => {
  it('GETs the root-relative path with the bearer token, uncached, and answers the JSON once', async () => {
    const fetchImpl = jest.fn(async () => json(200, { a: 1 }));
    await expect(firstValueFrom(fetchJson(fetchImpl)('/collector/api/stats', 'tok'))).resolves.toEqual({ a: 1 });
    expect(fetchImpl).toHaveBeenCalledWith(
      '/collector/api/stats',
      expect.objectContaining({ headers: { authorization: 'Bearer tok', accept: 'application/json' }, cache: 'no-store' }),
    );
  });

  it('a 401 is unauthorized with the server’s message', async () => {
    const fetchImpl = async () => json(401, { error: { code: 401, message: 'The admin token is wrong' } });
    const error = await firstValueFrom(fetchJson(fetchImpl)('/x', 't')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CollectorApiError);
    expect(error).toMatchObject({ failure: 'unauthorized', status: 401, message: 'The admin token is wrong' });
  });

  it('another status is an http failure with the server’s message, or the status when there is none', async () => {
    await expect(
      firstValueFrom(fetchJson(async () => json(400, { error: { code: 400, message: 'querystring/limit must be <= 500' } }))('/x', 't')),
    ).rejects.toMatchObject({
      failure: 'http',
      status: 400,
      message: 'querystring/limit must be <= 500',
    });
    await expect(firstValueFrom(fetchJson(async () => json(502, undefined, 'Bad Gateway'))('/x', 't'))).rejects.toMatchObject({
      failure: 'http',
      message: 'The collector answered 502 Bad Gateway.',
    });
  });

  it('no answer is a network failure; a body that is not JSON is malformed', async () => {
    await expect(firstValueFrom(fetchJson(async () => Promise.reject(new TypeError('Failed to fetch')))('/x', 't'))).rejects.toMatchObject({
      failure: 'network',
      status: 0,
      message: 'The collector could not be reached (Failed to fetch).',
    });
    await expect(firstValueFrom(fetchJson(async () => json(200, undefined))('/x', 't'))).rejects.toMatchObject({ failure: 'malformed' });
  });

  it('aborts the request when the subscriber leaves', () => {
    let signal: AbortSignal | undefined;
    const fetchImpl = jest.fn((_: RequestInfo | URL, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    });
    const subscription = fetchJson(fetchImpl)('/x', 't').subscribe();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
  });
});

describe('createCollectorApi', () => {
  it('builds each path with its query, leaving out what is absent', () => {
    expect(queryString({ limit: 500, sinceMs: 0, text: '', name: undefined, cursor: 'c 1' })).toBe('?limit=500&sinceMs=0&cursor=c+1');
    expect(queryString({})).toBe('');
    const paths: string[] = [];
    const api = createCollectorApi((path) => {
      paths.push(path);
      return of(path.includes('timeseries') ? { buckets: [] } : path.includes('events') ? { items: [] } : { events: 0, requests: 0 });
    });
    api.stats('t').subscribe();
    api.timeseries('t', { sinceMs: 1000, untilMs: 3000, bucketMs: 2000 }).subscribe();
    api.events('t', { limit: 500, sinceMs: 5, name: 'playerReady', endpoint: 'log_event', text: 'VF' }).subscribe();
    expect(paths).toEqual([
      '/collector/api/stats',
      '/collector/api/timeseries?sinceMs=1000&untilMs=3000&bucketMs=2000',
      '/collector/api/events?limit=500&sinceMs=5&name=playerReady&endpoint=log_event&text=VF',
    ]);
  });

  it('checks the answers: stats get defaults for what is missing; items without the essentials are left out', async () => {
    const api = createCollectorApi((path) =>
      of(
        path.includes('stats')
          ? { store: 'sqlite', events: 3, requests: 1, byName: { playerLoad: 3, bad: 'x' }, faultsPlayed: 0 }
          : {
              items: [{ name: 'a', stream: 's', dedupeKey: 'k', receivedAtMs: 1, endpoint: 'log_event', event: { a: {} } }, { name: 'no-stream' }],
              nextCursor: '',
            },
      ),
    );
    await expect(lastValueFrom(api.stats('t'))).resolves.toEqual({
      store: 'sqlite',
      requests: 1,
      compressedRequests: 0,
      events: 3,
      duplicatesDropped: 0,
      conflicts: 0,
      refusedEvents: 0,
      byEndpoint: { log_event: 0, video_stats: 0 },
      byName: { playerLoad: 3 },
      errors: 0,
    });
    const page = await lastValueFrom(api.events('t', { limit: 10 }));
    expect(page.items.map((i) => i.name)).toEqual(['a']);
    expect(page).not.toHaveProperty('nextCursor');
    await expect(lastValueFrom(createCollectorApi(() => of({ nope: true })).timeseries('t', { sinceMs: 0, untilMs: 1, bucketMs: 1 }))).rejects.toMatchObject({
      failure: 'malformed',
    });
  });

  it('passes failures through', async () => {
    const api = createCollectorApi(() => throwError(() => new CollectorApiError('unauthorized', 401, 'no')));
    await expect(lastValueFrom(api.stats('t'))).rejects.toMatchObject({ failure: 'unauthorized' });
  });
});
