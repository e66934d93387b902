import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { migrate } from '../db/migrate';
import { DATABASE_FILE_NAME, openDatabase } from '../db/openDatabase';
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
  /** The data folder: the accounts live in its SQLite database, the access-token key in `secrets/access-token-key`. */
  dataDir: string;
  /** The clock of sessions and tokens (ms since the epoch); tests fix it. */
  now?: () => number;
  /** Create the demo accounts (Ada and Grace, `DEMO_ACCOUNTS`) when missing. Default true. */
  seedDemoAccounts?: boolean;
  /** `SameSite=None; Secure` session cookies, so the cookie reaches third-party frames (https deployments). Default false. */
  secureCookies?: boolean;
  /** An access-token key shared by several servers (at least 32 characters); otherwise a generated key file. */
  accessTokenSecret?: string;
  /** How long a sign-in lasts. Default 14 days. */
  sessionLifetimeMs?: number;
}

/**
 * The accounts domain of the reference server: accounts and channels with delegation, sign-in sessions,
 * short-lived access tokens, and the routes below. It opens its own connection to the server's database (the collector
 * holds another to the same WAL file), brings the `accounts` tables up to date, seeds the demo accounts when asked,
 * deletes expired sessions, and closes the connection when the app closes.
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
  { dataDir, now = Date.now, seedDemoAccounts = true, secureCookies = false, accessTokenSecret, sessionLifetimeMs = SESSION_LIFETIME_MS }: AccountsOptions,
): Promise<Accounts> {
  const db = openDatabase(join(dataDir, DATABASE_FILE_NAME));
  try {
    migrate(db, 'accounts', accountsMigrations);
    if (seedDemoAccounts) await seedDemo(db, { now });
  } catch (error) {
    db.close();
    throw error;
  }
  const store = createAccountStore(db, { now });
  store.pruneExpiredSessions();
  const tokens = createAccessTokensFor({ dataDir, secret: accessTokenSecret, now });
  const accounts = createAccountsApi({ store, tokens });
  const throttle = createSigninThrottle(db, { now });
  const context: AccountsContext = { store, tokens, sessionLifetimeMs, secureCookies, throttle, demoAccounts: seedDemoAccounts };

  await app.register(async (scope) => {
    await scope.register(fastifyCookie);
    await scope.register(fastifyFormbody, { bodyLimit: ACCOUNTS_FORM_BODY_MAX_BYTES });
    scope.setErrorHandler(replyWithError);
    scope.addHook('onClose', async () => {
      db.close();
    });
    registerSigninRoutes(scope, context);
    registerAccountApiRoutes(scope, context);
    registerDatasyncIdsRoute(scope, accounts);
  });
  return accounts;
}
