import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountStore } from '../../../server/accounts/accountStore';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../../../server/accounts/demoAccounts';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { verifyPassword } from '../../../server/accounts/passwordHash';
import { sessionIdHashOf } from '../../../server/accounts/sessionSecrets';
import { migrate } from '../../../server/db/migrate';
import { DATABASE_FILE_NAME, openDatabase, type SqliteDatabase } from '../../../server/db/openDatabase';

const { ada, grace } = DEMO_ACCOUNTS;
const DAY = 24 * 3600 * 1000;

describe('accounts tables, demo accounts and sessions', () => {
  let dir: string;
  let file: string;
  let db: SqliteDatabase;
  const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'accounts-db-'));
    file = join(dir, DATABASE_FILE_NAME);
    db = openDatabase(file);
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates once: a second run and a reopened database apply nothing', () => {
    expect(migrate(db, 'accounts', accountsMigrations)).toEqual([1, 2, 3]);
    expect(migrate(db, 'accounts', accountsMigrations)).toEqual([]);
    db.close();
    db = openDatabase(file);
    expect(migrate(db, 'accounts', accountsMigrations)).toEqual([]);
    expect(db.prepare("SELECT version FROM schema_migrations WHERE domain = 'accounts'").all()).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    expect(
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('accounts','channels','channel_managers','sessions','signin_failures','known_devices') ORDER BY name",
        )
        .pluck()
        .all(),
    ).toEqual(['accounts', 'channel_managers', 'channels', 'known_devices', 'sessions', 'signin_failures']);
  });

  it('refuses channel ids that are not UC + 22 characters, and duplicate emails in any case', () => {
    migrate(db, 'accounts', accountsMigrations);
    db.prepare("INSERT INTO accounts VALUES ('acc_a', 'a@example.com', 'A', 'x', 0)").run();
    expect(() => db.prepare("INSERT INTO accounts VALUES ('acc_b', 'A@EXAMPLE.COM', 'B', 'x', 0)").run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO channels VALUES ('UCshort', 't', 'acc_a')").run()).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO accounts VALUES ('ada', 'c@example.com', 'C', 'x', 0)").run()).toThrow(/CHECK/);
  });

  it('seeds Ada and Grace with their channels and the delegation, once: a second seeding changes nothing', async () => {
    migrate(db, 'accounts', accountsMigrations);
    expect(await seedDemoAccounts(db)).toEqual(['ada@example.com', 'grace@example.com']);
    const hashes = db.prepare('SELECT id, password_hash FROM accounts ORDER BY id').all();
    expect(await seedDemoAccounts(db)).toEqual([]);
    expect(db.prepare('SELECT id, password_hash FROM accounts ORDER BY id').all()).toEqual(hashes); // not re-hashed
    expect([count('accounts'), count('channels'), count('channel_managers')]).toEqual([2, 2, 1]);
    for (const demo of [ada, grace]) expect(demo.channel.id).toMatch(/^UC[A-Za-z0-9_-]{22}$/);

    const store = createAccountStore(db);
    expect(store.accountByEmail('ADA@example.com')).toMatchObject({ id: ada.id, displayName: 'Ada Lovelace' });
    expect(await verifyPassword('vidframe-ada', store.accountByEmail('ada@example.com')!.passwordHash)).toBe(true);
    expect(store.channelsOf(ada.id)).toEqual([
      { id: ada.channel.id, title: "Ada's Workshop", relation: 'owner' },
      { id: grace.channel.id, title: "Grace's Lectures", relation: 'manager' },
    ]);
    expect(store.channelsOf(grace.id)).toEqual([{ id: grace.channel.id, title: "Grace's Lectures", relation: 'owner' }]);
    expect(store.canActFor(ada.id, ada.channel.id)).toBe(true);
    expect(store.canActFor(ada.id, grace.channel.id)).toBe(true);
    expect(store.canActFor(grace.id, grace.channel.id)).toBe(true);
    expect(store.canActFor(grace.id, ada.channel.id)).toBe(false);
  });

  it('keeps only the hash of a session secret, finds a session by secret or by its public id, and expires it lazily', async () => {
    migrate(db, 'accounts', accountsMigrations);
    await seedDemoAccounts(db);
    let now = Date.UTC(2026, 0, 1);
    const store = createAccountStore(db, { now: () => now });
    const { secret, session } = store.createSession(ada.id, 14 * DAY);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(db.prepare('SELECT id_hash FROM sessions').pluck().all()).toEqual([sessionIdHashOf(secret)]);
    expect(session.sessionId).toBe(sessionIdHashOf(secret).slice(0, 32));
    expect(store.sessionBySecret(secret)).toEqual(session);
    expect(store.sessionById(session.sessionId)).toEqual(session);
    expect(store.sessionById(session.idHash)).toBeUndefined(); // the full hash is not a session id
    expect(store.sessionBySecret(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    now += 14 * DAY;
    expect(store.sessionBySecret(secret)).toBeUndefined();
    expect(count('sessions')).toBe(0); // deleted on the way
  });

  it('prunes every expired session at once', async () => {
    migrate(db, 'accounts', accountsMigrations);
    await seedDemoAccounts(db);
    let now = 1_000_000;
    const store = createAccountStore(db, { now: () => now });
    store.createSession(ada.id, 10);
    store.createSession(grace.id, 10);
    const live = store.createSession(grace.id, 1000);
    now += 10;
    expect(store.pruneExpiredSessions()).toBe(2);
    expect(store.sessionBySecret(live.secret)).toBeDefined();
  });
});
