import { StoreQueryError } from '../../store';
import type { ClickHouseConnection } from './connection';
import { num } from './rows';
import { DATA_TABLES, MAX_RECEIVED_AT_MS } from './schema';
import { quoteString, sqlInt } from './sql';

/**
 * Deletes what was received before `cutoffMs` from every data table, and resolves with how many events went once the
 * deletes are done. `ALTER TABLE … DELETE` is an asynchronous mutation in 18.16 (no `mutations_sync`), so each table's
 * delete is waited for in `system.mutations`, at most `mutationTimeoutMs`.
 */
export async function deleteReceivedBefore(conn: ClickHouseConnection, cutoffMs: number, mutationTimeoutMs: number): Promise<number> {
  if (typeof cutoffMs !== 'number' || Number.isNaN(cutoffMs)) throw new StoreQueryError('cutoffMs must be a number');
  const cutoff = sqlInt(Math.min(Math.max(Math.ceil(cutoffMs), 0), MAX_RECEIVED_AT_MS + 1), 'cutoffMs');
  const [counted] = await conn.rows<{ n: string }>(`SELECT count() AS n FROM ${conn.table('events')} FINAL WHERE received_at_ms < ${cutoff}`);
  for (const name of DATA_TABLES) {
    // Every stored version (not FINAL): a mutation is only started where there is something to delete.
    const [any] = await conn.rows<{ n: string }>(`SELECT count() AS n FROM ${conn.table(name)} WHERE received_at_ms < ${cutoff}`);
    if (num(any?.n ?? 0) === 0) continue;
    await conn.client.command({ query: `ALTER TABLE ${conn.table(name)} DELETE WHERE received_at_ms < ${cutoff}` });
    await waitForMutations(conn, name, mutationTimeoutMs);
  }
  return num(counted?.n ?? 0);
}

/** 18.16 has no `mutations_sync`: polls `system.mutations` until the table's mutations are done. */
async function waitForMutations(conn: ClickHouseConnection, name: string, mutationTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + mutationTimeoutMs;
  for (;;) {
    const [row] = await conn.rows<{ n: string }>(
      `SELECT count() AS n FROM system.mutations WHERE database = ${quoteString(conn.db)} AND table = ${quoteString(name)} AND is_done = 0`,
    );
    if (num(row?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error(`ClickHouse store: the delete on ${conn.db}.${name} did not finish within ${mutationTimeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
