import { createAccountStore } from '../../../server/accounts/accountStore';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../../../server/accounts/demoAccounts';
import {
  KNOWN_DEVICE_FAILURES_MAX,
  KNOWN_DEVICE_LIFETIME_MS,
  SIGNIN_FIRST_DELAY_MS,
  SIGNIN_FREE_FAILURES,
  SIGNIN_LOCK_FAILURES,
  SIGNIN_LOCK_MS,
} from '../../../server/accounts/limits';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { verifyPassword } from '../../../server/accounts/passwordHash';
import { sessionIdHashOf } from '../../../server/accounts/sessionSecrets';
import { createSigninThrottle, waitAfterFailures } from '../../../server/accounts/signinThrottle';
import { migrateState } from '../../../server/db/migrateState';
import type { StateDatabase } from '../../../server/db/openStateDatabase';
import { countRows, rejectionOf, type FreshState, type StateFixture } from './stateFixture';

const { ada, grace } = DEMO_ACCOUNTS;
const DAY = 24 * 3600 * 1000;
const noDevice = { deviceSecret: undefined };

/** The accounts' rules (accounts, channels, delegation, sessions, sign-in throttles) on one engine. */
export function describeAccountsConformance(name: string, fixture: StateFixture): void {
  describe(`${name}: accounts`, () => describeAccounts(name, fixture));
}

function describeAccounts(name: string, fixture: StateFixture): void {
  let fresh: FreshState;
  let state: StateDatabase;
  let now: number;
  const clock = { now: () => now };
  beforeEach(async () => {
    fresh = await fixture.fresh();
    state = await fresh.open();
    await migrateState(state, 'accounts', accountsMigrations);
    now = Date.UTC(2026, 0, 1);
  });
  afterEach(() => fresh.cleanup());

  describe(`${name}: accounts, channels and sessions`, () => {
    it('refuses channel ids that are not UC + 22 characters, account ids without acc_, and an email taken in another case', async () => {
      const account = (id: string, email: string) => ({ id, email, display_name: 'A', password_hash: 'x', created_at_ms: 0 });
      await state.db.insertInto('accounts').values(account('acc_a', 'a@example.com')).execute();
      expect(await rejectionOf(state.db.insertInto('accounts').values(account('acc_b', 'A@EXAMPLE.COM')).execute())).toMatch(/UNIQUE|unique/);
      expect(await rejectionOf(state.db.insertInto('channels').values({ id: 'UCshort', title: 't', owner_account_id: 'acc_a' }).execute())).toMatch(
        /CHECK|check/,
      );
      expect(await rejectionOf(state.db.insertInto('accounts').values(account('ada', 'c@example.com')).execute())).toMatch(/CHECK|check/);
      expect(
        await rejectionOf(state.db.insertInto('channels').values({ id: 'UCnobody0000000000000000', title: 't', owner_account_id: 'acc_nobody' }).execute()),
      ).toMatch(/FOREIGN KEY|foreign key/);
    });

    it('seeds Ada and Grace with their channels and the delegation, once: a second seeding changes nothing', async () => {
      expect(await seedDemoAccounts(state)).toEqual(['ada@example.com', 'grace@example.com']);
      const hashes = await state.db.selectFrom('accounts').select(['id', 'password_hash']).orderBy('id').execute();
      expect(await seedDemoAccounts(state)).toEqual([]);
      expect(await state.db.selectFrom('accounts').select(['id', 'password_hash']).orderBy('id').execute()).toEqual(hashes); // not re-hashed
      expect([await countRows(state, 'accounts'), await countRows(state, 'channels'), await countRows(state, 'channel_managers')]).toEqual([2, 2, 1]);

      const store = createAccountStore(state);
      expect(await store.accountByEmail(' ADA@example.com ')).toMatchObject({ id: ada.id, email: 'ada@example.com', displayName: 'Ada Lovelace' });
      expect(await verifyPassword('vidframe-ada', (await store.accountByEmail('ada@example.com'))!.passwordHash)).toBe(true);
      expect(await store.accountByEmail('nobody@example.com')).toBeUndefined();
      // Case folds in ASCII only, as SQLite's NOCASE: É and é are two letters.
      await state.db
        .insertInto('accounts')
        .values({ id: 'acc_elise', email: 'Élise@example.com', display_name: 'É', password_hash: 'x', created_at_ms: 0 })
        .execute();
      expect(await store.accountByEmail('Élise@EXAMPLE.COM')).toMatchObject({ id: 'acc_elise' });
      expect(await store.accountByEmail('élise@example.com')).toBeUndefined();
      expect(await store.accountById(grace.id)).toEqual({ id: grace.id, email: 'grace@example.com', displayName: 'Grace Hopper' });
      expect(await store.channelTitle(ada.channel.id)).toBe("Ada's Workshop");
      expect(await store.channelTitle('UCnobody0000000000000000')).toBeUndefined();
      expect(await store.channelsOf(ada.id)).toEqual([
        { id: ada.channel.id, title: "Ada's Workshop", relation: 'owner' },
        { id: grace.channel.id, title: "Grace's Lectures", relation: 'manager' },
      ]);
      expect(await store.channelsOf(grace.id)).toEqual([{ id: grace.channel.id, title: "Grace's Lectures", relation: 'owner' }]);
      expect(await store.canActFor(ada.id, ada.channel.id)).toBe(true);
      expect(await store.canActFor(ada.id, grace.channel.id)).toBe(true);
      expect(await store.canActFor(grace.id, grace.channel.id)).toBe(true);
      expect(await store.canActFor(grace.id, ada.channel.id)).toBe(false);
    });

    it('keeps only the hash of a session secret, finds a session by secret or by its public id, and expires it lazily', async () => {
      await seedDemoAccounts(state);
      const store = createAccountStore(state, clock);
      const { secret, session } = await store.createSession(ada.id, 14 * DAY);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await state.db.selectFrom('sessions').select('id_hash').execute()).map((r) => r.id_hash)).toEqual([sessionIdHashOf(secret)]);
      expect(session).toMatchObject({ sessionId: sessionIdHashOf(secret).slice(0, 32), accountId: ada.id, actingChannelId: null, createdAtMs: now });
      expect(await store.sessionBySecret(secret)).toEqual(session);
      expect(await store.sessionById(session.sessionId)).toEqual(session);
      expect(await store.sessionById(session.idHash)).toBeUndefined(); // the full hash is not a session id
      expect(await store.sessionBySecret(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
      now += 14 * DAY;
      expect(await store.sessionBySecret(secret)).toBeUndefined();
      expect(await countRows(state, 'sessions')).toBe(0); // deleted on the way
    });

    it('acts for a channel, signs out, and prunes every expired session at once', async () => {
      await seedDemoAccounts(state);
      const store = createAccountStore(state, clock);
      const mine = await store.createSession(ada.id, 1000);
      await store.setActingChannel(mine.session.idHash, grace.channel.id);
      expect((await store.sessionById(mine.session.sessionId))?.actingChannelId).toBe(grace.channel.id);
      await store.setActingChannel(mine.session.idHash, null);
      expect((await store.sessionBySecret(mine.secret))?.actingChannelId).toBeNull();
      expect(await store.deleteSession(mine.session.idHash)).toBe(true);
      expect(await store.deleteSession(mine.session.idHash)).toBe(false);
      expect(await store.sessionBySecret(mine.secret)).toBeUndefined();

      await store.createSession(ada.id, 10);
      await store.createSession(grace.id, 10);
      const live = await store.createSession(grace.id, 1000);
      now += 10;
      expect(await store.pruneExpiredSessions()).toBe(2);
      expect(await store.sessionBySecret(live.secret)).toBeDefined();
    });

    it('verifies a session another server created, and ends it there when this one signs it out', async () => {
      await seedDemoAccounts(state);
      const other = await fresh.open();
      const here = createAccountStore(state, clock);
      const there = createAccountStore(other, clock);
      const { session } = await here.createSession(ada.id, DAY);
      expect(await there.sessionById(session.sessionId)).toEqual(session);
      expect(await there.deleteSession(session.idHash)).toBe(true);
      expect(await here.sessionById(session.sessionId)).toBeUndefined();
    });
  });

  describe(`${name}: sign-in throttle`, () => {
    beforeEach(() => seedDemoAccounts(state));
    const throttleOf = (on: StateDatabase, failureRowsMax?: number) => createSigninThrottle(on, { ...clock, ...(failureRowsMax && { failureRowsMax }) });

    it('lets the free failures through, then makes the email wait, longer after each failure, then locks it', async () => {
      const throttle = throttleOf(state);
      for (let i = 0; i < SIGNIN_FREE_FAILURES; i++) expect(await throttle.admit('Ada@Example.com', { accountId: ada.id, ...noDevice })).toEqual({ ok: true });
      const waits: number[] = [];
      for (let failures = SIGNIN_FREE_FAILURES; failures < SIGNIN_LOCK_FAILURES; failures++) {
        const refused = await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice });
        expect(refused.ok).toBe(false);
        if (refused.ok) return;
        waits.push(refused.retryAfterMs);
        now += refused.retryAfterMs;
        expect(await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice })).toEqual({ ok: true });
      }
      expect(waits).toEqual([1, 2, 4, 8, 16].map((n) => n * SIGNIN_FIRST_DELAY_MS));
      expect(await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice })).toEqual({ ok: false, retryAfterMs: SIGNIN_LOCK_MS });
      expect(waitAfterFailures(SIGNIN_LOCK_FAILURES)).toBe(SIGNIN_LOCK_MS);
      // An email without an account counts alike.
      for (let i = 0; i < SIGNIN_FREE_FAILURES; i++) expect((await throttle.admit('nobody@example.com', { accountId: undefined, ...noDevice })).ok).toBe(true);
      expect(await throttle.admit('nobody@example.com', { accountId: undefined, ...noDevice })).toEqual({ ok: false, retryAfterMs: SIGNIN_FIRST_DELAY_MS });
    });

    it('forgets the failures on the right password and lets a known device through the lock for a few wrong passwords', async () => {
      const throttle = throttleOf(state);
      const laptop = await throttle.succeeded('ada@example.com', ada.id, undefined);
      expect(await throttle.isKnownDevice(ada.id, laptop)).toBe(true);
      expect(await throttle.isKnownDevice(grace.id, laptop)).toBe(false);
      expect(await throttle.isKnownDevice(ada.id, 'A'.repeat(43))).toBe(false);
      for (let i = 0; i < SIGNIN_FREE_FAILURES; i++) await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice });
      expect((await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice })).ok).toBe(false);
      for (let i = 0; i < KNOWN_DEVICE_FAILURES_MAX; i++)
        expect(await throttle.admit('ada@example.com', { accountId: ada.id, deviceSecret: laptop })).toEqual({ ok: true });
      expect((await throttle.admit('ada@example.com', { accountId: ada.id, deviceSecret: laptop })).ok).toBe(false);
      expect(await throttle.isKnownDevice(ada.id, laptop)).toBe(false); // its allowance is spent

      const renewed = await throttle.succeeded('ada@example.com', ada.id, laptop);
      expect(renewed).not.toBe(laptop); // a new device secret at every sign-in
      expect(await throttle.isKnownDevice(ada.id, laptop)).toBe(false);
      expect(await throttle.isKnownDevice(ada.id, renewed)).toBe(true);
      expect(await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice })).toEqual({ ok: true }); // failures forgotten
      now += KNOWN_DEVICE_LIFETIME_MS;
      expect(await throttle.isKnownDevice(ada.id, renewed)).toBe(false);
    });

    it('keeps the emails that wait through a flood of other emails, whether or not they have an account', async () => {
      const cap = 12;
      const throttle = throttleOf(state, cap);
      const fail = async (email: string, accountId: string | undefined, failures: number) => {
        for (let i = 0; i < failures; i++) {
          expect((await throttle.admit(email, { accountId, ...noDevice })).ok).toBe(true);
          now += 1;
        }
      };
      await fail('ada@example.com', ada.id, SIGNIN_FREE_FAILURES);
      await fail('nobody@example.com', undefined, SIGNIN_FREE_FAILURES);
      for (let i = 0; i < cap * 3; i++) await fail(`flood-${i}@example.com`, undefined, 1);
      expect(await countRows(state, 'signin_failures')).toBe(cap);
      // Both still wait: what is forgotten does not depend on whether the email has an account (a refusal counts nothing).
      expect((await throttle.admit('ada@example.com', { accountId: ada.id, ...noDevice })).ok).toBe(false);
      expect((await throttle.admit('nobody@example.com', { accountId: undefined, ...noDevice })).ok).toBe(false);
    });

    it('counts an email guessed through two servers as through one', async () => {
      const servers = [throttleOf(state), throttleOf(await fresh.open())];
      const answers = [];
      for (let i = 0; i < SIGNIN_FREE_FAILURES + 2; i++) answers.push((await servers[i % 2].admit('ada@example.com', { accountId: ada.id, ...noDevice })).ok);
      expect(answers).toEqual([...Array<boolean>(SIGNIN_FREE_FAILURES).fill(true), false, false]);
    });

    it('admits no more of a burst sent at once than the free failures, and no more from a known device than its allowance', async () => {
      // Where one process may hold two connections at once, the burst comes through two servers.
      const servers = fixture.concurrentConnections ? [throttleOf(state), throttleOf(await fresh.open())] : [throttleOf(state)];
      const laptop = await servers[0].succeeded('ada@example.com', ada.id, undefined);
      const burst = await Promise.all(
        Array.from({ length: 24 }, (_, i) => servers[i % servers.length].admit('ada@example.com', { accountId: ada.id, ...noDevice })),
      );
      expect(burst.filter((a) => a.ok)).toHaveLength(SIGNIN_FREE_FAILURES);
      const fromLaptop = await Promise.all(
        Array.from({ length: 12 }, (_, i) => servers[i % servers.length].admit('ada@example.com', { accountId: ada.id, deviceSecret: laptop })),
      );
      expect(fromLaptop.filter((a) => a.ok)).toHaveLength(KNOWN_DEVICE_FAILURES_MAX);
    });
  });
}
