import { createIdentityTokens } from '../../server/tokens/identityTokens';

/**
 * Tokens a test client needs to call the API of a server started with a shared `streamSecret`
 * (`VIDFRAME_STREAM_SECRET`): the anti-forgery token every POST body carries (`session_token`, spec §7) and a
 * visitor id, minted with the same derived keys the server uses. No key file is written.
 */
export function apiTokensFor(sharedSecret: string, now?: () => number): { antiForgeryToken: () => string; visitorData: () => string } {
  const tokens = createIdentityTokens({ dataDir: '/nonexistent-data-dir', sharedSecret, now });
  return { antiForgeryToken: () => tokens.antiForgery.issue().token, visitorData: () => tokens.visitor.issue().token };
}
