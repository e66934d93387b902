import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { migrateState } from '../db/migrateState';
import { openStateDatabase, type StateDatabase } from '../db/openStateDatabase';
import { replyWithError } from '../http/errors';
import { createAccessTokensFor } from '../tokens/accessTokens';
import { registerAccountApiRoutes } from './accountApiRoutes';
import type { AccountsContext } from './accountsContext';
import { createAccountStore } from './accountStore';
import { createAccountsApi, type Accounts } from './createAccountsApi';
import { registerDatasyncIdsRoute } from './datasyncIdsRoute';
import { seedDemoAccounts as seedDemo } from './demoAccounts';
import { ACCOUNTS_FORM_BODY_MAX_BYTES, SESSION_LIFETIME_MS } from './limits';
import { accountsMigrations } from './migrations';
import { registerSigninRoutes } from './signinRoutes';
import { createSigninThrottle } from './signinThrottle';

export type { Accounts, AuthorizationCheck } from './createAccountsApi';

export interface AccountsOptions {
  /** The data folder: the access-token key lives in `secrets/access-token-key`, and the accounts in its SQLite file unless `database` is given. */
  dataDir: string;
  /**
   * The state database the accounts live in (`openStateDatabase`: SQLite or PostgreSQL), opened and closed by the
   * caller. Without it, the data folder's SQLite file, opened here and closed with the app.
   */
  database?: StateDatabase;
  /** The clock of sessions and tokens (ms since the epoch); tests fix it. */
  now?: () => number;
  /** Create the demo accounts (Ada and Grace, `DEMO_ACCOUNTS`) when missing. Default true. */
  seedDemoAccounts?: boolean;
  /** `SameSite=None; Secure` session cookies, so the cookie reaches third-party frames (https deployments). Default false. */
  secureCookies?: boolean;
  /** An access-token key shared by several servers (at least 32 characters); otherwise a generated key file. */
  accessTokenSecret?: string;
  /** The shared key `accessTokenSecret` replaced: the tokens it signed still verify. */
  accessTokenSecretPrevious?: string;
  /** How long a sign-in lasts. Default 14 days. */
  sessionLifetimeMs?: number;
}

/**
 * The accounts domain of the reference server: accounts and channels with delegation, sign-in sessions,
 * short-lived access tokens, and the routes below. It brings the `accounts` tables of the state database up to date
 * (safe when several servers start at once), seeds the demo accounts when asked and deletes expired sessions.
 *
 * Routes: `GET /signin`, `POST /signin` (throttled per email and per address, see `signinThrottle.ts`;
 * `@fastify/rate-limit` must be registered, with `global: false`, before this), `POST /signout`, `GET /accounts/signin.css`, `POST /accounts/token`,
 * `POST /accounts/act_as`, `POST /accounts/signout`, `GET /getDatasyncIdsEndpoint`.
 *
 * `@fastify/cookie` and `@fastify/formbody` are registered in a child scope of their own, so the other domains' routes
 * neither parse cookies nor accept form bodies because of it.
 *
 * @returns what other routes ask: `verifyAuthorization`, `canActFor`, `displayNameOf`.
 */
export async function registerAccounts(
  app: FastifyInstance,
  {
    dataDir,
    database,
    now = Date.now,
    seedDemoAccounts = true,
    secureCookies = false,
    accessTokenSecret,
    accessTokenSecretPrevious,
    sessionLifetimeMs = SESSION_LIFETIME_MS,
  }: AccountsOptions,
): Promise<Accounts> {
  const state = database ?? (await openStateDatabase({ engine: 'sqlite' }, dataDir));
  const store = createAccountStore(state, { now });
  try {
    await migrateState(state, 'accounts', accountsMigrations);
    if (seedDemoAccounts) await seedDemo(state, { now });
    await store.pruneExpiredSessions();
  } catch (error) {
    if (!database) await state.close();
    throw error;
  }
  const tokens = createAccessTokensFor({ dataDir, secret: accessTokenSecret, previousSecret: accessTokenSecretPrevious, now });
  const accounts = createAccountsApi({ store, tokens });
  const throttle = createSigninThrottle(state, { now });
  const context: AccountsContext = { store, tokens, sessionLifetimeMs, secureCookies, throttle, demoAccounts: seedDemoAccounts };

  await app.register(async (scope) => {
    await scope.register(fastifyCookie);
    await scope.register(fastifyFormbody, { bodyLimit: ACCOUNTS_FORM_BODY_MAX_BYTES });
    scope.setErrorHandler(replyWithError);
    if (!database) scope.addHook('onClose', () => state.close());
    registerSigninRoutes(scope, context);
    registerAccountApiRoutes(scope, context);
    registerDatasyncIdsRoute(scope, accounts);
  });
  return accounts;
}
