import type { SqliteDatabase } from './openDatabase';

/** One step of a domain's migration ladder: version n brings the schema from n − 1 to n. */
export interface Migration {
  version: number;
  /** What the step does, kept in `schema_migrations` for whoever reads the database. */
  description: string;
  up(db: SqliteDatabase): void;
}

/**
 * Brings one domain's tables (`collector`, `accounts`, …) up to the last step of its numbered ladder, each step in
 * its own transaction, and records it in `schema_migrations(domain, version)`. Each domain owns its ladder (in its
 * own folder), so the database grows by domain as the server does. A database newer than this code (a version above
 * the ladder's last) is refused rather than guessed at.
 *
 * @returns the versions applied now (empty when the schema was current).
 */
export function migrate(db: SqliteDatabase, domain: string, ladder: readonly Migration[]): number[] {
  ladder.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`${domain} migration ladder: step ${i + 1} is numbered ${m.version}`);
  });
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    domain TEXT NOT NULL,
    version INTEGER NOT NULL,
    description TEXT NOT NULL,
    applied_at_ms INTEGER NOT NULL,
    PRIMARY KEY (domain, version)
  ) STRICT`);
  const current = (db.prepare('SELECT max(version) AS v FROM schema_migrations WHERE domain = ?').get(domain) as { v: number | null }).v ?? 0;
  if (current > ladder.length) {
    throw new Error(`The ${domain} tables are at version ${current}, newer than this server knows (${ladder.length}): upgrade the server.`);
  }
  const record = db.prepare('INSERT INTO schema_migrations (domain, version, description, applied_at_ms) VALUES (?, ?, ?, ?)');
  const applied: number[] = [];
  for (const step of ladder.slice(current)) {
    db.transaction(() => {
      step.up(db);
      record.run(domain, step.version, step.description, Date.now());
    }).immediate();
    applied.push(step.version);
  }
  return applied;
}
