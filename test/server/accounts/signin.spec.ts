import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { DEMO_ACCOUNTS } from '../../../server/accounts/demoAccounts';
import { hashPassword } from '../../../server/accounts/passwordHash';
import { DATABASE_FILE_NAME, openDatabase } from '../../../server/db/openDatabase';
import { buildAccountsTestApp, form, FORM, sessionCookieOf, signIn } from './accountsTestApp';

const { ada, grace } = DEMO_ACCOUNTS;
const FOURTEEN_DAYS_S = 14 * 24 * 3600;

describe('sign-in pages (GET/POST /signin, POST /signout)', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let logs: string[];
  const build = async (options: Partial<Parameters<typeof buildAccountsTestApp>[0]> = {}) => {
    ({ app, logs } = await buildAccountsTestApp({ dataDir, ...options }));
  };
  const postSignin = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/signin', headers: { ...FORM, ...headers }, payload: form(fields) });
  const withCookie = (secret: string) => ({ cookie: `vf_session=${secret}` });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'accounts-signin-'));
  });
  afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a sign-in form that posts email and password to /signin, with its stylesheet from our origin', async () => {
    await build();
    const page = await app.inject({ url: '/signin' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatch(/<form method="post" action="\/signin">/);
    expect(page.body).toMatch(/<input type="email" name="email"/);
    expect(page.body).toMatch(/<input type="password" name="password"/);
    expect(page.body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(page.body).toContain('<link rel="stylesheet" href="/accounts/signin.css">');
    // The CSP allows no inline style without a nonce: the page has neither <style> nor style="".
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<style|style=/);
    expect(page.body).not.toContain('<script');
    const css = await app.inject({ url: '/accounts/signin.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('main {');
  });

  it('names the demo accounts and their passwords on the form only when the demo accounts exist', async () => {
    await build();
    expect((await app.inject({ url: '/signin' })).body).toContain(
      '<p class="muted">Demo accounts: ada@example.com / vidframe-ada, grace@example.com / vidframe-grace.</p>',
    );
    await app.close();
    await build({ seedDemoAccounts: false });
    for (const page of [await app.inject({ url: '/signin' }), await postSignin({ email: 'ada@example.com', password: 'a-typo' })]) {
      expect(page.body).toMatch(/<form method="post" action="\/signin">/);
      expect(page.body).not.toContain('Demo accounts');
      for (const password of [ada.password, grace.password]) expect(page.body).not.toContain(password);
    }
  });

  it('sends no Cross-Origin-Opener-Policy on the sign-in page (the pop-up must keep window.opener), and keeps frame-ancestors', async () => {
    await build();
    const page = await app.inject({ url: '/signin?popup=1' });
    expect(page.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.body).toContain('<input type="hidden" name="popup" value="1">');
    expect((await app.inject({ url: '/accounts/signin.css' })).headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('signs in: a 303 back to /signin with an HttpOnly, Lax session cookie for 14 days, then "Signed in as …" with the channel picker', async () => {
    await build();
    const response = await postSignin({ email: 'ada@example.com', password: 'vidframe-ada' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/signin');
    const secret = sessionCookieOf(response);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers['set-cookie']).toEqual([
      expect.stringMatching(/^vf_device=[A-Za-z0-9_-]{43}; Max-Age=7776000; Path=\/signin; HttpOnly; SameSite=Strict$/),
      `vf_session=${secret}; Max-Age=${FOURTEEN_DAYS_S}; Path=/; HttpOnly; SameSite=Lax`,
    ]);

    const page = await app.inject({ url: '/signin', headers: withCookie(secret) });
    expect(page.body).toContain('Signed in as <strong>Ada Lovelace</strong>');
    expect(page.body).toContain('<form method="post" action="/accounts/act_as">');
    expect(page.body).toContain('<option value="" selected>yourself (Ada Lovelace)</option>');
    expect(page.body).toContain(`<option value="${ada.channel.id}">Ada&#39;s Workshop</option>`);
    expect(page.body).toContain(`<option value="${grace.channel.id}">Grace&#39;s Lectures (manager)</option>`);
    expect(page.body).toMatch(/<form method="post" action="\/signout">\n<button type="submit" class="secondary">Sign out<\/button>/);
  });

  it('with secureCookies, sets SameSite=None; Secure, so the cookie reaches third-party frames', async () => {
    await build({ secureCookies: true, sessionLifetimeMs: 3600_000 });
    const response = await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' });
    const secret = sessionCookieOf(response);
    expect(response.headers['set-cookie']).toContain(`vf_session=${secret}; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=None`);
    expect(response.headers['set-cookie']).toContainEqual(
      expect.stringMatching(/^vf_device=[\w-]{43}; Max-Age=7776000; Path=\/signin; HttpOnly; Secure; SameSite=Strict$/),
    );
    const out = await app.inject({ method: 'POST', url: '/signout', headers: { ...FORM, ...withCookie(secret) }, payload: '' });
    expect(out.headers['set-cookie']).toMatch(/^vf_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=None$/);
  });

  it('answers a wrong password and an unknown email alike: 401, the form again, "Wrong email or password"', async () => {
    await build();
    const wrong = await postSignin({ email: 'ada@example.com', password: 'vidframe-grace' });
    const unknown = await postSignin({ email: 'nobody@example.com', password: 'vidframe-ada' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.body).toContain('<p class="error" role="alert">Wrong email or password</p>');
      expect(response.body).toMatch(/<form method="post" action="\/signin">/);
    }
    expect(wrong.body).toContain('value="ada@example.com"');
    expect(unknown.body.replace(/nobody@example\.com/g, 'ada@example.com')).toBe(wrong.body);
  });

  it('accepts the email in any case', async () => {
    await build();
    expect((await postSignin({ email: 'Ada@Example.COM', password: 'vidframe-ada' })).statusCode).toBe(303);
  });

  it('refuses a sign-in form without a password with the JSON error shape (400)', async () => {
    await build();
    const response = await postSignin({ email: 'ada@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 400, message: "body must have required property 'password'" } });
  });

  it("in a pop-up, answers a page whose nonce'd script posts the session to its opener at location.origin and closes", async () => {
    await build();
    const response = await postSignin({ email: 'ada@example.com', password: 'vidframe-ada', popup: '1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('Signed in as <strong>Ada Lovelace</strong>, you can close this window.');
    const secret = sessionCookieOf(response);
    const nonce = /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1];
    const scripts = [...response.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0][1]).toBe(` nonce="${nonce}"`);

    const opener = { postMessage: jest.fn() };
    const close = jest.fn();
    runInNewContext(scripts[0][2], { window: { opener, close }, location: { origin: 'http://localhost:8080' } });
    expect(opener.postMessage).toHaveBeenCalledWith({ type: 'vidframe:session', session: secret }, 'http://localhost:8080');
    expect(close).toHaveBeenCalled();
    // Opened without an opener (typed into the address bar): nothing is posted, nothing throws.
    expect(() => runInNewContext(scripts[0][2], { window: { opener: null, close }, location: { origin: 'x' } })).not.toThrow();
  });

  it('hands an existing session over at once when the pop-up opens already signed in', async () => {
    await build();
    const secret = await signIn(app, 'ada@example.com', 'vidframe-ada');
    const page = await app.inject({ url: '/signin?popup=1', headers: withCookie(secret) });
    expect(page.body).toContain(`session: "${secret}" }, location.origin)`);
    expect(page.body).toContain(`<script nonce="${/'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1]}">`);
  });

  it('signs out: the session is gone, the cookie cleared, and /signin shows the form again', async () => {
    await build();
    const secret = await signIn(app, 'ada@example.com', 'vidframe-ada');
    const out = await app.inject({ method: 'POST', url: '/signout', headers: { ...FORM, ...withCookie(secret) }, payload: form({ popup: '1' }) });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/signin?popup=1');
    expect(out.headers['set-cookie']).toMatch(/^vf_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
    const page = await app.inject({ url: '/signin', headers: withCookie(secret) });
    expect(page.body).toContain('action="/signin"');
    expect(page.body).not.toContain('Signed in as');
  });

  it('refuses sign-in and sign-out posted by another site (403), and accepts our own origin', async () => {
    await build();
    const secret = await signIn(app, 'ada@example.com', 'vidframe-ada');
    const csrf = await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'https://evil.example' });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json()).toEqual({ error: { code: 403, message: 'Requests from other sites cannot use the VidFrame session' } });
    const opaque = await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'null' });
    expect(opaque.statusCode).toBe(403);
    const out = await app.inject({ method: 'POST', url: '/signout', headers: { ...FORM, ...withCookie(secret), origin: 'https://evil.example' }, payload: '' });
    expect(out.statusCode).toBe(403);
    expect((await app.inject({ url: '/signin', headers: withCookie(secret) })).body).toContain('Signed in as');
    expect(
      (await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'http://localhost:8080', host: 'localhost' })).statusCode,
    ).toBe(303);
    expect(
      (await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'http://localhost', host: 'localhost:80' })).statusCode,
    ).toBe(303);
    expect(
      (await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'http://localhost:8081', host: 'localhost:8080' })).statusCode,
    ).toBe(403);
    expect(
      (await postSignin({ email: 'grace@example.com', password: 'vidframe-grace' }, { origin: 'https://localhost.evil.example', host: 'localhost' }))
        .statusCode,
    ).toBe(403);
  });

  it('rate-limits sign-in attempts per address: the 11th within a minute is 429, another address is not limited', async () => {
    await build();
    // Each attempt for an email of its own: the limit per email (signinThrottle.spec.ts) stays out of the way.
    const attempt = (remoteAddress: string, i: number) =>
      app.inject({ method: 'POST', url: '/signin', headers: FORM, payload: form({ email: `someone-${i}@example.com`, password: 'guess' }), remoteAddress });
    for (let i = 0; i < 10; i++) expect((await attempt('203.0.113.7', i)).statusCode).toBe(401);
    const limited = await attempt('203.0.113.7', 10);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await attempt('203.0.113.8', 11)).statusCode).toBe(401);
  });

  it('never writes a password in clear: not in the database files, not in the logs', async () => {
    await build();
    await signIn(app, 'ada@example.com', 'vidframe-ada');
    await postSignin({ email: 'grace@example.com', password: 'a-wrong-password-typed-once' });
    await app.close();
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toContain(DATABASE_FILE_NAME);
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(f.parentPath, f.name))));
    expect(bytes.includes('ada@example.com')).toBe(true); // the grep itself works
    for (const password of ['vidframe-ada', 'vidframe-grace', 'a-wrong-password-typed-once']) {
      expect(bytes.includes(password)).toBe(false);
      expect(logs.join('\n')).not.toContain(password);
    }
    expect(logs.length).toBeGreaterThan(0);
  });

  it('escapes what it writes into HTML: a display name and a channel title full of markup', async () => {
    // An account created as any other would be, with a name and a channel title its owner typed.
    const db = openDatabase(join(dataDir, DATABASE_FILE_NAME));
    await build({ seedDemoAccounts: false });
    db.prepare('INSERT INTO accounts VALUES (?, ?, ?, ?, 0)').run(
      'acc_mallory',
      'mallory@example.com',
      '<script>alert("x")</script> & co',
      await hashPassword('pw-mallory'),
    );
    db.prepare('INSERT INTO channels VALUES (?, ?, ?)').run('UCmallory000000000000000', '"><img src=x onerror=alert(1)>', 'acc_mallory');
    db.close();
    const secret = await signIn(app, 'mallory@example.com', 'pw-mallory');
    const page = await app.inject({ url: '/signin', headers: withCookie(secret) });
    expect(page.body).toContain('Signed in as <strong>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</strong>');
    expect(page.body).toContain('<option value="UCmallory000000000000000">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</option>');
    expect(page.body).not.toContain('<script>');
    expect(page.body).not.toContain('<img');
    const failed = await postSignin({ email: '"><b>x</b>@example.com', password: 'nope' });
    expect(failed.body).toContain('value="&quot;&gt;&lt;b&gt;x&lt;/b&gt;@example.com"');
  });

  it('keeps cookies and form bodies to its own routes: a route of another domain parses neither', async () => {
    ({ app } = await buildAccountsTestApp(
      { dataDir },
      {
        alongside: (root) =>
          root.post('/elsewhere', (request) => ({ cookies: (request as { cookies?: unknown }).cookies ?? null, body: request.body ?? null })),
      },
    ));
    const json = await app.inject({
      method: 'POST',
      url: '/elsewhere',
      headers: { 'content-type': 'application/json', cookie: 'vf_session=x' },
      payload: '{"a":1}',
    });
    expect(json.json()).toEqual({ cookies: null, body: { a: 1 } });
    const formPost = await app.inject({ method: 'POST', url: '/elsewhere', headers: FORM, payload: form({ a: '1' }) });
    expect(formPost.statusCode).toBe(415);
  });
});
