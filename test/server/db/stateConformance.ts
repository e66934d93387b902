import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { migrateState } from '../../../server/db/migrateState';
import type { StateDatabase } from '../../../server/db/openStateDatabase';
import { platformMigrations } from '../../../server/platform/migrations';
import { describeAccountsConformance } from './accountsConformance';
import { describeClusterConformance } from './clusterConformance';
import { describePlatformConformance } from './platformConformance';
import { countRows, rejectionOf, type FreshState, type StateFixture } from './stateFixture';

const STATE_TABLES = ['accounts', 'channels', 'channel_managers', 'sessions', 'signin_failures', 'known_devices', 'subscriptions', 'watch_later', 'feedback'];
const ROOT = join(__dirname, '..', '..', '..');

/** Starts `count` server processes at once on one database (`startStateServer.ts`) and returns what each applied. */
async function startServersTogether(fresh: FreshState, count: number): Promise<{ accounts: number[]; platform: number[]; seeded: string[] }[]> {
  const value = fresh.setting.engine === 'sqlite' ? 'sqlite' : fresh.setting.url;
  const one = () =>
    new Promise<{ accounts: number[]; platform: number[]; seeded: string[] }>((resolve, reject) => {
      const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'test', 'helpers', 'startStateServer.ts'), value, fresh.dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`a server exited with ${code}:\n${err}`))));
    });
  return Promise.all(Array.from({ length: count }, one));
}

/**
 * The rules every engine of the server's own state keeps (accounts, sessions, sign-in throttles, platform state),
 * run by one spec per engine, as the collector's stores share `storeConformance.ts`: the migrations here, the accounts
 * and the platform in the files beside this one.
 */
export function describeStateConformance(name: string, fixture: StateFixture): void {
  describe(`${name}: migrations`, () => {
    let fresh: FreshState;
    let state: StateDatabase;
    beforeEach(async () => {
      fresh = await fixture.fresh();
      state = await fresh.open();
    });
    afterEach(() => fresh.cleanup());

    it('migrates each domain once: a second run and a reopened database apply nothing', async () => {
      expect(await migrateState(state, 'accounts', accountsMigrations)).toEqual([1, 2, 3]);
      expect(await migrateState(state, 'platform', platformMigrations)).toEqual([1]);
      expect(await migrateState(state, 'accounts', accountsMigrations)).toEqual([]);
      const again = await fresh.open();
      expect(await migrateState(again, 'accounts', accountsMigrations)).toEqual([]);
      expect(await migrateState(again, 'platform', platformMigrations)).toEqual([]);
      const recorded = await state.db.selectFrom('schema_migrations').select(['domain', 'version']).orderBy('domain').orderBy('version').execute();
      expect(recorded).toEqual([
        { domain: 'accounts', version: 1 },
        { domain: 'accounts', version: 2 },
        { domain: 'accounts', version: 3 },
        { domain: 'platform', version: 1 },
      ]);
      for (const table of STATE_TABLES) expect(await countRows(state, table)).toBe(0);
    });

    it('refuses a database newer than this server, and a ladder numbered out of order', async () => {
      await migrateState(state, 'accounts', accountsMigrations);
      await state.db.insertInto('schema_migrations').values({ domain: 'accounts', version: 4, description: 'from the future', applied_at_ms: 0 }).execute();
      await expect(migrateState(state, 'accounts', accountsMigrations)).rejects.toThrow(
        'The accounts tables are at version 4, newer than this server knows (3)',
      );
      await expect(migrateState(state, 'platform', [{ ...platformMigrations[0], version: 2 }])).rejects.toThrow('step 1 is numbered 2');
    });

    it('rolls a failed step back whole and records nothing of it', async () => {
      await migrateState(state, 'platform', platformMigrations);
      const half = ['CREATE TABLE half (a INTEGER)', 'SELECT nonsense('];
      const broken = [{ version: 1, description: 'half a step', sqlite: half, postgres: half }];
      expect(await rejectionOf(migrateState(state, 'broken', broken))).toMatch(/syntax|incomplete/);
      expect(await state.db.selectFrom('schema_migrations').selectAll().where('domain', '=', 'broken').execute()).toEqual([]);
      expect(await rejectionOf(sql`SELECT a FROM half`.execute(state.db))).toMatch(/half/);
    });

    it('migrates and seeds once when several servers start together on an empty database', async () => {
      const started = await startServersTogether(fresh, 3);
      expect(started.flatMap((s) => s.accounts).sort()).toEqual([1, 2, 3]);
      expect(started.flatMap((s) => s.platform)).toEqual([1]);
      expect(started.flatMap((s) => s.seeded).sort()).toEqual(['ada@example.com', 'grace@example.com']);
      expect([await countRows(state, 'accounts'), await countRows(state, 'channels'), await countRows(state, 'channel_managers')]).toEqual([2, 2, 1]);
      expect(await countRows(state, 'schema_migrations')).toBe(4);
    }, 60_000);
  });

  describeAccountsConformance(name, fixture);
  describePlatformConformance(name, fixture);
  describeClusterConformance(name, fixture);
}
