/**
 * `npm run secrets -- status|stage|promote|admin-token`: rotates the token keys' secret that servers on one PostgreSQL
 * database (`VIDFRAME_DB`) keep there when no `VIDFRAME_STREAM_SECRET` is configured. A rotation is `stage`, a restart
 * of every server, `promote`, a restart of every server (`server/cluster/sharedSecret.ts` says why). Only
 * `admin-token` prints a secret: the admin token kept there when no `VIDFRAME_ADMIN_TOKEN` is configured.
 */
import { ADMIN_TOKEN_NAME, TOKEN_SECRET_NAME } from '../server/cluster/registerCluster';
import { clusterMigrations } from '../server/cluster/migrations';
import { promoteSecret, sharedSecretOf, stageSecret } from '../server/cluster/sharedSecret';
import { migrateState } from '../server/db/migrateState';
import { openStateDatabase } from '../server/db/openStateDatabase';
import { parseStateDatabaseSetting } from '../server/db/stateDatabaseSetting';

const USAGE = `usage: npm run secrets -- status|stage|promote|admin-token   (with VIDFRAME_DB=postgres://… of the servers)
  status       which secrets the database keeps, and since when (never their values)
  stage        keep a successor of the token secret; then restart every server (they accept it, still signing with the current one)
  promote      make the successor the one servers sign with; then restart every server
  admin-token  print the admin token every server accepts (when VIDFRAME_ADMIN_TOKEN is not set)
`;
const COMMANDS = ['status', 'stage', 'promote', 'admin-token'];

async function main(command: string | undefined): Promise<number> {
  if (command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === undefined || !COMMANDS.includes(command)) {
    process.stderr.write(`secrets: ${command ? `unknown command "${command}"` : 'a command is needed'}\n${USAGE}`);
    return 2;
  }
  const setting = parseStateDatabaseSetting(process.env.VIDFRAME_DB, (message) => new Error(message));
  if (setting.engine !== 'postgres') {
    process.stderr.write('secrets: VIDFRAME_DB names no PostgreSQL database; one server on SQLite keeps its keys in the data folder\n');
    return 2;
  }
  if (process.env.VIDFRAME_STREAM_SECRET)
    process.stderr.write('secrets: note: VIDFRAME_STREAM_SECRET is set here; servers that have it sign with it, not with the database’s secret\n');
  const state = await openStateDatabase(setting, process.cwd());
  try {
    await migrateState(state, 'cluster', clusterMigrations);
    if (command === 'admin-token') {
      process.stdout.write(`${await sharedSecretOf(state, ADMIN_TOKEN_NAME, Date.now)}\n`);
      return 0;
    }
    if (command === 'stage') {
      const staged = await stageSecret(state, TOKEN_SECRET_NAME, Date.now);
      process.stdout.write(`${staged ? 'staged a successor' : 'a successor was already staged'}: restart every server, then run promote\n`);
    } else if (command === 'promote') {
      await promoteSecret(state, TOKEN_SECRET_NAME, Date.now);
      process.stdout.write('promoted: restart every server; tokens signed before stay valid until the next rotation\n');
    }
    const rows = await state.db.selectFrom('shared_secrets').select(['name', 'created_at_ms']).orderBy('name').execute();
    for (const row of rows) process.stdout.write(`${row.name.padEnd(20)} since ${new Date(row.created_at_ms).toISOString()}\n`);
    return 0;
  } finally {
    await state.close();
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`secrets: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
