import { buildApiRequest } from '../../../streams/transport/buildApiRequest';
import { buildClientContext } from '../../../streams/transport/buildClientContext';
import { createApiTransport } from '../../../streams/transport/createApiTransport';
import {
  type CredentialTransferToken,
  credentialTransferTokensProblem,
  isCredentialTransferTokens,
  withoutCredentialTransferTokens,
} from '../../../streams/transport/credentialTransferTokens';
import { CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS, CREDENTIAL_TRANSFER_TOKENS_MAX } from '../../../streams/timing';

const context = buildClientContext({ page: { hl: 'en', visitorData: 'VISITOR' } });
const tokens: CredentialTransferToken[] = [{ token: 'ctt-secret-1', scope: 'youtube' }, { token: 'ctt-secret-2' }];
const logPayload = { events: [{ clientEventId: 'p:1' }], requestTimeMs: 5, serializedClientEventId: { serializedEventId: 'p', clientCounter: 1 } };

describe('credentialTransferTokensProblem (the shape of spec §7 credentialTransferTokens)', () => {
  it('accepts an array of at most 10 objects of strings', () => {
    expect(CREDENTIAL_TRANSFER_TOKENS_MAX).toBe(10);
    expect(credentialTransferTokensProblem(tokens)).toBeUndefined();
    expect(credentialTransferTokensProblem([])).toBeUndefined();
    expect(credentialTransferTokensProblem(Array.from({ length: 10 }, (_, i) => ({ token: `t${i}` })))).toBeUndefined();
    expect(isCredentialTransferTokens(tokens)).toBe(true);
  });

  it.each<[unknown, string]>([
    ['tok', '"credentialTransferTokens" must be an array of objects of strings'],
    [{ token: 't' }, '"credentialTransferTokens" must be an array of objects of strings'],
    [null, '"credentialTransferTokens" must be an array of objects of strings'],
    [Array.from({ length: 11 }, () => ({ token: 't' })), '"credentialTransferTokens" carries at most 10 tokens, not 11'],
    [['t'], '"credentialTransferTokens"[0] must be an object of strings'],
    [[{ token: 't' }, null], '"credentialTransferTokens"[1] must be an object of strings'],
    [[[]], '"credentialTransferTokens"[0] must be an object of strings'],
    [[{}], '"credentialTransferTokens"[0] must not be empty'],
    [[{ token: 't', expires: 5 }], '"credentialTransferTokens"[0].expires must be a string'],
    [[{ token: { nested: 't' } }], '"credentialTransferTokens"[0].token must be a string'],
    [[{ token: 'x'.repeat(CREDENTIAL_TRANSFER_TOKEN_MAX_CHARS) }], '"credentialTransferTokens"[0] is longer than 4096 characters'],
  ])('refuses %p, naming the field', (value, problem) => {
    expect(credentialTransferTokensProblem(value)).toBe(problem);
    expect(isCredentialTransferTokens(value)).toBe(false);
  });
});

describe('log requests carry the credential transfer tokens of the transport settings', () => {
  const bodyOf = (endpoint: string, credentialTransferTokens?: unknown) =>
    JSON.parse(
      buildApiRequest(endpoint, endpoint === 'feedback' ? {} : logPayload, {
        context,
        xsrfToken: 'X',
        credentialTransferTokens: credentialTransferTokens as never,
      }).options.body,
    );

  it('log_event and video_stats bodies carry them after the spec fields', () => {
    expect(bodyOf('log_event', tokens)).toEqual({ context, ...logPayload, credentialTransferTokens: tokens, session_token: 'X' });
    expect(bodyOf('video_stats', tokens).credentialTransferTokens).toEqual(tokens);
  });

  it('other calls never carry them', () => {
    expect(bodyOf('feedback', tokens)).toEqual({ context, session_token: 'X' });
  });

  it('none, empty or malformed: left out (a bad source never gets the log requests refused)', () => {
    for (const value of [undefined, [], 'tok', [{ token: 1 }], Array.from({ length: 11 }, () => ({ token: 't' }))]) {
      expect(bodyOf('log_event', value)).toEqual({ context, ...logPayload, session_token: 'X' });
    }
  });

  it('are read from the settings at each build, as the transport builds log requests', () => {
    let current: { token: string }[] | undefined;
    const transport = createApiTransport({
      fetch: async () => Promise.reject(new Error('unused')),
      settings: () => ({ context, credentialTransferTokens: current }),
    });
    expect(JSON.parse(transport.buildRequest('log_event', logPayload).options.body)).not.toHaveProperty('credentialTransferTokens');
    current = [{ token: 'fresh' }];
    expect(JSON.parse(transport.buildRequest('log_event', logPayload).options.body).credentialTransferTokens).toEqual([{ token: 'fresh' }]);
  });
});

describe('withoutCredentialTransferTokens (what the retry queue keeps)', () => {
  it('drops the tokens from a log request body and keeps everything else, in order', () => {
    const request = buildApiRequest('log_event', logPayload, { context, xsrfToken: 'X', credentialTransferTokens: tokens });
    const stored = withoutCredentialTransferTokens(request);
    expect(stored.url).toBe(request.url);
    expect(stored.options.headers).toEqual(request.options.headers);
    expect(stored.options.body).toBe(JSON.stringify({ context, ...logPayload, session_token: 'X' }));
    expect(stored.options.body).not.toContain('ctt-secret');
    expect(JSON.parse(request.options.body).credentialTransferTokens).toEqual(tokens); // the original is not changed
  });

  it('returns a request without tokens, or with a body that is not JSON, as it is', () => {
    const plain = buildApiRequest('log_event', logPayload, { context });
    expect(withoutCredentialTransferTokens(plain)).toBe(plain);
    const odd = { url: '/x', options: { method: 'POST' as const, headers: {}, body: '{"credentialTransferTokens": [' } };
    expect(withoutCredentialTransferTokens(odd)).toBe(odd);
    const array = { url: '/x', options: { method: 'POST' as const, headers: {}, body: '["credentialTransferTokens"]' } };
    expect(withoutCredentialTransferTokens(array)).toBe(array);
  });
});
