import { sql, type Kysely } from 'kysely';
import { inTransaction } from '../db/inTransaction';
import type { StateDatabase } from '../db/openStateDatabase';
import type { StateTables } from '../db/stateTables';
import { emailIs } from './accountStore';
import { hashPassword } from './passwordHash';

/**
 * The two demo accounts of the reference server, with fixed ids so tests and docs can name them. Their passwords are
 * public on purpose (they are in the README): a deployment that is not a demo starts with `seedDemoAccounts: false`.
 *
 * Delegation in the demo: Ada owns "Ada's Workshop" and also manages Grace's channel, so Ada may act for both; Grace
 * owns "Grace's Lectures" and may act for nothing of Ada's.
 */
export const DEMO_ACCOUNTS = {
  ada: {
    id: 'acc_demoAdaLovelace0000000',
    email: 'ada@example.com',
    password: 'vidframe-ada',
    displayName: 'Ada Lovelace',
    channel: { id: 'UCadaWorkshop00000000000', title: "Ada's Workshop" },
  },
  grace: {
    id: 'acc_demoGraceHopper0000000',
    email: 'grace@example.com',
    password: 'vidframe-grace',
    displayName: 'Grace Hopper',
    channel: { id: 'UCgraceLectures000000000', title: "Grace's Lectures" },
  },
} as const;

/** The demo's delegation: who manages whose channel besides its owner. */
const DEMO_MANAGERS: readonly { channelId: string; accountId: string }[] = [{ channelId: DEMO_ACCOUNTS.grace.channel.id, accountId: DEMO_ACCOUNTS.ada.id }];

/**
 * Creates the demo accounts, their channels and the delegation when they are missing, and changes nothing that is
 * there (an account is looked up by email first, so a restart neither re-hashes a password nor duplicates a row).
 *
 * @returns the emails of the accounts created now (empty on every start but the first).
 */
export async function seedDemoAccounts(state: StateDatabase, { now = Date.now }: { now?: () => number } = {}): Promise<string[]> {
  /** The id of the account holding this email (any case) or this id, if any. */
  const holder = async (trx: Kysely<StateTables>, a: { email: string; id: string }) =>
    (
      await trx
        .selectFrom('accounts')
        .select('id')
        .where((eb) => eb.or([emailIs(state, a.email), eb('id', '=', a.id)]))
        .executeTakeFirst()
    )?.id;
  const missing: (typeof DEMO_ACCOUNTS)[keyof typeof DEMO_ACCOUNTS][] = [];
  for (const a of Object.values(DEMO_ACCOUNTS)) if ((await holder(state.db, a)) === undefined) missing.push(a);
  // Hashed before the transaction: nothing but database work is awaited inside one.
  const hashes = await Promise.all(missing.map((a) => hashPassword(a.password)));
  const created: string[] = [];
  await inTransaction(state, { scope: 'seed', key: 'demo-accounts' }, async (trx) => {
    for (const [i, a] of missing.entries()) {
      // Another server starting at once may have created it since: then this one is not created again.
      if ((await holder(trx, a)) !== undefined) continue;
      await trx
        .insertInto('accounts')
        .values({ id: a.id, email: a.email, display_name: a.displayName, password_hash: hashes[i]!, created_at_ms: now() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      created.push(a.email);
    }
    // Only for the demo ids: an account that took a demo email under another id is left alone.
    const present = new Set<string>();
    for (const a of Object.values(DEMO_ACCOUNTS)) if ((await holder(trx, a)) === a.id) present.add(a.id);
    for (const a of Object.values(DEMO_ACCOUNTS)) {
      if (!present.has(a.id)) continue;
      await trx
        .insertInto('channels')
        .values({ id: a.channel.id, title: a.channel.title, owner_account_id: a.id })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (const m of DEMO_MANAGERS) {
      if (!present.has(m.accountId)) continue;
      await trx
        .insertInto('channel_managers')
        .columns(['channel_id', 'account_id'])
        .expression(
          trx
            .selectFrom('channels')
            .select(['id', sql.val(m.accountId).as('account_id')])
            .where('id', '=', m.channelId),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  });
  return created;
}
