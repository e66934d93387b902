import {
  ApiFetchError,
  badStatus,
  ExtensionBlockingError,
  JsonParseError,
  RequestError,
  requestTimedOut,
  unknownRequestError,
} from '../../../streams/transport/apiErrors';
import { isSuccessStatus, parseApiResponse, stripAntiHijackPrefix } from '../../../streams/transport/parseApiResponse';

const JSON_TYPE = 'application/json; charset=UTF-8';

describe('error catalogue (spec §8 messages)', () => {
  it('has the exact messages and codes', () => {
    expect(requestTimedOut()).toMatchObject({ code: 'net.timeout', message: 'Request timed out' });
    expect(unknownRequestError()).toMatchObject({ code: 'net.unknown', message: 'Unknown request error' });
    expect(badStatus(503)).toMatchObject({ code: 'net.badstatus', message: 'Request failed, status=503', status: 503 });
    const blocked = new ExtensionBlockingError();
    expect(blocked).toMatchObject({ code: 'net.unknown', message: 'An extension is blocking network request.' });
    expect(blocked).toBeInstanceOf(RequestError);
    expect(String(new ApiFetchError(500, 'x'))).toBe('Error: API fetch failed');
    expect(new JsonParseError(200, '{').message).toBe('JSON parsing failed after fetch');
  });
});

describe('parseApiResponse (spec §5/§7/§8 response rules)', () => {
  it.each([200, 201, 202, 203, 204, 205, 206, 304])('%d is a success', (status) => {
    expect(isSuccessStatus(status)).toBe(true);
    expect(parseApiResponse(status, JSON_TYPE, '').status).toBe(status);
  });

  it.each([199, 207, 300, 301, 302, 303, 305, 400, 401, 403, 404, 413, 415, 429, 500, 502, 503])('%d is an error', (status) => {
    expect(isSuccessStatus(status)).toBe(false);
    expect(() => parseApiResponse(status, JSON_TYPE, '{}')).toThrow(ApiFetchError);
  });

  it('parses JSON only when the content type contains "json"', () => {
    expect(parseApiResponse(200, JSON_TYPE, '{"a":1}').body).toEqual({ a: 1 });
    expect(parseApiResponse(200, 'application/vnd.api+json', '{"a":1}').body).toEqual({ a: 1 });
    expect(parseApiResponse(200, 'text/plain', '{"a":1}')).toEqual({ status: 200, body: undefined, text: '{"a":1}' });
    expect(parseApiResponse(200, null, '{"a":1}').body).toBeUndefined();
  });

  it("strips the )]}' prefix first", () => {
    expect(parseApiResponse(200, JSON_TYPE, ')]}\'\n{"a":2}').body).toEqual({ a: 2 });
    expect(stripAntiHijackPrefix(")]}'{}")).toBe('{}');
    expect(stripAntiHijackPrefix('{}')).toBe('{}');
  });

  it('an empty JSON success has no body', () => {
    expect(parseApiResponse(204, JSON_TYPE, '').body).toBeUndefined();
    expect(parseApiResponse(304, JSON_TYPE, '')).toEqual({ status: 304, body: undefined, text: '' });
  });

  it('a success with broken JSON throws "JSON parsing failed after fetch" with the text', () => {
    let error: unknown;
    try {
      parseApiResponse(200, JSON_TYPE, '{"a":');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonParseError);
    expect(error).toMatchObject({ message: 'JSON parsing failed after fetch', status: 200, bodyText: '{"a":' });
  });

  it('4xx/5xx: "API fetch failed" with the parsed body and the status attached, net.badstatus as cause', () => {
    let error: ApiFetchError | undefined;
    try {
      parseApiResponse(500, JSON_TYPE, ')]}\'{"error":{"code":500}}');
    } catch (e) {
      error = e as ApiFetchError;
    }
    expect(error).toBeInstanceOf(ApiFetchError);
    expect(error).toMatchObject({ message: 'API fetch failed', status: 500, body: { error: { code: 500 } }, compressionFailed: false });
    expect(error!.cause).toMatchObject({ code: 'net.badstatus', message: 'Request failed, status=500' });
  });

  it('4xx with a non-JSON or broken body keeps the text as body', () => {
    expect(() => parseApiResponse(404, 'text/html', '<h1>no</h1>')).toThrow(expect.objectContaining({ body: '<h1>no</h1>', status: 404 }));
    expect(() => parseApiResponse(502, JSON_TYPE, '{oops')).toThrow(expect.objectContaining({ body: '{oops', status: 502 }));
  });

  it('400 and 415 on a compressed log request mean compression failed — and only then', () => {
    const flag = (status: number, ctx: { isLogRequest?: boolean; compressed?: boolean }) => {
      try {
        parseApiResponse(status, JSON_TYPE, '{}', ctx);
      } catch (e) {
        return (e as ApiFetchError).compressionFailed;
      }
      return 'no error';
    };
    expect(flag(400, { isLogRequest: true, compressed: true })).toBe(true);
    expect(flag(415, { isLogRequest: true, compressed: true })).toBe(true);
    expect(flag(500, { isLogRequest: true, compressed: true })).toBe(false);
    expect(flag(415, { isLogRequest: true, compressed: false })).toBe(false);
    expect(flag(415, { isLogRequest: false, compressed: true })).toBe(false);
  });

  it('429 and 503 with a readable Retry-After attach retryAfterMs next to the status (issue 12) — and only then', () => {
    const NOW = Date.UTC(2024, 0, 1);
    const retryAfterOf = (status: number, retryAfter: string | null) => {
      try {
        parseApiResponse(status, JSON_TYPE, '{}', { isLogRequest: true, retryAfter, nowMs: NOW });
      } catch (e) {
        return (e as ApiFetchError).retryAfterMs;
      }
      return 'no error';
    };
    expect(retryAfterOf(429, '30')).toBe(30_000);
    expect(retryAfterOf(503, '7')).toBe(7_000);
    expect(retryAfterOf(429, 'Mon, 01 Jan 2024 00:01:00 GMT')).toBe(60_000);
    expect(retryAfterOf(429, 'soon')).toBeUndefined();
    expect(retryAfterOf(429, null)).toBeUndefined();
    expect(retryAfterOf(500, '30')).toBeUndefined();
    expect(retryAfterOf(301, '30')).toBeUndefined();
    expect(() => parseApiResponse(429, JSON_TYPE, '{}', { retryAfter: '30' })).toThrow(expect.objectContaining({ status: 429, retryAfterMs: 30_000 }));
  });
});
