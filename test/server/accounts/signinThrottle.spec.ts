import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  KNOWN_DEVICE_FAILURES_MAX,
  KNOWN_DEVICE_LIFETIME_MS,
  SIGNIN_FIRST_DELAY_MS,
  SIGNIN_FREE_FAILURES,
  SIGNIN_LOCK_FAILURES,
  SIGNIN_LOCK_MS,
  SIGNIN_RATE_LIMIT_MAX,
} from '../../../server/accounts/limits';
import { buildAccountsTestApp, form, FORM } from './accountsTestApp';

const ATTACKERS = Array.from({ length: 100 }, (_, i) => `198.51.100.${i + 1}`);

/** The `vf_device` value a reply sets. */
function deviceCookieOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('vf_device='));
  if (!header) throw new Error(`no vf_device cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return header.split(';')[0].slice('vf_device='.length);
}

describe('sign-in throttling per account and per address (POST /signin behind a trusted proxy)', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let now: number;
  /** A sign-in from `address` (`X-Forwarded-For`), from a browser that holds `device` when given. */
  const attempt = (email: string, password: string, address: string, device?: string) =>
    app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...FORM, 'x-forwarded-for': address, ...(device ? { cookie: `vf_device=${device}` } : {}) },
      payload: form({ email, password }),
    });
  /** Signs in from a browser of its own and returns that browser's device cookie. */
  const knownDevice = async (email: string, password: string) => {
    const response = await attempt(email, password, '192.0.2.1');
    expect(response.statusCode).toBe(303);
    return deviceCookieOf(response);
  };
  /** Wrong passwords for `email`, each from a new address, waiting out every delay, until it is locked. */
  const lockOut = async (email: string) => {
    const waits: number[] = [];
    for (let failures = 0, i = 0; failures < SIGNIN_LOCK_FAILURES; i++) {
      const response = await attempt(email, `guess-${i}`, ATTACKERS[i % ATTACKERS.length]);
      if (response.statusCode === 401) failures++;
      else {
        expect(response.statusCode).toBe(429);
        waits.push(Number(response.headers['retry-after']));
        now += Number(response.headers['retry-after']) * 1000;
      }
    }
    return waits;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'accounts-throttle-'));
    now = Date.UTC(2026, 0, 1);
    ({ app } = await buildAccountsTestApp({ dataDir, now: () => now }, { trustProxy: true }));
  });
  afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks only the first few of 100 wrong passwords sent at once from 100 addresses; the rest must wait, unknown email or not', async () => {
    const answers = await Promise.all(ATTACKERS.map((address, i) => attempt('ada@example.com', `guess-${i}`, address)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGNIN_FREE_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(ATTACKERS.length - SIGNIN_FREE_FAILURES);
    const waiting = answers.find((a) => a.statusCode === 429)!;
    expect(waiting.headers['retry-after']).toBe(String(SIGNIN_FIRST_DELAY_MS / 1000));
    expect(waiting.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(waiting.body).toContain('<p class="error" role="alert">Too many failed sign-ins for this email. Try again in 1 second');

    // An email without an account is answered the same way: the answers do not tell which emails have accounts.
    const unknown = await Promise.all(ATTACKERS.map((address, i) => attempt('nobody@example.com', `guess-${i}`, address.replace('198.51.100', '203.0.113'))));
    expect(unknown.map((a) => a.statusCode).sort()).toEqual([...statuses].sort());
    expect(unknown.find((a) => a.statusCode === 429)!.body.replace(/nobody@example\.com/g, 'ada@example.com')).toBe(waiting.body);
  });

  it('waits longer after each further failure, then locks the account: the right password from a new browser is refused, from a known one it works', async () => {
    const adasLaptop = await knownDevice('ada@example.com', 'vidframe-ada');
    expect(await lockOut('ada@example.com')).toEqual([1, 2, 4, 8, 16]);
    const locked = await attempt('ada@example.com', 'another-guess', '198.51.100.200');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe(String(SIGNIN_LOCK_MS / 1000));
    expect(locked.body).toContain('Try again in 15 minutes');

    const newBrowser = await attempt('ada@example.com', 'vidframe-ada', '192.0.2.99');
    expect(newBrowser.statusCode).toBe(429);
    expect(newBrowser.headers['set-cookie']).toBeUndefined();
    expect(newBrowser.body).toBe(locked.body);

    const fromLaptop = await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', adasLaptop);
    expect(fromLaptop.statusCode).toBe(303);
    expect(deviceCookieOf(fromLaptop)).not.toBe(adasLaptop); // a new device secret at every sign-in
    // The success forgets the failures: a new browser may sign in again.
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.99')).statusCode).toBe(303);
  });

  it('lifts the lock after its time; a forged or another account’s device cookie is no known device', async () => {
    const gracesLaptop = await knownDevice('grace@example.com', 'vidframe-grace');
    await lockOut('ada@example.com');
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', gracesLaptop)).statusCode).toBe(429);
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', 'A'.repeat(43))).statusCode).toBe(429);
    now += SIGNIN_LOCK_MS;
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1')).statusCode).toBe(303);
  });

  it('lets a known device through the lock for a few wrong passwords only', async () => {
    const adasLaptop = await knownDevice('ada@example.com', 'vidframe-ada');
    await lockOut('ada@example.com');
    for (let i = 0; i < KNOWN_DEVICE_FAILURES_MAX; i++) expect((await attempt('ada@example.com', `typo-${i}`, '192.0.2.1', adasLaptop)).statusCode).toBe(401);
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', adasLaptop)).statusCode).toBe(429);
  });

  it('checks no more of a burst of wrong passwords sent at once from one known device than the device is allowed', async () => {
    const adasLaptop = await knownDevice('ada@example.com', 'vidframe-ada');
    await lockOut('ada@example.com');
    const burst = await Promise.all(ATTACKERS.slice(0, 40).map((address, i) => attempt('ada@example.com', `burst-${i}`, address, adasLaptop)));
    const statuses = burst.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(KNOWN_DEVICE_FAILURES_MAX);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - KNOWN_DEVICE_FAILURES_MAX);
    // The allowance is spent: the laptop waits out the lock like any browser.
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', adasLaptop)).statusCode).toBe(429);
  });

  it('forgets a known device after its lifetime without a sign-in', async () => {
    const adasLaptop = await knownDevice('ada@example.com', 'vidframe-ada');
    now += KNOWN_DEVICE_LIFETIME_MS;
    await lockOut('ada@example.com');
    expect((await attempt('ada@example.com', 'vidframe-ada', '192.0.2.1', adasLaptop)).statusCode).toBe(429);
  });

  it('lets a colleague behind a limited address in with the right password from a known device', async () => {
    const adasLaptop = await knownDevice('ada@example.com', 'vidframe-ada');
    const office = '203.0.113.7';
    // Ten people behind the office's address mistype, each for an email of their own.
    for (let i = 0; i < SIGNIN_RATE_LIMIT_MAX; i++) expect((await attempt(`someone-${i}@example.com`, 'typo', office)).statusCode).toBe(401);
    const limited = await attempt('grace@example.com', 'vidframe-grace', office);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await attempt('ada@example.com', 'vidframe-ada', office)).statusCode).toBe(429);
    expect((await attempt('ada@example.com', 'vidframe-ada', office, adasLaptop)).statusCode).toBe(303);
  });
});
