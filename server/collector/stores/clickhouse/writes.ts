import { randomBytes } from 'node:crypto';
import type { CollectorStore, IncomingErrorReport, IncomingPing } from '../../store';
import type { ClickHouseConnection } from './connection';
import { createGroupCommit } from './groupCommit';
import { num } from './rows';
import { quoteString, sqlInt, wellFormed } from './sql';
import { jsonOrNull, need, nullable, validateErrorReport, validateEvent, validatePing, validateRequest } from './validate';
import { writeLogBatch } from './writeLogBatch';

/** What the store writes; each resolves once ClickHouse has acknowledged its insert. */
export type ClickHouseWrites = Pick<CollectorStore, 'recordLogRequest' | 'recordError' | 'recordPing'>;

export function createClickHouseWrites(conn: ClickHouseConnection): ClickHouseWrites {
  const commits = createGroupCommit((batch) => writeLogBatch(conn, batch));
  return {
    async recordLogRequest(request, events) {
      validateRequest(request);
      need(Array.isArray(events), 'events must be an array');
      events.forEach(validateEvent);
      return commits.enqueue(request, events);
    },
    recordError: (report) => recordError(conn, report),
    recordPing: (ping) => recordPing(conn, ping),
  };
}

let rowCounter = 0;
/** Error report and ping ids sort by creation within one process (the list order within one millisecond). */
const newRowId = (): string => `${(++rowCounter).toString(36).padStart(8, '0')}-${randomBytes(6).toString('hex')}`;

async function recordError(conn: ClickHouseConnection, report: IncomingErrorReport): Promise<void> {
  validateErrorReport(report);
  await conn.client.insert({
    table: conn.table('errors'),
    format: 'JSONEachRow',
    values: [
      {
        id: newRowId(),
        received_at_ms: report.receivedAtMs,
        message: wellFormed(report.message),
        message_truncated: report.messageTruncated ? 1 : 0,
        url: nullable(report.url),
        file: nullable(report.file),
        line: nullable(report.line),
        stack: nullable(report.stack),
        type: nullable(report.type),
        extra_json: jsonOrNull(report.extra, 'extra') ?? '{}',
      },
    ],
  });
}

async function recordPing(conn: ClickHouseConnection, ping: IncomingPing): Promise<{ stored: boolean }> {
  validatePing(ping);
  const key = [
    `ei = ${quoteString(ping.ei)}`,
    `cpn = ${quoteString(ping.cpn)}`,
    `kind = ${quoteString(ping.kind)}`,
    `ping_seq = ${sqlInt(ping.seq, 'seq', 0, 0xffff_ffff)}`,
  ];
  // Best effort, as for events: the sorting key and FINAL make a resend one row whatever this check says; it only
  // tells the route whether this arrival was the first.
  const [seen] = await conn.rows<{ n: string }>(`SELECT count() AS n FROM ${conn.table('pings')} FINAL WHERE ${key.join(' AND ')}`);
  if (num(seen?.n ?? 0) > 0) return { stored: false };
  await conn.client.insert({
    table: conn.table('pings'),
    format: 'JSONEachRow',
    values: [
      {
        kind: ping.kind,
        docid: wellFormed(ping.docid),
        ei: wellFormed(ping.ei),
        cpn: wellFormed(ping.cpn),
        ping_seq: ping.seq,
        received_at_ms: ping.receivedAtMs,
        id: newRowId(),
        cmt: ping.cmt,
        rt: ping.rt,
        len: ping.len ?? null,
        state: nullable(ping.state),
        st_json: JSON.stringify(ping.st),
        et_json: JSON.stringify(ping.et),
        final: ping.final ? 1 : 0,
      },
    ],
  });
  return { stored: true };
}
