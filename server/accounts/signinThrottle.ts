import { createHash } from 'node:crypto';
import type { SqliteDatabase } from '../db/openDatabase';
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
 * Sign-in throttling per email, kept in the accounts database so that servers sharing it share the counts.
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
 * - Admission is one write transaction: servers sharing the database admit attempts for one email one at a time.
 * - Beyond the cap, emails below {@link SIGNIN_FREE_FAILURES} failures are forgotten first, then the oldest; never
 *   by whether the email has an account, which a flood of other emails could otherwise reveal.
 *
 * Bounded: failures are forgotten {@link SIGNIN_FAILURES_KEPT_MS} after the last one and at most
 * {@link SIGNIN_FAILURE_ROWS_MAX} emails are kept (`failureRowsMax`); known devices expire and are capped per account.
 */
export interface SigninThrottle {
  /** Whether the browser holding `deviceSecret` is a known device of the account, with wrong passwords to spare. */
  isKnownDevice(accountId: string, deviceSecret: string | undefined): boolean;
  /**
   * Admits an attempt for `email`, counted as a failure of the email (and of the known device it came from) until
   * {@link SigninThrottle.succeeded}, or says how long to wait.
   */
  admit(email: string, attempt: Attempt): Admission;
  /** The right password: forgets the email's failures and makes the browser a known device; returns its new secret. */
  succeeded(email: string, accountId: string, deviceSecret: string | undefined): string;
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
  db: SqliteDatabase,
  { now = Date.now, failureRowsMax = SIGNIN_FAILURE_ROWS_MAX }: { now?: () => number; failureRowsMax?: number } = {},
): SigninThrottle {
  const failuresOf = db.prepare<[string], { failures: number; last_failure_ms: number }>(
    'SELECT failures, last_failure_ms FROM signin_failures WHERE email_hash = ?',
  );
  const countFailure = db.prepare(`
    INSERT INTO signin_failures (email_hash, has_account, failures, last_failure_ms) VALUES (?, ?, 1, ?)
    ON CONFLICT (email_hash) DO UPDATE SET failures = failures + 1, last_failure_ms = excluded.last_failure_ms`);
  const forgetFailures = db.prepare('DELETE FROM signin_failures WHERE email_hash = ?');
  const forgetOldFailures = db.prepare('DELETE FROM signin_failures WHERE last_failure_ms <= ?');
  // Beyond the cap, emails that wait for nothing yet go first, then the oldest.
  const forgetBeyondCap = db.prepare(`
    DELETE FROM signin_failures WHERE email_hash IN (
      SELECT email_hash FROM signin_failures ORDER BY failures >= ${SIGNIN_FREE_FAILURES}, last_failure_ms
       LIMIT max(0, (SELECT count(*) FROM signin_failures) - ?))`);
  const deviceOf = db.prepare<[string, string], { failures: number; last_signin_ms: number }>(
    'SELECT failures, last_signin_ms FROM known_devices WHERE device_hash = ? AND account_id = ?',
  );
  const spendDeviceAllowance = db.prepare(`
    UPDATE known_devices SET failures = failures + 1
     WHERE device_hash = ? AND account_id = ? AND failures < ${KNOWN_DEVICE_FAILURES_MAX} AND last_signin_ms > ?`);
  const renameDevice = db.prepare('UPDATE known_devices SET device_hash = ? WHERE device_hash = ?');
  const rememberDevice = db.prepare(`
    INSERT INTO known_devices (device_hash, account_id, last_signin_ms, failures) VALUES (?, ?, ?, 0)
    ON CONFLICT (device_hash, account_id) DO UPDATE SET last_signin_ms = excluded.last_signin_ms, failures = 0`);
  const forgetOldDevices = db.prepare('DELETE FROM known_devices WHERE last_signin_ms <= ?');
  const forgetDevicesBeyondCap = db.prepare(`
    DELETE FROM known_devices WHERE account_id = ? AND device_hash NOT IN (
      SELECT device_hash FROM known_devices WHERE account_id = ? ORDER BY last_signin_ms DESC LIMIT ?)`);

  const deviceHashOf = (secret: string | undefined) => (secret !== undefined && DEVICE_SECRET.test(secret) ? sessionIdHashOf(secret) : undefined);

  return {
    isKnownDevice(accountId, deviceSecret) {
      const hash = deviceHashOf(deviceSecret);
      const device = hash && deviceOf.get(hash, accountId);
      return !!device && now() - device.last_signin_ms < KNOWN_DEVICE_LIFETIME_MS && device.failures < KNOWN_DEVICE_FAILURES_MAX;
    },
    admit(email, { accountId, deviceSecret }) {
      const emailHash = emailHashOf(email);
      const at = now();
      return db
        .transaction((): Admission => {
          const hash = accountId === undefined ? undefined : deviceHashOf(deviceSecret);
          const knownDevice = !!hash && spendDeviceAllowance.run(hash, accountId, at - KNOWN_DEVICE_LIFETIME_MS).changes === 1;
          const row = failuresOf.get(emailHash);
          const kept = row && at - row.last_failure_ms < SIGNIN_FAILURES_KEPT_MS ? row : undefined;
          if (!knownDevice && kept) {
            const until = kept.last_failure_ms + waitAfterFailures(kept.failures);
            if (at < until) return { ok: false, retryAfterMs: until - at };
          }
          if (row && !kept) forgetFailures.run(emailHash);
          countFailure.run(emailHash, accountId === undefined ? 0 : 1, at);
          if (!row) {
            forgetOldFailures.run(at - SIGNIN_FAILURES_KEPT_MS);
            forgetBeyondCap.run(failureRowsMax);
          }
          return { ok: true };
        })
        .immediate();
    },
    succeeded(email, accountId, deviceSecret) {
      const secret = newSessionSecret();
      const hash = sessionIdHashOf(secret);
      const previous = deviceHashOf(deviceSecret);
      const at = now();
      db.transaction(() => {
        forgetFailures.run(emailHashOf(email));
        // A new secret at every sign-in: the browser's other accounts follow it, and a secret planted in the browser
        // by someone else stops working.
        if (previous) renameDevice.run(hash, previous);
        rememberDevice.run(hash, accountId, at);
        forgetDevicesBeyondCap.run(accountId, accountId, KNOWN_DEVICES_PER_ACCOUNT_MAX);
        forgetOldDevices.run(at - KNOWN_DEVICE_LIFETIME_MS);
      }).immediate();
      return secret;
    },
  };
}
