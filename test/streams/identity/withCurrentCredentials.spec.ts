import { ACCESS_TOKEN_PREFIX, accessTokenSubject } from '../../../streams/identity/accessTokenSubject';
import { LOGGED_IN_HEADER, withCurrentCredentials } from '../../../streams/identity/withCurrentCredentials';
import type { ApiRequest } from '../../../streams/transport/buildApiRequest';

const token = (payload: unknown, signature = 'c2ln') => `vfat1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
const OLD_TOKEN = token({ sub: 'acc-1', exp: 1 });
const NEW_TOKEN = token({ sub: 'acc-1', exp: 2 });

const request = (headers: Record<string, string>): ApiRequest => ({
  url: '/youtubei/v1/log_event',
  options: { method: 'POST', headers, body: '{"context":{},"events":[]}' },
});

/** A deep-frozen request: any mutation throws. */
const frozen = (r: ApiRequest): ApiRequest => {
  Object.freeze(r.options.headers);
  Object.freeze(r.options);
  return Object.freeze(r);
};

describe('accessTokenSubject', () => {
  it('reads the sub of a vfat1 token, with or without Bearer', () => {
    expect(ACCESS_TOKEN_PREFIX).toBe('vfat1');
    expect(accessTokenSubject(OLD_TOKEN)).toBe('acc-1');
    expect(accessTokenSubject(`Bearer ${OLD_TOKEN}`)).toBe('acc-1');
    expect(accessTokenSubject(`bearer   ${OLD_TOKEN} `)).toBe('acc-1');
    expect(accessTokenSubject(token({ sub: 'é-ü' }))).toBe('é-ü');
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['another scheme', `Basic ${OLD_TOKEN}`],
    ['another format', 'ya29.a0AfH6SM'],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY2MtMSJ9.c2ln'],
    ['vfat2', OLD_TOKEN.replace('vfat1', 'vfat2')],
    ['two parts', OLD_TOKEN.split('.').slice(0, 2).join('.')],
    ['four parts', `${OLD_TOKEN}.x`],
    ['an empty signature', token({ sub: 'acc-1' }, '')],
    ['a payload that is not base64url', 'vfat1.e30+.sig'],
    ['a payload that is not JSON', `vfat1.${Buffer.from('sub').toString('base64url')}.sig`],
    ['no sub', token({ user: 'acc-1' })],
    ['an empty sub', token({ sub: '' })],
    ['a numeric sub', token({ sub: 1 })],
    ['a JSON array', token(['acc-1'])],
    ['JSON null', token(null)],
  ])('is undefined for %s', (_case, value) => {
    expect(accessTokenSubject(value)).toBeUndefined();
  });
});

describe('withCurrentCredentials', () => {
  it('returns a request without Authorization unchanged', () => {
    const anonymous = frozen(request({ 'Content-Type': 'application/json', [LOGGED_IN_HEADER]: 'false' }));
    expect(withCurrentCredentials(anonymous, { accessToken: NEW_TOKEN, accountId: 'acc-1' })).toBe(anonymous);
  });

  it('puts the current token of the same account on an old request', () => {
    const old = frozen(request({ 'Content-Type': 'application/json', Authorization: `Bearer ${OLD_TOKEN}`, [LOGGED_IN_HEADER]: 'true' }));
    const now = withCurrentCredentials(old, { accessToken: NEW_TOKEN, accountId: 'acc-1' });
    expect(now).toEqual({
      url: old.url,
      options: {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${NEW_TOKEN}`, 'X-Youtube-Bootstrap-Logged-In': 'true' },
        body: old.options.body,
      },
    });
    // The input is untouched (it is frozen: any write would have thrown).
    expect(old.options.headers.Authorization).toBe(`Bearer ${OLD_TOKEN}`);
  });

  it('does not double the Bearer of a current token given as a header value', () => {
    const old = request({ Authorization: `Bearer ${OLD_TOKEN}` });
    expect(withCurrentCredentials(old, { accessToken: `Bearer ${NEW_TOKEN}`, accountId: 'acc-1' }).options.headers.Authorization).toBe(`Bearer ${NEW_TOKEN}`);
  });

  it.each([
    ['signed out', {}],
    ['another account now', { accessToken: token({ sub: 'acc-2' }), accountId: 'acc-2' }],
    ['the same account without a token', { accountId: 'acc-1' }],
    ['a token without its account', { accessToken: NEW_TOKEN }],
  ])('drops Authorization and says logged out when %s', (_case, current) => {
    const old = frozen(request({ 'Content-Type': 'application/json', Authorization: `Bearer ${OLD_TOKEN}`, [LOGGED_IN_HEADER]: 'true' }));
    expect(withCurrentCredentials(old, current).options.headers).toEqual({
      'Content-Type': 'application/json',
      'X-Youtube-Bootstrap-Logged-In': 'false',
    });
    expect(old.options.headers.Authorization).toBe(`Bearer ${OLD_TOKEN}`);
  });

  it('drops a token it cannot read, even for a signed-in viewer', () => {
    const old = request({ Authorization: 'Bearer ya29.opaque' });
    expect(withCurrentCredentials(old, { accessToken: NEW_TOKEN, accountId: 'acc-1' }).options.headers).toEqual({
      'X-Youtube-Bootstrap-Logged-In': 'false',
    });
  });

  it('matches header names case-insensitively and leaves one of each', () => {
    const old = request({ authorization: `Bearer ${OLD_TOKEN}`, 'x-youtube-bootstrap-logged-in': 'true', 'X-Other': '1' });
    expect(withCurrentCredentials(old, { accessToken: NEW_TOKEN, accountId: 'acc-1' }).options.headers).toEqual({
      'X-Other': '1',
      Authorization: `Bearer ${NEW_TOKEN}`,
      'X-Youtube-Bootstrap-Logged-In': 'true',
    });
  });

  it('keeps the body and every other field as they are', () => {
    const old = request({ Authorization: `Bearer ${OLD_TOKEN}`, 'X-Goog-Visitor-Id': 'v' });
    const now = withCurrentCredentials(old, {});
    expect(now.url).toBe(old.url);
    expect(now.options.body).toBe(old.options.body);
    expect(now.options.headers['X-Goog-Visitor-Id']).toBe('v');
  });
});
