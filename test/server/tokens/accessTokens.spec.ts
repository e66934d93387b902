import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccessTokens } from '../../../server/tokens/accessTokens';
import { ACCESS_TOKEN_LIFETIME_MS } from '../../../server/tokens/limits';

const SECRET = 'an-access-token-secret-of-32-chars-or-more';
const claims = { accountId: 'acc_demoAdaLovelace0000000', sessionId: '0123456789abcdef0123456789abcdef' };
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('access tokens (vfat1)', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = Date.UTC(2026, 0, 1);
  });

  it('lives 15 minutes by default', () => {
    expect(ACCESS_TOKEN_LIFETIME_MS).toBe(15 * 60 * 1000);
  });

  it('is vfat1.<base64url JSON {sub, sid, exp}>.<base64url HMAC-SHA256>, readable by the client without a key', () => {
    const tokens = createAccessTokens({ secret: SECRET, now: clock });
    const { token, expiresAtMs } = tokens.issue(claims);
    expect(token).toMatch(/^vfat1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(payloadOf(token)).toEqual({ sub: claims.accountId, sid: claims.sessionId, exp: now + ACCESS_TOKEN_LIFETIME_MS });
    expect(expiresAtMs).toBe(now + ACCESS_TOKEN_LIFETIME_MS);
    expect(tokens.verify(token)).toEqual({ ok: true, ...claims, expiresAtMs });
  });

  it('carries the acting channel as "ch"', () => {
    const tokens = createAccessTokens({ secret: SECRET, now: clock });
    const { token } = tokens.issue({ ...claims, actingChannelId: 'UCgraceLectures000000000' });
    expect(payloadOf(token)).toMatchObject({ ch: 'UCgraceLectures000000000' });
    expect(tokens.verify(token)).toMatchObject({ ok: true, actingChannelId: 'UCgraceLectures000000000' });
  });

  it('expires after its lifetime, or with its session when that ends first', () => {
    const tokens = createAccessTokens({ secret: SECRET, now: clock });
    const { token } = tokens.issue(claims);
    now += ACCESS_TOKEN_LIFETIME_MS - 1;
    expect(tokens.verify(token).ok).toBe(true);
    now += 1;
    expect(tokens.verify(token)).toEqual({ ok: false, reason: 'The access token has expired; sign in again' });
    const capped = tokens.issue({ ...claims, notAfterMs: now + 1000 });
    expect(capped.expiresAtMs).toBe(now + 1000);
  });

  it('refuses a forged signature and a payload edited to another account', () => {
    const tokens = createAccessTokens({ secret: SECRET, now: clock });
    const { token } = tokens.issue(claims);
    const [prefix, payload, signature] = token.split('.');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(tokens.verify(`${prefix}.${payload}.${flipped}`)).toEqual({ ok: false, reason: 'The access token signature is invalid' });
    const edited = Buffer.from(JSON.stringify({ ...payloadOf(token), sub: 'acc_demoGraceHopper0000000' })).toString('base64url');
    expect(tokens.verify(`${prefix}.${edited}.${signature}`)).toEqual({ ok: false, reason: 'The access token signature is invalid' });
    const otherKey = createAccessTokens({ secret: `${SECRET}-other`, now: clock });
    expect(otherKey.verify(token)).toEqual({ ok: false, reason: 'The access token signature is invalid' });
  });

  it.each([
    undefined,
    42,
    '',
    'vfat1',
    'vfat1..',
    'vfat2.eyJzdWIiOiJ4In0.' + 'A'.repeat(43),
    'vfat1.not base64!.' + 'A'.repeat(43),
    `vfat1.${'A'.repeat(2000)}.${'A'.repeat(43)}`,
  ])('refuses %p as malformed', (token) => {
    expect(createAccessTokens({ secret: SECRET, now: clock }).verify(token)).toEqual({ ok: false, reason: 'The access token is malformed' });
  });

  it('refuses a correctly signed payload that is not the claims JSON as malformed', () => {
    // Signed with the same key, as only a holder of the key could: the signature is right, the claims are not.
    const body = `vfat1.${Buffer.from(JSON.stringify({ sub: 'acc_x', exp: 'soon' })).toString('base64url')}`;
    const token = `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
    expect(createAccessTokens({ secret: SECRET, now: clock }).verify(token)).toEqual({ ok: false, reason: 'The access token is malformed' });
  });

  it('generates a 32-byte key into a 0600 key file and reads it back, so tokens survive a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'access-tokens-'));
    try {
      const keyFile = join(dir, 'secrets', 'access-token-key');
      const first = createAccessTokens({ keyFile, now: clock });
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64url')).toHaveLength(32);
      const { token } = first.issue(claims);
      expect(createAccessTokens({ keyFile, now: clock }).verify(token).ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a shared secret shorter than 32 characters, and a missing key source', () => {
    expect(() => createAccessTokens({ secret: 'short' })).toThrow('The access-token secret must be at least 32 characters');
    expect(() => createAccessTokens({})).toThrow('createAccessTokens needs a key file or a secret');
  });
});
