import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNIN_FREE_FAILURES } from '../../../server/accounts/limits';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { createSigninThrottle, type SigninThrottle } from '../../../server/accounts/signinThrottle';
import { migrate } from '../../../server/db/migrate';
import { DATABASE_FILE_NAME, openDatabase, type SqliteDatabase } from '../../../server/db/openDatabase';

const CAP = 12;
const noDevice = { deviceSecret: undefined };

describe('sign-in failures kept per email, within a cap', () => {
  let dir: string;
  let db: SqliteDatabase;
  let now: number;
  let throttle: SigninThrottle;
  /** `failures` failed attempts for `email`, waiting out each delay. */
  const fail = (email: string, accountId: string | undefined, failures: number) => {
    for (let i = 0; i < failures; i++) {
      const admission = throttle.admit(email, { accountId, ...noDevice });
      if (!admission.ok) throw new Error(`${email} had to wait before failure ${i + 1}`);
      now += 1;
    }
  };
  const waits = (email: string, accountId: string | undefined) => {
    const probe = createSigninThrottle(db, { now: () => now, failureRowsMax: CAP });
    // Read through a transaction rolled back, so that the probe counts nothing.
    let answer = false;
    try {
      db.transaction(() => {
        answer = !probe.admit(email, { accountId, ...noDevice }).ok;
        throw new Error('roll back');
      })();
    } catch {
      // rolled back on purpose
    }
    return answer;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'signin-failures-'));
    db = openDatabase(join(dir, DATABASE_FILE_NAME));
    migrate(db, 'accounts', accountsMigrations);
    now = Date.UTC(2026, 0, 1);
    throttle = createSigninThrottle(db, { now: () => now, failureRowsMax: CAP });
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the emails that wait through a flood of other emails, whether or not they have an account', () => {
    db.prepare("INSERT INTO accounts (id, email, display_name, password_hash, created_at_ms) VALUES ('acc_ada', 'ada@example.com', 'Ada', 'x', 0)").run();
    fail('ada@example.com', 'acc_ada', SIGNIN_FREE_FAILURES);
    fail('nobody@example.com', undefined, SIGNIN_FREE_FAILURES);
    expect([waits('ada@example.com', 'acc_ada'), waits('nobody@example.com', undefined)]).toEqual([true, true]);

    // A flood of single failures for fresh emails, with and without accounts, fills the cap many times over.
    for (let i = 0; i < CAP * 5; i++) fail(`flood-${i}@example.com`, undefined, 1);
    expect((db.prepare('SELECT count(*) AS n FROM signin_failures').get() as { n: number }).n).toBe(CAP);
    // Both still wait: what is forgotten does not depend on whether the email has an account.
    expect([waits('ada@example.com', 'acc_ada'), waits('nobody@example.com', undefined)]).toEqual([true, true]);
  });

  it('forgets beyond the cap through the index, without sorting the table', () => {
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN SELECT email_hash FROM signin_failures ORDER BY failures >= ${SIGNIN_FREE_FAILURES}, last_failure_ms LIMIT 1`).all() as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toContain('signin_failures_forget');
    expect(plan.join('\n')).not.toContain('TEMP B-TREE');
  });
});
