/**
 * The collector's ClickHouse store: for several stateless collectors writing to one ClickHouse.
 *
 * Exactly-once on read rests on the engine alone: `events` is a ReplacingMergeTree keyed on `(stream, dedupe_key)`
 * and every read uses `FINAL`, so an event inserted twice — resent, or sent through two collectors at once — is one
 * row in every list, count and chart, whether or not the background merge has run yet. The `duplicates` a request
 * reports is best effort: a look-up of the batch's keys before the insert (two collectors racing on the same event
 * may both count it as accepted; the stored data stays right). `recordLogRequest` resolves after ClickHouse has
 * acknowledged the inserts (a synchronous HTTP INSERT answers once the rows are written to a part). The two inserts
 * (events, then the request's row) are not one transaction: if the second fails, the call rejects, the client
 * resends, and the resent events count as duplicates.
 *
 * Written for, and tested against, Debian's clickhouse-server 18.16, so the code stays within what it has:
 * - no query parameters: every value in a query's text is a checked number or goes through `quoteString`
 *   (`sql.ts`), every name through `identifier`; rows are inserted as `JSONEachRow` in the request body;
 * - no `async_insert`, `wait_end_of_query`, `send_progress_in_http_headers`, session ids or HTTP compression: the
 *   client is created with compression off and no ClickHouse settings, so each request carries only `query_id`
 *   (and the INSERT's `query`), which 18.16 accepts;
 * - no `DateTime64` (times are `UInt64` milliseconds), no `LowCardinality` (experimental in 18.16), no `JSON` type
 *   or `JSONExtract*` (the columns a query needs are stored explicitly beside the event's JSON), no tuple comparison
 *   (cursors are expanded into `a > x OR (a = x AND …)`);
 * - `ALTER TABLE … DELETE` is an asynchronous mutation with no `mutations_sync`: retention waits on
 *   `system.mutations` until it is done;
 * - no `ADD COLUMN IF NOT EXISTS` (a syntax error in 18.16): a migration adds a column only when `system.columns`
 *   does not list it, and takes "already exists" from a collector racing it as done once `system.columns` lists it;
 * - `JSONEachRow` input refuses lone UTF-16 surrogates: a plain string column gets U+FFFD in their place, as any
 *   UTF-8 store writes them (JSON columns keep them exactly, as `\udxxx` escapes);
 * - every insert makes a part (merged in the background), and 18.16 slows inserts past 150 active parts of a
 *   partition and refuses them past 300 ("Too many parts"). The store therefore commits in groups: the requests that
 *   arrive in one turn of the event loop go in one insert (up to two inserts in flight; later ones wait), each
 *   answered once its insert is acknowledged.
 *   (A `Buffer` table would batch too, but loses what it holds on a crash after it was acknowledged.)
 *
 * What a current ClickHouse (23.x and later) would add:
 * - `ALTER TABLE … ADD COLUMN IF NOT EXISTS` (19.x) instead of the look-up in `system.columns`;
 * - server-side query parameters (`{stream:String}`) instead of quoting values into the query text;
 * - `async_insert=1, wait_for_async_insert=1`: the server batches the many small inserts of many collectors into
 *   few parts, still acknowledging each only once written (here every insert makes a part, and merges follow);
 * - `insert_deduplication_token` and `ReplicatedReplacingMergeTree … ON CLUSTER` for a replicated cluster, with
 *   `insert_quorum` so an acknowledgement means written on more than one replica;
 * - `DateTime64(3)`, `LowCardinality(String)` for name and endpoint, `Map(String, String)` for headers, the `JSON`
 *   type (or `JSONExtract*`) to search inside events;
 * - lightweight `DELETE FROM` or `mutations_sync=2`, or a `TTL` on the received time, for retention;
 * - tuple comparison for cursors, a `FINAL` that is parallel and skips partitions
 *   (`do_not_merge_across_partitions_select_final`), and a projection or a minmax skip index on `received_at_ms`, so
 *   that time-ordered pages do not read the whole table (here each page of a list reads every part, with FINAL).
 *
 * The parts: `parseClickHouseUrl.ts` (the store URL), `connection.ts` (the client), `schema.ts` and `migrate.ts`
 * (the ladder), `validate.ts` (what a write must hold), `writes.ts` with `groupCommit.ts` and `writeLogBatch.ts`
 * (ingest), `reads.ts` with `paging.ts` and `rows.ts` (the lists), `rollups.ts` (stats and the time series),
 * `retention.ts` (deletes by received time), `sql.ts` (the only ways a value enters a query's text).
 */
import type { CollectorStore } from '../../store';
import { connectionTo, openClient, type ClientOptions } from './connection';
import { migrate } from './migrate';
import { parseClickHouseUrl } from './parseClickHouseUrl';
import { createClickHouseReads } from './reads';
import { deleteReceivedBefore } from './retention';
import { createClickHouseRollups } from './rollups';
import { DATA_TABLES } from './schema';
import { identifier } from './sql';
import { createClickHouseWrites } from './writes';

export interface ClickHouseStoreOptions extends ClientOptions {
  /** How long retention waits for its delete mutations (60 s by default). */
  mutationTimeoutMs?: number;
}

/** Opens (and creates or migrates) the store at `url`. Rejects with a clear error if the URL or server is wrong. */
export async function createClickHouseStore(url: string, opts: ClickHouseStoreOptions = {}): Promise<CollectorStore> {
  const target = parseClickHouseUrl(url);
  const db = identifier(target.database);
  const client = openClient(target, opts);
  try {
    await migrate(client, db);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`ClickHouse store at ${target.httpUrl}/${db} could not be opened: ${(error as Error).message}`, { cause: error });
  }
  const conn = connectionTo(client, db);
  const mutationTimeoutMs = opts.mutationTimeoutMs ?? 60_000;
  const writes = createClickHouseWrites(conn);
  const reads = createClickHouseReads(conn);
  const rollups = createClickHouseRollups(conn);

  const inflight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;
  /** Runs one operation of the store, tracked so that `close()` can finish it first. */
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    if (closing) return Promise.reject(new Error('ClickHouse store is closed'));
    const running = work();
    inflight.add(running);
    running.then(
      () => inflight.delete(running),
      () => inflight.delete(running),
    );
    return running;
  };

  return {
    kind: 'clickhouse',
    recordLogRequest: (request, events) => track(() => writes.recordLogRequest(request, events)),
    recordError: (report) => track(() => writes.recordError(report)),
    recordPing: (ping) => track(() => writes.recordPing(ping)),
    listPings: (query) => track(() => reads.listPings(query)),
    listEvents: (query) => track(() => reads.listEvents(query)),
    listConflicts: (query) => track(() => reads.listConflicts(query)),
    listRequests: (query) => track(() => reads.listRequests(query)),
    listErrors: (query) => track(() => reads.listErrors(query)),
    stats: () => track(() => rollups.stats()),
    timeseries: (query) => track(() => rollups.timeseries(query)),
    deleteReceivedBefore: (cutoffMs) => track(() => deleteReceivedBefore(conn, cutoffMs, mutationTimeoutMs)),
    ping: () =>
      track(async () => {
        const [row] = await conn.rows<{ ok: number | string }>('SELECT 1 AS ok');
        if (Number(row?.ok) !== 1) throw new Error('ClickHouse store: unexpected answer to SELECT 1');
      }),
    clear: () =>
      track(async () => {
        for (const name of DATA_TABLES) await client.command({ query: `TRUNCATE TABLE ${conn.table(name)}` });
      }),
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...inflight]);
        await client.close();
      })();
      return closing;
    },
  };
}
