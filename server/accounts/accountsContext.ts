import type { AccessTokens } from '../tokens/accessTokens';
import type { AccountStore } from './accountStore';
import type { SigninThrottle } from './signinThrottle';

/** What the accounts routes share, built once by `registerAccounts`. */
export interface AccountsContext {
  store: AccountStore;
  tokens: AccessTokens;
  sessionLifetimeMs: number;
  secureCookies: boolean;
  throttle: SigninThrottle;
  /** The demo accounts are seeded: the sign-in form names them and their public passwords (never otherwise). */
  demoAccounts: boolean;
}

/** The refusal of a cookie-carrying request sent by another site (see `isSameOriginOrUnnamed`). */
export const CROSS_SITE_REFUSAL = 'Requests from other sites cannot use the VidFrame session';
