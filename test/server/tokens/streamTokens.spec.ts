import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_KEY_ROTATION_MS, STREAM_TOKEN_LIFETIME_MS } from '../../../server/tokens/limits';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { RETRY_QUEUE_EXPIRY_MS } from '../../../streams/timing';

const DAY = 24 * 3600 * 1000;

describe('stream tokens', () => {
  let dir: string;
  let keyFile: string;
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stream-tokens-'));
    keyFile = join(dir, 'secrets', 'stream-keys.json');
    now = Date.UTC(2026, 0, 1);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('issues a fresh stream per token, and verifies its own tokens', () => {
    const tokens = createStreamTokens({ keyFile, now: clock });
    const a = tokens.issue();
    const b = tokens.issue();
    expect(a.stream).not.toBe(b.stream);
    expect(a.token).toMatch(/^v1\.[\w-]+\.[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
    expect(tokens.verify(a.token)).toEqual({ ok: true, stream: a.stream });
  });

  it('keeps its key in a 0600 file and reads it back on the next start', () => {
    const first = createStreamTokens({ keyFile, now: clock });
    const { token, stream } = first.issue();
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const second = createStreamTokens({ keyFile, now: clock });
    expect(second.keyIds()).toEqual(first.keyIds());
    expect(second.verify(token)).toEqual({ ok: true, stream });
  });

  it('lives longer than the retry queue’s 30-day expiry, and not for ever', () => {
    expect(STREAM_TOKEN_LIFETIME_MS).toBeGreaterThan(RETRY_QUEUE_EXPIRY_MS);
    const tokens = createStreamTokens({ keyFile, now: clock });
    const { token } = tokens.issue();
    now += RETRY_QUEUE_EXPIRY_MS;
    expect(tokens.verify(token).ok).toBe(true);
    now += STREAM_TOKEN_LIFETIME_MS - RETRY_QUEUE_EXPIRY_MS + 1;
    expect(tokens.verify(token)).toEqual({ ok: false, reason: 'The stream token has expired', expired: true });
  });

  it('rotates a key older than the rotation period at start-up; the old key still verifies its live tokens', () => {
    const before = createStreamTokens({ keyFile, now: clock });
    now += STREAM_KEY_ROTATION_MS - 1;
    const live = before.issue(); // signed with the old key, just before it is due
    now += 2;
    const after = createStreamTokens({ keyFile, now: clock });
    expect(after.keyIds()).toHaveLength(2);
    expect(after.keyIds()[1]).toBe(before.keyIds()[0]);
    const fresh = after.issue();
    expect(fresh.token.split('.')[1]).toBe(after.keyIds()[0]); // new tokens are signed with the new key
    expect(after.verify(live.token)).toEqual({ ok: true, stream: live.stream });
    expect(after.verify(fresh.token)).toEqual({ ok: true, stream: fresh.stream });
  });

  it('keeps a replaced key exactly as long as tokens it signed can live, then drops it', () => {
    const tokens = createStreamTokens({ keyFile, now: clock });
    now += DAY;
    const signedLate = tokens.issue(); // signed with the first key just before rotation
    tokens.rotate();
    expect(tokens.verify(signedLate.token).ok).toBe(true);
    now += STREAM_TOKEN_LIFETIME_MS - 1;
    tokens.rotate(); // the first key may still have live tokens: kept
    expect(tokens.keyIds()).toHaveLength(3);
    now += 2;
    tokens.rotate(); // now it cannot: dropped, and its tokens with it
    expect(tokens.keyIds()).toHaveLength(3);
    expect(tokens.verify(signedLate.token)).toEqual({ ok: false, reason: 'The stream token was signed with an unknown or retired key' });
  });

  it.each([
    [undefined, 'The request carries no stream token (X-VidFrame-Stream-Token)'],
    ['', 'The request carries no stream token (X-VidFrame-Stream-Token)'],
    [['a', 'b'], 'The request carries no stream token (X-VidFrame-Stream-Token)'],
    ['x'.repeat(600), 'The stream token is too long'],
    ['v1.abc', 'The stream token is malformed'],
    ['v2.k.AAAAAAAAAAAAAAAAAAAAAA.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'The stream token is malformed'],
    ['v1.nokey.AAAAAAAAAAAAAAAAAAAAAA.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'The stream token was signed with an unknown or retired key'],
  ])('refuses %j: %s', (token, reason) => {
    expect(createStreamTokens({ keyFile, now: clock }).verify(token)).toEqual({ ok: false, reason });
  });

  it('accepts one spelling of a signature only (the spare bits of its last character count too)', () => {
    const tokens = createStreamTokens({ keyFile, now: clock });
    for (let i = 0; i < 50; i++) {
      const { token } = tokens.issue();
      const last = token.at(-1)!;
      // The same 4 data bits with other spare bits: base64url decodes both to the same bytes.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const twin = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)];
      expect(tokens.verify(token.slice(0, -1) + twin)).toEqual({ ok: false, reason: 'The stream token signature is wrong' });
    }
  });

  it('refuses a token whose stream was changed (the signature covers it) and one issued in the future', () => {
    const tokens = createStreamTokens({ keyFile, now: clock });
    const { token } = tokens.issue();
    const parts = token.split('.');
    parts[2] = parts[2].replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(tokens.verify(parts.join('.'))).toEqual({ ok: false, reason: 'The stream token signature is wrong' });
    const future = createStreamTokens({ keyFile, now: () => now + 3_600_000 }).issue();
    expect(tokens.verify(future.token)).toEqual({ ok: false, reason: 'The stream token is issued in the future' });
  });

  it('rotates a shared secret: the previous one verifies its live tokens and signs nothing', () => {
    const before = createStreamTokens({ secret: 'first-shared-secret-of-32-characters-x' });
    const queued = before.issue(); // sits in a retry queue while the collectors change secret
    const after = createStreamTokens({ secret: 'second-shared-secret-of-32-characters', previousSecret: 'first-shared-secret-of-32-characters-x' });
    expect(after.verify(queued.token)).toEqual({ ok: true, stream: queued.stream });
    expect(after.issue().token.split('.')[1]).toBe(after.keyIds()[0]);
    expect(after.keyIds()[0]).not.toBe(before.keyIds()[0]);
    const without = createStreamTokens({ secret: 'second-shared-secret-of-32-characters' });
    expect(without.verify(queued.token)).toEqual({ ok: false, reason: 'The stream token was signed with an unknown or retired key' });
  });

  it('rotates while running, at the first token issued past the rotation period', () => {
    const tokens = createStreamTokens({ keyFile, now: clock });
    const old = tokens.issue();
    now += STREAM_KEY_ROTATION_MS + 1;
    const fresh = tokens.issue();
    expect(tokens.keyIds()).toHaveLength(2);
    expect(fresh.token.split('.')[1]).not.toBe(old.token.split('.')[1]);
    expect(JSON.parse(readFileSync(keyFile, 'utf8')).keys).toHaveLength(2); // kept for the next start
  });

  it('shares one key between collectors through a secret, and refuses a short one', () => {
    const a = createStreamTokens({ secret: 's'.repeat(40) });
    const b = createStreamTokens({ secret: 's'.repeat(40) });
    expect(b.verify(a.issue().token).ok).toBe(true);
    expect(() => createStreamTokens({ secret: 'short' })).toThrow('VIDFRAME_STREAM_SECRET must be at least 32 characters');
    expect(() => a.rotate()).toThrow(/rotated by changing it on every collector/);
  });

  it('says what to do with an unreadable key file rather than replacing it', () => {
    createStreamTokens({ keyFile, now: clock });
    writeFileSync(keyFile, '{ not json');
    expect(() => createStreamTokens({ keyFile, now: clock })).toThrow(/is unreadable .*restore it or move it aside/);
    expect(readFileSync(keyFile, 'utf8')).toBe('{ not json');
  });
});
