import { randomBytes } from 'node:crypto';
import type { StateDatabase } from '../db/openStateDatabase';

/**
 * The secret named `name` in the state database, created by the first server that asks: 32 random bytes (base64url,
 * 43 characters). Every server asks the same way, and the insert keeps the row that is there, so all of them read the
 * same secret whichever started first.
 */
export async function sharedSecretOf(state: StateDatabase, name: string, now: () => number): Promise<string> {
  await state.db
    .insertInto('shared_secrets')
    .values({ name, secret: randomBytes(32).toString('base64url'), created_at_ms: now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await state.db.selectFrom('shared_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return row.secret;
}
