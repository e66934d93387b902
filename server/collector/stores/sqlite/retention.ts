import type { SqliteDatabase } from '../../../db/openDatabase';
import { minuteOf } from './minuteRollups';
import type { RunningTotals } from './totals';

/**
 * Deletes what was received before `cutoffMs` (events, conflicts, requests, error reports, pings), `chunkRows` rows of
 * each table per transaction, and takes what it deletes off the running totals and the minutes' rollups in the same
 * transaction. Resolves with how many events went; stops early once the store is closing.
 */
export async function deleteReceivedBefore(
  db: SqliteDatabase,
  { bump, bumpName, recomputeMinutes }: RunningTotals,
  cutoffMs: number,
  chunkRows: number,
  isClosed: () => boolean,
): Promise<number> {
  const cutoff = Math.trunc(cutoffMs);
  const oldEvents = db.prepare('SELECT seq, name, endpoint, received_at_ms FROM collector_events WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
  const deleteEvent = db.prepare('DELETE FROM collector_events WHERE seq = ?');
  const oldRequests = db.prepare(
    'SELECT seq, compressed, duplicates, refused FROM collector_requests WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?',
  );
  const deleteRequest = db.prepare('DELETE FROM collector_requests WHERE seq = ?');
  const oldConflicts = db.prepare('SELECT seq FROM collector_conflicts WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
  const deleteConflict = db.prepare('DELETE FROM collector_conflicts WHERE seq = ?');
  const oldErrors = db.prepare('SELECT seq, received_at_ms FROM collector_errors WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
  const deleteError = db.prepare('DELETE FROM collector_errors WHERE seq = ?');
  const oldPings = db.prepare('SELECT seq FROM collector_pings WHERE received_at_ms < ? ORDER BY received_at_ms LIMIT ?');
  const deletePing = db.prepare('DELETE FROM collector_pings WHERE seq = ?');

  // One chunk per transaction, the event loop free in between: a large deletion never stalls ingest.
  const chunk = db.transaction(() => {
    let deletedEvents = 0;
    let rows = 0;
    const byName = new Map<string, number>();
    // The minutes this chunk deletes from: their rollups are recomputed from the rows left, once the chunk is out.
    const minutes = new Set<number>();
    for (const r of oldEvents.all(cutoff, chunkRows) as { seq: number; name: string; endpoint: string; received_at_ms: number }[]) {
      deleteEvent.run(r.seq);
      minutes.add(minuteOf(r.received_at_ms));
      deletedEvents += 1;
      bump(`endpoint:${r.endpoint}`, -1);
      byName.set(r.name, (byName.get(r.name) ?? 0) - 1);
    }
    bump('events', -deletedEvents);
    for (const [name, delta] of byName) bumpName(name, delta);
    rows += deletedEvents;
    for (const r of oldRequests.all(cutoff, chunkRows) as { seq: number; compressed: number; duplicates: number; refused: number }[]) {
      deleteRequest.run(r.seq);
      bump('requests', -1);
      bump('compressedRequests', -r.compressed);
      bump('duplicatesDropped', -r.duplicates);
      bump('refusedEvents', -r.refused);
      rows += 1;
    }
    for (const r of oldConflicts.all(cutoff, chunkRows) as { seq: number }[]) {
      deleteConflict.run(r.seq);
      bump('conflicts', -1);
      rows += 1;
    }
    for (const r of oldErrors.all(cutoff, chunkRows) as { seq: number; received_at_ms: number }[]) {
      deleteError.run(r.seq);
      minutes.add(minuteOf(r.received_at_ms));
      bump('errors', -1);
      rows += 1;
    }
    for (const r of oldPings.all(cutoff, chunkRows) as { seq: number }[]) {
      deletePing.run(r.seq);
      rows += 1;
    }
    recomputeMinutes(minutes);
    return { deletedEvents, rows };
  });
  let total = 0;
  for (;;) {
    if (isClosed()) break;
    const { deletedEvents, rows } = chunk.immediate();
    total += deletedEvents;
    if (rows === 0) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}
