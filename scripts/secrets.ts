/**
 * `npm run secrets -- status|stage|promote`: rotates the token keys' secret that servers on one PostgreSQL database
 * (`VIDFRAME_DB`) keep there when no `VIDFRAME_STREAM_SECRET` is configured. A rotation is `stage`, a restart of every
 * server, `promote`, a restart of every server (`server/cluster/sharedSecret.ts` says why). Never prints a secret.
 */
import { TOKEN_SECRET_NAME } from '../server/cluster/registerCluster';
import { clusterMigrations } from '../server/cluster/migrations';
import { promoteSecret, stageSecret } from '../server/cluster/sharedSecret';
import { migrateState } from '../server/db/migrateState';
import { openStateDatabase } from '../server/db/openStateDatabase';
import { parseStateDatabaseSetting } from '../server/db/stateDatabaseSetting';

const USAGE = `usage: npm run secrets -- status|stage|promote   (with VIDFRAME_DB=postgres://… of the servers)
  status    which token secrets the database keeps, and since when
  stage     keep a successor; then restart every server (they accept it, still signing with the current one)
  promote   make the successor the one servers sign with; then restart every server
`;

async function main(command: string | undefined): Promise<number> {
  if (command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== 'status' && command !== 'stage' && command !== 'promote') {
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
