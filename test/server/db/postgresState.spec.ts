import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { migrateState } from '../../../server/db/migrateState';
import { openStateDatabase, type StateDatabase } from '../../../server/db/openStateDatabase';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';
import { describeStateConformance } from './stateConformance';
import type { FreshState } from './stateFixture';

/**
 * The state database on a real Debian PostgreSQL that this file starts on loopback (`test/helpers/postgresServer.ts`):
 * the shared conformance suite, each test on a database of its own, then what is particular to PostgreSQL.
 */
jest.setTimeout(60_000);

let server: PostgresServer;
let databases = 0;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.close());

async function freshPostgres(): Promise<FreshState> {
  const name = `vf_state_${process.pid}_${++databases}`;
  // A locale that folds and sorts beyond ASCII, as deployed databases do: the tables' "C" columns keep SQLite's rules.
  const url = await server.createDatabase(name, { locale: 'C.UTF-8' });
  const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-'));
  const opened: StateDatabase[] = [];
  return {
    setting: { engine: 'postgres', url },
    dataDir,
    async open() {
      const state = await openStateDatabase({ engine: 'postgres', url }, dataDir);
      opened.push(state);
      return state;
    },
    async cleanup() {
      for (const state of opened) await state.close();
      await server.dropDatabase(name);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeStateConformance('PostgreSQL', { engine: 'postgres', fresh: freshPostgres, concurrentConnections: true });

describe('PostgreSQL state database', () => {
  it('refuses to start on a database that does not answer, saying so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-'));
    try {
      await expect(openStateDatabase({ engine: 'postgres', url: server.urlOf('vf_no_such_database') }, dataDir)).rejects.toThrow(
        /The PostgreSQL database of VIDFRAME_DB does not answer: .*vf_no_such_database/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('waits for the migration lock another server holds, then applies what is left', async () => {
    const fresh = await freshPostgres();
    const other = new pg.Client({ connectionString: fresh.setting.engine === 'postgres' ? fresh.setting.url : '' });
    other.on('error', () => {}); // the cluster stopping under a failed test must not end the process
    await other.connect();
    try {
      // Another server in the middle of its ladder: it holds the lock every migration takes.
      await other.query("BEGIN; SELECT pg_advisory_xact_lock(hashtext('vidframe:migrate'), hashtext('schema_migrations'))");
      const state = await fresh.open();
      let finished = false;
      const migrating = migrateState(state, 'accounts', accountsMigrations).finally(() => (finished = true));
      const waiting = async () => Number((await other.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0].n);
      while (!finished && (await waiting()) === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(finished).toBe(false); // it waits for the lock
      const tables = await other.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'accounts'");
      expect(Number(tables.rows[0].n)).toBe(0); // nothing applied while it waits
      await other.query('COMMIT');
      expect(await migrating).toEqual([1, 2, 3]);
    } finally {
      await other.end();
      await fresh.cleanup();
    }
  });
});
