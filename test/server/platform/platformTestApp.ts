import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { DEMO_ACCOUNTS } from '../../../server/accounts/demoAccounts';
import { DATABASE_FILE_NAME } from '../../../server/db/openDatabase';
import { apiTokensFor } from '../../helpers/apiTokens';

/** The one attestation response the fake verifier accepts (the real verifier is the attestation domain's). */
export const GOOD_ATTESTATION = 'fake-attestation-response-accepted';
export const T0 = 1_800_000_000_000;
export const SAMPLES_CHANNEL = 'UCvidframeSamples0000000';
export const STUDIO_CHANNEL = 'UCvidframeStudio00000000';
const SECRET = 'platform-spec-shared-secret-0123456789abcdef';

export interface PlatformTestApp {
  app: VidFrameApp;
  /** The clock of the app and its tokens; tests move it. */
  clock: { now: number };
  /** An access token of a demo account, signed in through the real form and token endpoint. */
  signIn(who: keyof typeof DEMO_ACCOUNTS, actAs?: string): Promise<string>;
  /**
   * `POST /youtubei/v1/{endpoint}` with a valid anti-forgery field (unless the body sets `session_token` itself), as
   * the access token's account when one is given, anonymous otherwise.
   */
  call(
    endpoint: string,
    body: Record<string, unknown>,
    accessToken?: string,
    headers?: Record<string, string>,
  ): Promise<Awaited<ReturnType<VidFrameApp['inject']>>>;
  /** A valid anti-forgery field (`session_token`), for a request built by hand. */
  antiForgeryToken(): string;
  /** Rows of the shared SQLite file, read on a connection of its own (what the server committed). */
  rows<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

/** The real app on a temporary data folder, with a fixed clock and a fake attestation verifier. */
export async function startPlatformApp(): Promise<PlatformTestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-'));
  const clock = { now: T0 };
  const app = await buildApp({
    dataDir,
    streamSecret: SECRET,
    now: () => clock.now,
    rateLimit: false,
    verifyAttestation: (response) => (response === GOOD_ATTESTATION ? { ok: true } : { ok: false, reason: 'the fake verifier does not know this response' }),
  });
  const tokens = apiTokensFor(SECRET, () => clock.now);
  const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true, fileMustExist: true });
  return {
    app,
    clock,
    async signIn(who, actAs) {
      const { email, password } = DEMO_ACCOUNTS[who];
      const form = await app.inject({
        method: 'POST',
        url: '/signin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, password }).toString(),
      });
      if (form.statusCode !== 303) throw new Error(`sign-in of ${who} answered ${form.statusCode}`);
      const session = String([form.headers['set-cookie']].flat().find((c) => String(c).startsWith('vf_session=')))
        .split(';')[0]
        .slice('vf_session='.length);
      const answer = actAs
        ? await app.inject({ method: 'POST', url: '/accounts/act_as', payload: { session, channelId: actAs } })
        : await app.inject({ method: 'POST', url: '/accounts/token', payload: { session } });
      if (answer.statusCode !== 200) throw new Error(`the token of ${who} answered ${answer.statusCode}`);
      return answer.json().accessToken as string;
    },
    call(endpoint, body, accessToken, headers = {}) {
      return app.inject({
        method: 'POST',
        url: `/youtubei/v1/${endpoint}`,
        payload: { context: { client: { clientName: 'WEB_EMBEDDED_PLAYER' } }, session_token: tokens.antiForgeryToken(), ...body },
        headers: { ...(accessToken && { authorization: `Bearer ${accessToken}`, 'x-youtube-bootstrap-logged-in': 'true' }), ...headers },
      });
    },
    antiForgeryToken: tokens.antiForgeryToken,
    rows: <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    async close() {
      db.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
