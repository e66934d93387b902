import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { migrateState } from '../db/migrateState';
import type { UsedNonces } from '../tokens/attestationTokens';
import type { StateDatabase } from '../db/openStateDatabase';
import { CLUSTER_SWEEP_MS } from './limits';
import { clusterMigrations } from './migrations';
import { sharedRateLimitStore, sweepRateLimits } from './rateLimitStore';
import { rotatingSecretOf, sharedSecretOf } from './sharedSecret';
import { sweepUsedNonces, usedNoncesIn } from './usedNonces';

/** The name of the secret the token keys derive from when no `VIDFRAME_STREAM_SECRET` is configured. */
export const TOKEN_SECRET_NAME = 'tokens';
/** The name of the admin token every server accepts when no `VIDFRAME_ADMIN_TOKEN` is configured. */
export const ADMIN_TOKEN_NAME = 'admin-token';

/** What the servers sharing a PostgreSQL state database share besides its tables. */
export interface ClusterState {
  /** The rate-limit store every server counts in; undefined: each server counts in its own memory. */
  rateLimitStore?: FastifyRateLimitStoreCtor;
  /** The secret the token keys derive from, the same on every server; undefined: the data folder's key files. */
  sharedSecret?: string;
  /** One more secret the tokens are accepted under: the one a rotation replaced, or its staged successor. */
  previousSharedSecret?: string;
  /** The attestation tokens accepted by any server; undefined: each server remembers its own. */
  usedNonces?: UsedNonces;
  /** The admin token kept in the database for every server; undefined: configured, or the data folder's file. */
  adminToken?: string;
}

/**
 * On PostgreSQL (servers behind one origin): the `cluster` tables brought up to date, the rate limits counted in the
 * database, the attestation tokens accepted by any server remembered there (both swept of expired rows until the app
 * closes), and — unless `configured.secret` (`VIDFRAME_STREAM_SECRET`) is given — the token keys' secret kept there
 * (rotated in two steps, `sharedSecret.ts`), so nothing a client holds depends on which server signed it; likewise the
 * admin token unless `VIDFRAME_ADMIN_TOKEN` gives one, so the dashboard signs in whichever server answers. On SQLite
 * (one server, `npm start`): nothing shared; the limits count in memory and the keys stay in the data folder's files.
 */
export async function registerCluster(
  app: FastifyInstance,
  { state, configured, now }: { state: StateDatabase; configured: { secret?: string; previous?: string; adminToken?: string }; now: () => number },
): Promise<ClusterState> {
  const fromConfig = { sharedSecret: configured.secret, previousSharedSecret: configured.secret ? configured.previous : undefined };
  if (state.engine !== 'postgres') return fromConfig;
  await migrateState(state, 'cluster', clusterMigrations);
  const kept = configured.secret ? undefined : await rotatingSecretOf(state, TOKEN_SECRET_NAME, now);
  const secrets = kept ? { sharedSecret: kept.signing, previousSharedSecret: kept.alsoVerifying } : fromConfig;
  const adminToken = configured.adminToken ? undefined : await sharedSecretOf(state, ADMIN_TOKEN_NAME, now);
  const sweep = setInterval(() => {
    Promise.all([sweepRateLimits(state, now()), sweepUsedNonces(state, now())]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'cluster: the sweep of expired rate-limit counts and nonces failed'),
    );
  }, CLUSTER_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  return { rateLimitStore: sharedRateLimitStore(state, now), usedNonces: usedNoncesIn(state), adminToken, ...secrets };
}
