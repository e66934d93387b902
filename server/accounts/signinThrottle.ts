import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { inTransaction } from '../db/inTransaction';
import type { StateDatabase } from '../db/openStateDatabase';
import type { StateTables } from '../db/stateTables';
import {
  KNOWN_DEVICE_FAILURES_MAX,
  KNOWN_DEVICE_LIFETIME_MS,
  KNOWN_DEVICES_PER_ACCOUNT_MAX,
  SIGNIN_FAILURE_ROWS_MAX,
  SIGNIN_FAILURES_KEPT_MS,
  SIGNIN_FIRST_DELAY_MS,
  SIGNIN_FREE_FAILURES,
  SIGNIN_LOCK_FAILURES,
  SIGNIN_LOCK_MS,
} from './limits';
import { newSessionSecret, SESSION_SECRET_PATTERN, sessionIdHashOf } from './sessionSecrets';

/**
 * Whether a sign-in attempt may check its password now (its wrong password already counted, against the email and
 * against the known device it came from), or how long it must wait.
 */
export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

/** What an attempt says about itself: whether its email has an account, and the browser's device secret if any. */
export interface Attempt {
  accountId: string | undefined;
  deviceSecret: string | undefined;
}

/**
 * Sign-in throttling per email, kept in the accounts database so that servers sharing it (PostgreSQL, or one SQLite
 * file) share the counts: an email guessed through several servers waits as if through one.
 *
 * - An attempt is counted as a failure when it is admitted, before its password is checked, so attempts sent at
 *   once cannot all slip in before the first failure is written; the right password then forgets the failures.
 * - After {@link SIGNIN_FREE_FAILURES} failures, each further attempt waits (the first delay, doubled per failure); after
 *   {@link SIGNIN_LOCK_FAILURES}, for {@link SIGNIN_LOCK_MS}, and again after each further failure. An attempt that
 *   comes before its time is refused without checking the password: it costs no hashing and tells nothing.
 * - Emails without an account are counted alike, so neither the answers nor their timing tell which emails have one.
 * - A known device (a browser that signed in to the account before, holding the `vf_device` secret) waits for nothing,
 *   until it has sent {@link KNOWN_DEVICE_FAILURES_MAX} wrong passwords since its last sign-in. Its allowance is spent
 *   on admission, by one conditional update, so attempts sent at once from one device get no more than it allows.
 * - Admission is one write transaction (`inTransaction`, locked per email): servers sharing the database admit
 *   attempts for one email one at a time.
 * - Beyond the cap, emails below {@link SIGNIN_FREE_FAILURES} failures are forgotten first, then the oldest; never
 *   by whether the email has an account, which a flood of other emails could otherwise reveal.
 *
 * Bounded: failures are forgotten {@link SIGNIN_FAILURES_KEPT_MS} after the last one and at most
 * {@link SIGNIN_FAILURE_ROWS_MAX} emails are kept (`failureRowsMax`); known devices expire and are capped per account.
 */
export interface SigninThrottle {
  /** Whether the browser holding `deviceSecret` is a known device of the account, with wrong passwords to spare. */
  isKnownDevice(accountId: string, deviceSecret: string | undefined): Promise<boolean>;
  /**
   * Admits an attempt for `email`, counted as a failure of the email (and of the known device it came from) until
   * {@link SigninThrottle.succeeded}, or says how long to wait.
   */
  admit(email: string, attempt: Attempt): Promise<Admission>;
  /** The right password: forgets the email's failures and makes the browser a known device; returns its new secret. */
  succeeded(email: string, accountId: string, deviceSecret: string | undefined): Promise<string>;
}

const DEVICE_SECRET = new RegExp(SESSION_SECRET_PATTERN);
const emailHashOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');

/** How long after its last failure an email waits, given how many it has. */
export function waitAfterFailures(failures: number): number {
  if (failures >= SIGNIN_LOCK_FAILURES) return SIGNIN_LOCK_MS;
  if (failures >= SIGNIN_FREE_FAILURES) return SIGNIN_FIRST_DELAY_MS * 2 ** (failures - SIGNIN_FREE_FAILURES);
  return 0;
}

export function createSigninThrottle(
  state: StateDatabase,
  { now = Date.now, failureRowsMax = SIGNIN_FAILURE_ROWS_MAX }: { now?: () => number; failureRowsMax?: number } = {},
): SigninThrottle {
  const deviceHashOf = (secret: string | undefined) => (secret !== undefined && DEVICE_SECRET.test(secret) ? sessionIdHashOf(secret) : undefined);
  const forgetFailures = (trx: Kysely<StateTables>, emailHash: string) => trx.deleteFrom('signin_failures').where('email_hash', '=', emailHash).execute();

  /** Beyond the cap, emails that wait for nothing yet go first, then the oldest (the order of `signin_failures_forget`). */
  async function forgetBeyondCap(trx: Kysely<StateTables>): Promise<void> {
    const { n } = await trx
      .selectFrom('signin_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const excess = Number(n) - failureRowsMax;
    if (excess <= 0) return;
    const oldest = trx
      .selectFrom('signin_failures')
      .select('email_hash')
      .orderBy(sql`failures >= ${sql.lit(SIGNIN_FREE_FAILURES)}`)
      .orderBy('last_failure_ms')
      .limit(excess);
    await trx.deleteFrom('signin_failures').where('email_hash', 'in', oldest).execute();
  }

  return {
    async isKnownDevice(accountId, deviceSecret) {
      const hash = deviceHashOf(deviceSecret);
      if (!hash) return false;
      const device = await state.db
        .selectFrom('known_devices')
        .select(['failures', 'last_signin_ms'])
        .where('device_hash', '=', hash)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return !!device && now() - device.last_signin_ms < KNOWN_DEVICE_LIFETIME_MS && device.failures < KNOWN_DEVICE_FAILURES_MAX;
    },
    admit(email, { accountId, deviceSecret }) {
      const emailHash = emailHashOf(email);
      const at = now();
      return inTransaction(state, { scope: 'signin', key: emailHash }, async (trx): Promise<Admission> => {
        const hash = accountId === undefined ? undefined : deviceHashOf(deviceSecret);
        const knownDevice =
          !!hash &&
          accountId !== undefined &&
          Number(
            (
              await trx
                .updateTable('known_devices')
                .set((eb) => ({ failures: eb('failures', '+', 1) }))
                .where('device_hash', '=', hash)
                .where('account_id', '=', accountId)
                .where('failures', '<', KNOWN_DEVICE_FAILURES_MAX)
                .where('last_signin_ms', '>', at - KNOWN_DEVICE_LIFETIME_MS)
                .executeTakeFirst()
            ).numUpdatedRows,
          ) === 1;
        const row = await trx.selectFrom('signin_failures').select(['failures', 'last_failure_ms']).where('email_hash', '=', emailHash).executeTakeFirst();
        const kept = row && at - row.last_failure_ms < SIGNIN_FAILURES_KEPT_MS ? row : undefined;
        if (!knownDevice && kept) {
          const until = kept.last_failure_ms + waitAfterFailures(kept.failures);
          if (at < until) return { ok: false, retryAfterMs: until - at };
        }
        if (row && !kept) await forgetFailures(trx, emailHash);
        await trx
          .insertInto('signin_failures')
          .values({ email_hash: emailHash, has_account: accountId === undefined ? 0 : 1, failures: 1, last_failure_ms: at })
          .onConflict((oc) =>
            oc
              .column('email_hash')
              .doUpdateSet((eb) => ({ failures: sql<number>`signin_failures.failures + 1`, last_failure_ms: eb.ref('excluded.last_failure_ms') })),
          )
          .execute();
        if (!row) {
          await trx
            .deleteFrom('signin_failures')
            .where('last_failure_ms', '<=', at - SIGNIN_FAILURES_KEPT_MS)
            .execute();
          await forgetBeyondCap(trx);
        }
        return { ok: true };
      });
    },
    async succeeded(email, accountId, deviceSecret) {
      const secret = newSessionSecret();
      const hash = sessionIdHashOf(secret);
      const previous = deviceHashOf(deviceSecret);
      const at = now();
      const emailHash = emailHashOf(email);
      await inTransaction(state, { scope: 'signin', key: emailHash }, async (trx) => {
        await forgetFailures(trx, emailHash);
        // A new secret at every sign-in: the browser's other accounts follow it, and a secret planted in the browser
        // by someone else stops working.
        if (previous) await trx.updateTable('known_devices').set({ device_hash: hash }).where('device_hash', '=', previous).execute();
        await trx
          .insertInto('known_devices')
          .values({ device_hash: hash, account_id: accountId, last_signin_ms: at, failures: 0 })
          .onConflict((oc) =>
            oc.columns(['device_hash', 'account_id']).doUpdateSet((eb) => ({ last_signin_ms: eb.ref('excluded.last_signin_ms'), failures: 0 })),
          )
          .execute();
        const newest = trx
          .selectFrom('known_devices')
          .select('device_hash')
          .where('account_id', '=', accountId)
          .orderBy('last_signin_ms', 'desc')
          .limit(KNOWN_DEVICES_PER_ACCOUNT_MAX);
        await trx.deleteFrom('known_devices').where('account_id', '=', accountId).where('device_hash', 'not in', newest).execute();
        await trx
          .deleteFrom('known_devices')
          .where('last_signin_ms', '<=', at - KNOWN_DEVICE_LIFETIME_MS)
          .execute();
      });
      return secret;
    },
  };
}
