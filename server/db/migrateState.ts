import { sql, type Kysely } from 'kysely';
import { inTransaction } from './inTransaction';
import type { StateDatabase } from './openStateDatabase';
import type { StateTables } from './stateTables';

/**
 * One step of a domain's migration ladder on either engine: version n brings the schema from n − 1 to n. Each engine
 * has its own statements where their SQL differs (types, collations, expression indexes), both building the same
 * tables for the stores' one set of queries. A shipped step is never edited: the next one is added.
 */
export interface StateMigration {
  version: number;
  /** What the step does, kept in `schema_migrations` for whoever reads the database. */
  description: string;
  /** The step on SQLite, one statement per entry: exactly what the step has always run there. */
  sqlite: readonly string[];
  /** The same step on PostgreSQL, one statement per entry. */
  postgres: readonly string[];
}

/** `schema_migrations` as the collector's SQLite ladder creates it, and its PostgreSQL twin. */
const MIGRATIONS_TABLE = {
  sqlite: `CREATE TABLE IF NOT EXISTS schema_migrations (
    domain TEXT NOT NULL,
    version INTEGER NOT NULL,
    description TEXT NOT NULL,
    applied_at_ms INTEGER NOT NULL,
    PRIMARY KEY (domain, version)
  ) STRICT`,
  postgres: `CREATE TABLE IF NOT EXISTS schema_migrations (
    domain TEXT COLLATE "C" NOT NULL,
    version INTEGER NOT NULL,
    description TEXT NOT NULL,
    applied_at_ms BIGINT NOT NULL,
    PRIMARY KEY (domain, version)
  )`,
} as const;

async function currentVersion(trx: Kysely<StateTables>, domain: string): Promise<number> {
  const row = await trx
    .selectFrom('schema_migrations')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('domain', '=', domain)
    .executeTakeFirst();
  return Number(row?.v ?? 0);
}

/**
 * Brings one domain's tables (`accounts`, `platform`) up to the last step of its ladder on the state database, each
 * step in its own transaction recorded in `schema_migrations(domain, version)`, and safe when several servers start at
 * once on one database: every step's transaction is serialized with the others' (SQLite's `BEGIN IMMEDIATE`, an
 * advisory lock on PostgreSQL), reads the version again inside, and applies only the step that comes next — so each
 * step runs once, whoever gets there first. A database newer than this code (a version above the ladder's last) is
 * refused rather than guessed at.
 *
 * @returns the versions this call applied (empty when another server did, or the schema was current).
 */
export async function migrateState(state: StateDatabase, domain: string, ladder: readonly StateMigration[]): Promise<number[]> {
  ladder.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`${domain} migration ladder: step ${i + 1} is numbered ${m.version}`);
  });
  const applied: number[] = [];
  for (;;) {
    const step = await inTransaction(state, { scope: 'migrate', key: 'schema_migrations' }, async (trx) => {
      await sql.raw(MIGRATIONS_TABLE[state.engine]).execute(trx);
      const current = await currentVersion(trx, domain);
      if (current > ladder.length) {
        throw new Error(`The ${domain} tables are at version ${current}, newer than this server knows (${ladder.length}): upgrade the server.`);
      }
      const next = ladder[current];
      if (!next) return undefined;
      for (const statement of next[state.engine]) await sql.raw(statement).execute(trx);
      await trx.insertInto('schema_migrations').values({ domain, version: next.version, description: next.description, applied_at_ms: Date.now() }).execute();
      return next.version;
    });
    if (step === undefined) return applied;
    applied.push(step);
  }
}
