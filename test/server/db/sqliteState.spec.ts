import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore } from '../../../server/accounts/accountStore';
import { SIGNIN_FREE_FAILURES } from '../../../server/accounts/limits';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { sessionIdHashOf } from '../../../server/accounts/sessionSecrets';
import { collectorMigrations } from '../../../server/collector/stores/sqlite/migrations';
import { migrate } from '../../../server/db/migrate';
import { DATABASE_FILE_NAME, openDatabase, type SqliteDatabase } from '../../../server/db/openDatabase';
import { openStateDatabase, type StateDatabase } from '../../../server/db/openStateDatabase';
import { migrateState } from '../../../server/db/migrateState';
import { platformMigrations } from '../../../server/platform/migrations';
import { SHIPPED_SQLITE_LADDERS } from './shippedSqliteLadders';
import { describeStateConformance } from './stateConformance';
import type { FreshState } from './stateFixture';

/** A temporary data folder whose `vidframe.sqlite` is the state database (the server's default). */
async function freshSqlite(): Promise<FreshState> {
  const dataDir = mkdtempSync(join(tmpdir(), 'state-sqlite-'));
  const opened: StateDatabase[] = [];
  return {
    setting: { engine: 'sqlite' },
    dataDir,
    async open() {
      const state = await openStateDatabase({ engine: 'sqlite' }, dataDir);
      opened.push(state);
      return state;
    },
    async cleanup() {
      for (const state of opened) await state.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Generous: the machine running the tests may be busy, and one test starts three server processes. */
jest.setTimeout(60_000);

describeStateConformance('SQLite', { engine: 'sqlite', fresh: freshSqlite, concurrentConnections: false });

/** The schema as SQLite keeps it, whitespace aside. */
const schemaOf = (db: SqliteDatabase) =>
  (
    db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { type: string; name: string; sql: string }[]
  ).map((r) => ({ ...r, sql: r.sql.replace(/\s+/g, ' ') }));

describe('SQLite state database: the file of the data folder', () => {
  let fresh: FreshState;
  beforeEach(async () => {
    fresh = await freshSqlite();
  });
  afterEach(() => fresh.cleanup());

  it('opens the data folder’s file with its pragmas: WAL, synchronous FULL, a busy timeout, foreign keys', async () => {
    const state = await fresh.open();
    const pragma = async (name: string) => Object.values((await sql.raw<Record<string, unknown>>(`PRAGMA ${name}`).execute(state.db)).rows[0] ?? {})[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(2);
    expect(await pragma('busy_timeout')).toBe(5000);
    expect(await pragma('foreign_keys')).toBe(1);
    expect(state.engine).toBe('sqlite');
    await migrateState(state, 'accounts', accountsMigrations);
    const file = openDatabase(join(fresh.dataDir, DATABASE_FILE_NAME), { readonly: true });
    expect(file.prepare("SELECT count(*) AS n FROM schema_migrations WHERE domain = 'accounts'").get()).toEqual({ n: 3 });
    file.close();
  });

  it('continues a file made by the shipped ladders unchanged: nothing to apply, its rows served, its schema as built today', async () => {
    const file = join(fresh.dataDir, DATABASE_FILE_NAME);
    const old = openDatabase(file);
    migrate(
      old,
      'accounts',
      SHIPPED_SQLITE_LADDERS.accounts.map((s) => ({ version: s.version, description: s.description, up: (db: SqliteDatabase) => db.exec(s.sql) })),
    );
    migrate(
      old,
      'platform',
      SHIPPED_SQLITE_LADDERS.platform.map((s) => ({ version: s.version, description: s.description, up: (db: SqliteDatabase) => db.exec(s.sql) })),
    );
    old.prepare("INSERT INTO accounts VALUES ('acc_old', 'Old@Example.com', 'Old', 'x', 1)").run();
    const secret = 'B'.repeat(43);
    old.prepare('INSERT INTO sessions VALUES (?, ?, NULL, 1, ?)').run(sessionIdHashOf(secret), 'acc_old', Date.UTC(2100, 0, 1));
    old.prepare("INSERT INTO watch_later VALUES ('acc_old', 'VFsunrise01', 1, 1)").run();
    const before = schemaOf(old);
    old.close();

    const state = await fresh.open();
    expect(await migrateState(state, 'accounts', accountsMigrations)).toEqual([]);
    expect(await migrateState(state, 'platform', platformMigrations)).toEqual([]);
    const store = createAccountStore(state);
    expect(await store.accountByEmail('old@example.com')).toMatchObject({ id: 'acc_old' });
    expect(await store.sessionBySecret(secret)).toMatchObject({ accountId: 'acc_old' });
    const reread = openDatabase(file, { readonly: true });
    expect(schemaOf(reread)).toEqual(before);
    reread.close();

    // Today's ladder builds the same schema on an empty file.
    const other = await freshSqlite();
    try {
      const built = await other.open();
      await migrateState(built, 'accounts', accountsMigrations);
      await migrateState(built, 'platform', platformMigrations);
      const fromToday = openDatabase(join(other.dataDir, DATABASE_FILE_NAME), { readonly: true });
      expect(schemaOf(fromToday)).toEqual(before);
      fromToday.close();
    } finally {
      await other.cleanup();
    }
  });

  it('shares schema_migrations with the collector’s ladder on the same file', async () => {
    const state = await fresh.open();
    await migrateState(state, 'accounts', accountsMigrations);
    const collector = openDatabase(join(fresh.dataDir, DATABASE_FILE_NAME));
    expect(migrate(collector, 'collector', collectorMigrations).length).toBeGreaterThan(0);
    collector.close();
    expect(await migrateState(state, 'platform', platformMigrations)).toEqual([1]);
    const domains = await state.db.selectFrom('schema_migrations').select('domain').distinct().orderBy('domain').execute();
    expect(domains.map((d) => d.domain)).toEqual(['accounts', 'collector', 'platform']);
  });

  it('forgets sign-in failures beyond the cap through the index, without sorting the table', async () => {
    const state = await fresh.open();
    await migrateState(state, 'accounts', accountsMigrations);
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT email_hash FROM signin_failures ORDER BY failures >= ${sql.lit(
      SIGNIN_FREE_FAILURES,
    )}, last_failure_ms LIMIT 1`.execute(state.db);
    const plan = rows.map((r) => r.detail).join('\n');
    expect(plan).toContain('signin_failures_forget');
    expect(plan).not.toContain('TEMP B-TREE');
  });
});
