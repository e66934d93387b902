import { TOKEN_SECRET_NAME } from '../../../server/cluster/registerCluster';
import { clusterMigrations } from '../../../server/cluster/migrations';
import { sharedRateLimitStore, sweepRateLimits } from '../../../server/cluster/rateLimitStore';
import { promoteSecret, rotatingSecretOf, sharedSecretOf, stageSecret } from '../../../server/cluster/sharedSecret';
import { sweepUsedNonces, usedNoncesIn } from '../../../server/cluster/usedNonces';
import { migrateState } from '../../../server/db/migrateState';
import type { StateDatabase } from '../../../server/db/openStateDatabase';
import { countRows, type FreshState, type StateFixture } from './stateFixture';

type Counter = { incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void };

/** One counted request: what the plugin would read back (hits in the window, ms left of it). */
const hit = (counter: Counter, key: string, windowMs = 60_000) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    counter.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), windowMs, 10),
  );

/**
 * The rules of what several servers on one state database share (`server/cluster/`): rate limits counted once
 * whichever server counts, and secrets every server reads the same. Run on both engines by the state specs.
 */
export function describeClusterConformance(name: string, fixture: StateFixture): void {
  describe(`${name}: what servers sharing the database share`, () => {
    let fresh: FreshState;
    let state: StateDatabase;
    let clock = 1_000_000;
    const now = () => clock;
    /** A named bucket of the shared store, as `createRateLimit` makes one. */
    const bucket = (db: StateDatabase, name: string) => new (sharedRateLimitStore(db, now))({}).child({ bucket: name } as never) as Counter;
    beforeEach(async () => {
      fresh = await fixture.fresh();
      state = await fresh.open();
      expect(await migrateState(state, 'cluster', clusterMigrations)).toEqual([1, 2]);
      clock = 1_000_000;
    });
    afterEach(() => fresh.cleanup());

    it('counts a fixed window per bucket and key, and starts the next window once one ends', async () => {
      const perAddress = bucket(state, 'log_event per address');
      expect(await hit(perAddress, '192.0.2.1')).toEqual({ current: 1, ttl: 60_000 });
      clock += 15_000;
      expect(await hit(perAddress, '192.0.2.1')).toEqual({ current: 2, ttl: 45_000 });
      expect(await hit(perAddress, '192.0.2.2')).toEqual({ current: 1, ttl: 60_000 });
      expect(await hit(bucket(state, 'video_stats per address'), '192.0.2.1')).toEqual({ current: 1, ttl: 60_000 });
      // A route's limit counts under the route's method and URL.
      const route = new (sharedRateLimitStore(state, now))({}).child({ routeInfo: { method: 'POST', url: '/signin' } } as never) as Counter;
      expect(await hit(route, '192.0.2.1')).toEqual({ current: 1, ttl: 60_000 });
      expect(await hit(route, '192.0.2.1')).toEqual({ current: 2, ttl: 60_000 });
      clock += 45_000;
      expect(await hit(perAddress, '192.0.2.1')).toEqual({ current: 1, ttl: 60_000 });
    });

    it('counts requests counted at once through two connections exactly, as two servers would', async () => {
      const other = await fresh.open();
      const [a, b] = [bucket(state, 'burst'), bucket(other, 'burst')];
      const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => hit(i % 2 ? a : b, 'viewer')));
      expect(counts.map((c) => c.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('gives each of many requests counted at once its own place in the window, per key', async () => {
      const counter = bucket(state, 'burst');
      const counts = await Promise.all(Array.from({ length: 600 }, (_, i) => hit(counter, `viewer${i % 3}`).then((c) => [i % 3, c.current] as const)));
      for (const viewer of [0, 1, 2]) {
        const places = counts.filter(([v]) => v === viewer).map(([, current]) => current);
        expect(places.sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      }
      const many = await Promise.all(Array.from({ length: 700 }, (_, i) => hit(counter, `key${i}`)));
      expect(many.every((c) => c.current === 1 && c.ttl === 60_000)).toBe(true);
    });

    (fixture.concurrentConnections ? it : it.skip)('lets only a bounded number of counts wait for a database that does not answer', async () => {
      const counter = new (sharedRateLimitStore(state, now, 5))({}).child({ bucket: 'stall' } as never) as Counter;
      expect((await hit(counter, 'k')).current).toBe(1);
      const blocker = await fresh.open();
      let releaseLock!: () => void;
      const held = new Promise<void>((resolve) => (releaseLock = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const transaction = blocker.db.transaction().execute(async (trx) => {
        await trx.updateTable('rate_limit_counts').set({ hits: 1 }).where('bucket_key', '=', 'stall|k').execute();
        locked();
        await held;
      });
      await lockTaken;
      // One count in flight behind the lock, five waiting, and the seventh refused at once.
      const waiting = Array.from({ length: 6 }, () => hit(counter, 'k'));
      await expect(hit(counter, 'k')).rejects.toThrow('rate-limit counts are already waiting for the database');
      releaseLock();
      await transaction;
      expect((await Promise.all(waiting)).map((c) => c.current).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7]);
    });

    it('keeps a long key apart from others under its hash', async () => {
      const counter = bucket(state, 'per stream');
      const long = 'x'.repeat(300);
      expect((await hit(counter, long)).current).toBe(1);
      expect((await hit(counter, long)).current).toBe(2);
      expect((await hit(counter, `${long}y`)).current).toBe(1);
      const keys = await state.db.selectFrom('rate_limit_counts').select('bucket_key').execute();
      expect(keys.every((k) => k.bucket_key.length <= 200)).toBe(true);
    });

    it('sweeps the counters whose window has ended, and only those', async () => {
      await hit(bucket(state, 'short'), 'a', 1_000);
      await hit(bucket(state, 'long'), 'a', 60_000);
      clock += 1_000;
      expect(await sweepRateLimits(state, now())).toBe(1);
      expect(await countRows(state, 'rate_limit_counts')).toBe(1);
    });

    it('refuses what it does not count: a window that grows, and a limit with neither a name nor a route', () => {
      const Store = sharedRateLimitStore(state, now);
      expect(() => new Store({ continueExceeding: true } as never)).toThrow('fixed windows only');
      expect(() => new Store({}).child({} as never)).toThrow('needs a bucket name');
    });

    it('accepts an attestation nonce once across connections claiming it at once, and sweeps expired ones', async () => {
      const [a, b] = [usedNoncesIn(state), usedNoncesIn(await fresh.open())];
      const claims = await Promise.all([a.claim('nonce-1', clock + 1_000), b.claim('nonce-1', clock + 1_000), a.claim('nonce-2', clock + 5_000)]);
      expect(claims.slice(0, 2).sort()).toEqual([false, true]);
      expect(claims[2]).toBe(true);
      clock += 1_000;
      expect(await sweepUsedNonces(state, now())).toBe(1);
      expect(await b.claim('nonce-2', clock + 4_000)).toBe(false);
    });

    it('gives every server the same shared secret, created by whichever asks first', async () => {
      const other = await fresh.open();
      const [first, second] = await Promise.all([sharedSecretOf(state, TOKEN_SECRET_NAME, now), sharedSecretOf(other, TOKEN_SECRET_NAME, now)]);
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second).toBe(first);
      expect(await sharedSecretOf(state, TOKEN_SECRET_NAME, now)).toBe(first);
      expect(await sharedSecretOf(state, 'another', now)).not.toBe(first);
    });

    it('rotates a secret in two steps: a successor accepted first, then signing with it while the replaced one is accepted', async () => {
      const first = await rotatingSecretOf(state, TOKEN_SECRET_NAME, now);
      expect(first.alsoVerifying).toBeUndefined();
      await expect(promoteSecret(state, TOKEN_SECRET_NAME, now)).rejects.toThrow('No successor of the tokens secret is staged');
      expect(await stageSecret(state, TOKEN_SECRET_NAME, now)).toBe(true);
      expect(await stageSecret(state, TOKEN_SECRET_NAME, now)).toBe(false);
      const staged = await rotatingSecretOf(state, TOKEN_SECRET_NAME, now);
      expect(staged.signing).toBe(first.signing);
      expect(staged.alsoVerifying).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await promoteSecret(state, TOKEN_SECRET_NAME, now);
      expect(await rotatingSecretOf(state, TOKEN_SECRET_NAME, now)).toEqual({ signing: staged.alsoVerifying, alsoVerifying: first.signing });
    });
  });
}
