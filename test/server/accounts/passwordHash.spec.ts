import { hashPassword, UNMATCHABLE_PASSWORD_HASH, verifyPassword } from '../../../server/accounts/passwordHash';

describe('password hashes (scrypt)', () => {
  it('stores scrypt$16384$8$1$<16-byte salt>$<64-byte key>, never the password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const match = /^scrypt\$16384\$8\$1\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(hash);
    expect(match).not.toBeNull();
    expect(Buffer.from(match![1], 'base64')).toHaveLength(16);
    expect(Buffer.from(match![2], 'base64')).toHaveLength(64);
    expect(hash).not.toContain('correct horse');
  });

  it('salts every hash: the same password hashes differently twice, and both verify', async () => {
    const [a, b] = [await hashPassword('same'), await hashPassword('same')];
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('refuses a wrong password, and treats NFC and NFD spellings as one password', async () => {
    const hash = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe', hash)).toBe(false);
    expect(await verifyPassword('Caf\u00e9', hash)).toBe(false);
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });

  it('matches nothing with the unmatchable hash, which still costs a real scrypt', async () => {
    expect(UNMATCHABLE_PASSWORD_HASH).toMatch(/^scrypt\$16384\$8\$1\$/);
    const started = process.hrtime.bigint();
    expect(await verifyPassword('', UNMATCHABLE_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('vidframe-ada', UNMATCHABLE_PASSWORD_HASH)).toBe(false);
    // Two scrypts at N=16384, r=8 take milliseconds, not microseconds: the unknown-email path does hash.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeGreaterThan(2);
  });

  it('matches nothing (and does not throw) for stored values that are not our hashes or name absurd costs', async () => {
    const hash = await hashPassword('pw');
    const [, , , , salt, key] = hash.split('$');
    for (const stored of [
      '',
      'pw',
      'bcrypt$2b$10$abc',
      `scrypt$1073741824$8$1$${salt}$${key}`,
      `scrypt$16385$8$1$${salt}$${key}`,
      `scrypt$16384$8$1$${salt}$AAAA`,
    ]) {
      expect(await verifyPassword('pw', stored)).toBe(false);
    }
  });
});
