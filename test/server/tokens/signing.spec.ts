import { createHmac } from 'node:crypto';
import { readClaims, signatureMatches, signBody, signClaims } from '../../../server/tokens/signing';

const KEY = 'a-signing-key-of-at-least-32-characters';
const hmac = (body: string) => createHmac('sha256', KEY).update(body).digest('base64url');

describe('the shared token signature', () => {
  it('is HMAC-SHA256 of the body, base64url, whether the key is given as text or as its bytes', () => {
    expect(signBody(KEY, 'v1.k.id.1')).toBe(hmac('v1.k.id.1'));
    expect(signBody(Buffer.from(KEY, 'utf8'), 'v1.k.id.1')).toBe(hmac('v1.k.id.1'));
    expect(signBody(KEY, 'v1.k.id.1')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('matches only the exact spelling of the signature', () => {
    const signature = hmac('body');
    expect(signatureMatches(KEY, 'body', signature)).toBe(true);
    expect(signatureMatches(KEY, 'other body', signature)).toBe(false);
    expect(signatureMatches(`${KEY}-other`, 'body', signature)).toBe(false);
    expect(signatureMatches(KEY, 'body', signature.slice(0, -1))).toBe(false);
    // The last base64url character carries 2 spare bits: another spelling decodes to the same bytes and is refused.
    const last = signature.at(-1)!;
    const sibling = 'AEIMQUYcgkosw048'.includes(last) ? String.fromCharCode(last.charCodeAt(0) + 1) : last;
    if (sibling !== last) {
      expect(Buffer.from(signature.slice(0, -1) + sibling, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(signatureMatches(KEY, 'body', signature.slice(0, -1) + sibling)).toBe(false);
    }
  });
});

describe('tokens with readable claims', () => {
  it('are {prefix}.{base64url JSON}.{signature of the first two parts}', () => {
    const token = signClaims(KEY, 'vfxx1', { a: 1, b: 'two' });
    const [prefix, payload, signature] = token.split('.');
    expect(prefix).toBe('vfxx1');
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toEqual({ a: 1, b: 'two' });
    expect(signature).toBe(hmac(`vfxx1.${payload}`));
    expect(readClaims(KEY, 'vfxx1', token, 1024)).toEqual({ ok: true, claims: { a: 1, b: 'two' } });
  });

  it('say which check failed: shape and length (malformed), signature, JSON inside (malformed)', () => {
    const token = signClaims(KEY, 'vfxx1', { a: 1 });
    expect(readClaims(KEY, 'vfxx1', 42, 1024)).toEqual({ ok: false, problem: 'malformed' });
    expect(readClaims(KEY, 'vfxx1', token, token.length - 1)).toEqual({ ok: false, problem: 'malformed' });
    expect(readClaims(KEY, 'vfyy1', token, 1024)).toEqual({ ok: false, problem: 'malformed' });
    expect(readClaims(`${KEY}-other`, 'vfxx1', token, 1024)).toEqual({ ok: false, problem: 'signature' });
    const notJson = `vfxx1.${Buffer.from('{not json', 'utf8').toString('base64url')}`;
    expect(readClaims(KEY, 'vfxx1', `${notJson}.${hmac(notJson)}`, 1024)).toEqual({ ok: false, problem: 'malformed' });
  });
});
