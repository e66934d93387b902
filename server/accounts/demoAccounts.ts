import type { SqliteDatabase } from '../db/openDatabase';
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
export async function seedDemoAccounts(db: SqliteDatabase, { now = Date.now }: { now?: () => number } = {}): Promise<string[]> {
  const exists = db.prepare<[string, string], { id: string }>('SELECT id FROM accounts WHERE email = ? OR id = ?');
  const missing = Object.values(DEMO_ACCOUNTS).filter((a) => exists.get(a.email, a.id) === undefined);
  // Hashed before the transaction: nothing but database work is awaited inside one.
  const hashes = await Promise.all(missing.map((a) => hashPassword(a.password)));
  const insertAccount = db.prepare('INSERT OR IGNORE INTO accounts (id, email, display_name, password_hash, created_at_ms) VALUES (?, ?, ?, ?, ?)');
  const insertChannel = db.prepare('INSERT OR IGNORE INTO channels (id, title, owner_account_id) VALUES (?, ?, ?)');
  const insertManager = db.prepare('INSERT OR IGNORE INTO channel_managers (channel_id, account_id) SELECT id, ? FROM channels WHERE id = ?');
  db.transaction(() => {
    missing.forEach((a, i) => insertAccount.run(a.id, a.email, a.displayName, hashes[i], now()));
    // Only for the demo ids: an account that took a demo email under another id is left alone.
    const present = new Set<string>(
      Object.values(DEMO_ACCOUNTS)
        .filter((a) => exists.get(a.email, a.id)?.id === a.id)
        .map((a) => a.id),
    );
    for (const a of Object.values(DEMO_ACCOUNTS)) if (present.has(a.id)) insertChannel.run(a.channel.id, a.channel.title, a.id);
    for (const m of DEMO_MANAGERS) if (present.has(m.accountId)) insertManager.run(m.accountId, m.channelId);
  }).immediate();
  return missing.map((a) => a.email);
}
