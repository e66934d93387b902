import type { SqliteDatabase } from '../../../db/openDatabase';
import type { IncomingErrorReport, IncomingPing } from '../../store';
import type { RunningTotals } from './totals';

/** The single-row writes: each runs in a transaction of its own, committed before the call returns. */
export interface SqliteReportWrites {
  recordError(report: IncomingErrorReport): void;
  /** `stored` is false when that ping (ei, cpn, kind, seq) was stored already: a resend is one row. */
  recordPing(ping: IncomingPing): { stored: boolean };
}

export function prepareReportWrites(db: SqliteDatabase, { bump, rollUpErrors }: RunningTotals): SqliteReportWrites {
  const insertError = db.prepare(
    `INSERT INTO collector_errors (received_at_ms, message, message_truncated, url, file, line, stack, type, extra_json)
     VALUES (@receivedAtMs, @message, @messageTruncated, @url, @file, @line, @stack, @type, @extraJson)`,
  );
  const insertPing = db.prepare(
    `INSERT INTO collector_pings (kind, docid, ei, cpn, ping_seq, received_at_ms, cmt, rt, len, state, st_json, et_json, final)
     VALUES (@kind, @docid, @ei, @cpn, @seq, @receivedAtMs, @cmt, @rt, @len, @state, @stJson, @etJson, @final)
     ON CONFLICT (ei, cpn, kind, ping_seq) DO NOTHING`,
  );

  return {
    recordError(report) {
      db.transaction(() => {
        insertError.run({
          receivedAtMs: report.receivedAtMs,
          message: report.message,
          messageTruncated: report.messageTruncated ? 1 : 0,
          url: report.url ?? null,
          file: report.file ?? null,
          line: report.line ?? null,
          stack: report.stack ?? null,
          type: report.type ?? null,
          extraJson: JSON.stringify(report.extra),
        });
        bump('errors', 1);
        rollUpErrors(report.receivedAtMs, 1);
      }).immediate();
    },

    recordPing(ping) {
      const { changes } = db
        .transaction(() =>
          insertPing.run({
            kind: ping.kind,
            docid: ping.docid,
            ei: ping.ei,
            cpn: ping.cpn,
            seq: ping.seq,
            receivedAtMs: ping.receivedAtMs,
            cmt: ping.cmt,
            rt: ping.rt,
            len: ping.len ?? null,
            state: ping.state ?? null,
            stJson: JSON.stringify(ping.st),
            etJson: JSON.stringify(ping.et),
            final: ping.final ? 1 : 0,
          }),
        )
        .immediate();
      return { stored: changes > 0 };
    },
  };
}
