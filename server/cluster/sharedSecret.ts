import { randomBytes } from 'node:crypto';
import { inTransaction } from '../db/inTransaction';
import type { StateDatabase } from '../db/openStateDatabase';

const newSecret = () => randomBytes(32).toString('base64url');

/**
 * The secret named `name` in the state database, created by the first server that asks: 32 random bytes (base64url,
 * 43 characters). Every server asks the same way, and the insert keeps the row that is there, so all of them read the
 * same secret whichever started first.
 */
export async function sharedSecretOf(state: StateDatabase, name: string, now: () => number): Promise<string> {
  await state.db
    .insertInto('shared_secrets')
    .values({ name, secret: newSecret(), created_at_ms: now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await state.db.selectFrom('shared_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return row.secret;
}

/** A rotating secret as a server reads it when it starts: the one it signs with, and one more it also accepts. */
export interface RotatingSecret {
  signing: string;
  /** The staged successor while a rotation is under way, else the secret the last rotation replaced. */
  alsoVerifying?: string;
}

const rowsOf = async (state: StateDatabase, name: string) => {
  const rows = await state.db
    .selectFrom('shared_secrets')
    .select(['name', 'secret'])
    .where('name', 'in', [name, `${name}:next`, `${name}:previous`])
    .execute();
  const of = (n: string) => rows.find((r) => r.name === n)?.secret;
  return { current: of(name), next: of(`${name}:next`), previous: of(`${name}:previous`) };
};

/**
 * The rotating secret `name`, created when missing ({@link sharedSecretOf}). A rotation takes two steps, each followed
 * by a restart of every server, so that no server ever signs with a secret another does not accept:
 *
 * 1. {@link stageSecret} keeps a successor (`name:next`) that servers accept from their next start, still signing
 *    with the current one;
 * 2. {@link promoteSecret}, once every server has restarted, makes the successor the secret servers sign with and keeps
 *    the replaced one (`name:previous`), which they go on accepting until the next rotation.
 */
export async function rotatingSecretOf(state: StateDatabase, name: string, now: () => number): Promise<RotatingSecret> {
  const signing = await sharedSecretOf(state, name, now);
  const { next, previous } = await rowsOf(state, name);
  return { signing, alsoVerifying: next ?? previous };
}

/** Step 1 of a rotation: keeps a successor of `name` (an already staged one is kept); resolves with whether it is new. */
export async function stageSecret(state: StateDatabase, name: string, now: () => number): Promise<boolean> {
  await sharedSecretOf(state, name, now);
  const result = await state.db
    .insertInto('shared_secrets')
    .values({ name: `${name}:next`, secret: newSecret(), created_at_ms: now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Step 2 of a rotation: the staged successor becomes the secret of `name`, the replaced one its previous. */
export async function promoteSecret(state: StateDatabase, name: string, now: () => number): Promise<void> {
  await inTransaction(state, { scope: 'secrets', key: name }, async (trx) => {
    const rows = await trx
      .selectFrom('shared_secrets')
      .select(['name', 'secret'])
      .where('name', 'in', [name, `${name}:next`])
      .execute();
    const current = rows.find((r) => r.name === name)?.secret;
    const next = rows.find((r) => r.name === `${name}:next`)?.secret;
    if (!current || !next) throw new Error(`No successor of the ${name} secret is staged: stage one and restart every server first`);
    await trx
      .deleteFrom('shared_secrets')
      .where('name', 'in', [`${name}:previous`, `${name}:next`])
      .execute();
    await trx.updateTable('shared_secrets').set({ secret: next, created_at_ms: now() }).where('name', '=', name).execute();
    await trx
      .insertInto('shared_secrets')
      .values({ name: `${name}:previous`, secret: current, created_at_ms: now() })
      .execute();
  });
}
