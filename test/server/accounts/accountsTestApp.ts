import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { Writable } from 'node:stream';
import { registerAccounts, type Accounts, type AccountsOptions } from '../../../server/accounts/registerAccounts';
import { registerSecurityHeaders } from '../../../server/security/securityHeaders';

/**
 * A bare Fastify app with what `app.ts` registers before the accounts (helmet with its CSP nonces, the rate-limit
 * plugin with `global: false`), and the accounts domain; every log line it writes is kept in `logs`. `alongside` adds
 * routes of another domain to the root, as app.ts would; `trustProxy` takes the client address from `X-Forwarded-For`.
 */
export async function buildAccountsTestApp(
  options: AccountsOptions,
  { alongside, trustProxy = false }: { alongside?: (app: FastifyInstance) => void; trustProxy?: boolean } = {},
): Promise<{ app: FastifyInstance; accounts: Accounts; logs: string[] }> {
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'trace', stream }, trustProxy });
  await registerSecurityHeaders(app);
  await app.register(fastifyRateLimit, { global: false });
  const accounts = await registerAccounts(app, options);
  alongside?.(app);
  await app.ready();
  return { app, accounts, logs };
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

/** The `vf_session` value a reply sets. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('vf_session='));
  if (!header) throw new Error(`no vf_session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return header.split(';')[0].slice('vf_session='.length);
}

/** Signs in through the form and returns the session secret. */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/signin', headers: FORM, payload: form({ email, password }) });
  if (response.statusCode !== 303) throw new Error(`sign-in of ${email} answered ${response.statusCode}`);
  return sessionCookieOf(response);
}
