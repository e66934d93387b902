import { forcedExperimentsToFlags } from '../../../streams/config/playerConfig';
import { experimentsTokenFor } from '../../../streams/identity/experimentsToken';

const decode = (token: string | undefined) => Buffer.from(token!, 'base64url').toString('utf8');

describe('experimentsTokenFor', () => {
  it('is the base64url of the flags sorted by name', () => {
    expect(experimentsTokenFor({ b: false, a: 1 })).toBe('YT0xJmI9ZmFsc2U');
    expect(decode(experimentsTokenFor({ b: false, a: 1 }))).toBe('a=1&b=false');
  });

  it('gives the same token for the same flags in any order and in any input shape', () => {
    const token = experimentsTokenFor({ a: '1', b: 'false' });
    expect(experimentsTokenFor({ b: 'false', a: '1' })).toBe(token);
    expect(experimentsTokenFor('b=false&a=1')).toBe(token);
    expect(experimentsTokenFor('a=1,b=false')).toBe(token);
    expect(experimentsTokenFor(forcedExperimentsToFlags('b=false;a=1'))).toBe(token);
  });

  it('reads bare names of the forced_experiments variable as true', () => {
    expect(decode(experimentsTokenFor('beta,alpha=2'))).toBe('alpha=2&beta=true');
  });

  it('differs when a value differs', () => {
    expect(experimentsTokenFor({ a: 1 })).not.toBe(experimentsTokenFor({ a: 2 }));
  });

  it('drops names that are not word characters and malformed parts', () => {
    expect(decode(experimentsTokenFor({ ok: 1, 'bad-name': 1, '': 2 }))).toBe('ok=1');
    expect(decode(experimentsTokenFor('ok=1&bad=a b&=3&x=1=2'))).toBe('ok=1');
  });

  it('URL-encodes record values, so & and = cannot forge another flag', () => {
    expect(decode(experimentsTokenFor({ a: 'x&b=1' }))).toBe('a=x%26b%3D1');
  });

  it('is undefined for no flags', () => {
    expect(experimentsTokenFor(undefined)).toBeUndefined();
    expect(experimentsTokenFor('')).toBeUndefined();
    expect(experimentsTokenFor({})).toBeUndefined();
    expect(experimentsTokenFor('-,=,&')).toBeUndefined();
    expect(experimentsTokenFor({ 'not ok': 1 })).toBeUndefined();
  });
});
