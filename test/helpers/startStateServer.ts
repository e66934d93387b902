import { seedDemoAccounts } from '../../server/accounts/demoAccounts';
import { accountsMigrations } from '../../server/accounts/migrations';
import { migrateState } from '../../server/db/migrateState';
import { openStateDatabase } from '../../server/db/openStateDatabase';
import { parseStateDatabaseSetting } from '../../server/db/stateDatabaseSetting';
import { platformMigrations } from '../../server/platform/migrations';

/**
 * What a server does to the state database as it starts (`registerAccounts`, `registerPlatform`), alone in a process
 * of its own: `tsx test/helpers/startStateServer.ts <VIDFRAME_DB value> <data folder>`. Prints, as one JSON line, the
 * migration steps and demo accounts this process applied, so a test can start several at once and count.
 */
async function main(): Promise<void> {
  const [value, dataDir] = process.argv.slice(2);
  if (value === undefined || dataDir === undefined) throw new Error('usage: startStateServer.ts <VIDFRAME_DB value> <data folder>');
  const state = await openStateDatabase(parseStateDatabaseSetting(value), dataDir);
  try {
    const accounts = await migrateState(state, 'accounts', accountsMigrations);
    const seeded = await seedDemoAccounts(state);
    const platform = await migrateState(state, 'platform', platformMigrations);
    process.stdout.write(`${JSON.stringify({ accounts, platform, seeded })}\n`);
  } finally {
    await state.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
