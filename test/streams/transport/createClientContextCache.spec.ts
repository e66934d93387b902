import { buildApiRequest } from '../../../streams/transport/buildApiRequest';
import { buildClientContext, type ClientContext, type ClientEnvironment } from '../../../streams/transport/buildClientContext';
import { type AdSignal, createClientContextCache } from '../../../streams/transport/createClientContextCache';
import { clientContextAdSignals, clientContextText, isSealedClientContext, sealClientContext } from '../../../streams/transport/sealClientContext';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A class instance, as the browser's `NavigatorUAData` is (its members are getters on the prototype). */
class UaData {
  get mobile() {
    return false;
  }
  get platform() {
    return 'Linux';
  }
}
const uaData = new UaData();

/** A fresh environment each call, equal by value, as the page's reader makes one for every request. */
function environment(overrides: Partial<ClientEnvironment> = {}, page: NonNullable<ClientEnvironment['page']> = {}): ClientEnvironment {
  return {
    navigator: { userAgent: CHROME, language: 'en-GB', userAgentData: uaData, connection: { effectiveType: '4g' } },
    screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1050, colorDepth: 24 },
    innerWidth: 640,
    innerHeight: 360,
    devicePixelRatio: 1,
    matchMedia: browserMode,
    timeZone: 'Europe/London',
    utcOffsetMinutes: 0,
    historyLength: 2,
    framed: true,
    visible: true,
    pageLoadTimeMs: 1_763_950_000_000,
    page: {
      hl: 'en',
      visitorData: 'CgtWSVNJVE9S',
      configInfo: { hotHashData: 'HOT', coldHashData: 'COLD' },
      consistencyTokenJars: [],
      ...page,
    },
    ...overrides,
  };
}
let displayMode = 'browser';
const browserMode = (query: string) => ({ matches: query === `(display-mode: ${displayMode})` });

const signals = (): AdSignal[] => [{ key: 'adst', value: '1' }];

/** The context the page built before the cache: a fresh build with the page signals appended. */
function freshContext(env: ClientEnvironment, pageSignals: AdSignal[]): ClientContext {
  const context = buildClientContext(env);
  if (pageSignals.length > 0) context.adSignalsInfo = { params: [...(context.adSignalsInfo?.params ?? []), ...pageSignals] };
  return context;
}

const payload = (n: number) => ({
  events: [{ eventTimeMs: 1_763_950_000_123, clientEventId: `page:${n}`, playerStateChange: { videoId: 'VFsunrise01', state: 1 } }],
  requestTimeMs: 1_763_950_000_200,
  serializedClientEventId: { serializedEventId: 'page', clientCounter: n },
});
const settings = { apiKey: 'KEY', xsrfToken: 'XSRF', streamToken: 'STREAM' };
const logRequest = (context: ClientContext, n = 1) => buildApiRequest('log_event', payload(n), { context, ...settings });

beforeEach(() => {
  displayMode = 'browser';
});

describe('createClientContextCache (issue 15: the page reuses its context while nothing it is made of changed)', () => {
  it('gives the same object for equal inputs, and the bodies are byte-identical to the ones a fresh context gives', () => {
    const contextFor = createClientContextCache();
    const first = contextFor(environment(), signals());
    const second = contextFor(environment(), signals());
    expect(second).toBe(first);
    expect(first).toEqual(freshContext(environment(), signals()));
    for (const n of [1, 2]) {
      const fresh = logRequest(freshContext(environment(), signals()), n);
      expect(logRequest(second, n)).toEqual(fresh);
      expect(logRequest(second, n).options.body).toBe(
        JSON.stringify({ context: freshContext(environment(), signals()), ...payload(n), session_token: 'XSRF' }),
      );
    }
    expect(logRequest(first).options.body).toBe(logRequest(second).options.body);
  });

  it('builds a new context, and a new text, when any input changes', () => {
    const contextFor = createClientContextCache();
    const base = contextFor(environment(), signals());
    const otherNavigator = { userAgent: CHROME, language: 'en-GB', userAgentData: uaData, connection: { effectiveType: '3g' } };
    const changes: [string, () => [ClientEnvironment, AdSignal[]], string][] = [
      ['the frame size', () => [environment({ innerWidth: 800 }), signals()], '"key":"biw","value":"800"'],
      ['the visibility', () => [environment({ visible: false }), signals()], '"key":"vis","value":"2"'],
      ['the connection', () => [environment({ navigator: otherNavigator }), signals()], '"effectiveConnectionType":"EFFECTIVE_CONNECTION_TYPE_3G"'],
      ['a stored config hash', () => [environment({}, { configInfo: { hotHashData: 'HOT2', coldHashData: 'COLD' } }), signals()], '"hotHashData":"HOT2"'],
      [
        'a consistency token jar',
        () => [environment({}, { consistencyTokenJars: [{ encryptedTokenJarContents: 'JAR' }] }), signals()],
        '"consistencyTokenJars":[{"encryptedTokenJarContents":"JAR"}]',
      ],
      ['a page signal', () => [environment(), [...signals(), { key: 'bisc', value: 'ANON' }]], '"key":"bisc","value":"ANON"'],
      ['no page signal', () => [environment(), []], '"key":"vis","value":"1"}]}'],
    ];
    for (const [what, inputs, expected] of changes) {
      const context = contextFor(...inputs());
      expect({ what, reused: context === base }).toEqual({ what, reused: false });
      expect(contextFor(...inputs())).toBe(context); // and reused while it stays so
      const body = logRequest(context).options.body;
      expect(body).toContain(expected);
      expect(body).toBe(logRequest(freshContext(...inputs())).options.body);
      // Back to the base inputs: a new object again, with the base's text.
      const back = contextFor(environment(), signals());
      expect(back).not.toBe(context);
      expect(logRequest(back).options.body).toBe(logRequest(base).options.body);
    }
  });

  it('sees a change of the display mode, which the same matchMedia answers differently (a frame going fullscreen)', () => {
    const contextFor = createClientContextCache();
    const env = environment();
    const browser = contextFor(env, signals());
    displayMode = 'fullscreen';
    const fullscreen = contextFor(env, signals());
    expect(fullscreen).not.toBe(browser);
    expect(fullscreen.client.mainAppWebInfo.webDisplayMode).toBe('WEB_DISPLAY_MODE_FULLSCREEN');
    expect(contextFor(env, signals())).toBe(fullscreen);
  });

  it('is not served stale when an input object is changed in place: the inputs are recorded by value', () => {
    const contextFor = createClientContextCache();
    const configInfo = { hotHashData: 'HOT', coldHashData: 'COLD' };
    const jars: { encryptedTokenJarContents: string }[] = [];
    const pageSignals = signals();
    // The very same objects passed again each time, changed in place in between.
    const env = environment({}, { configInfo, consistencyTokenJars: jars });
    const first = contextFor(env, pageSignals);
    expect(contextFor(env, pageSignals)).toBe(first);
    configInfo.hotHashData = 'HOT-MUTATED';
    const afterConfig = contextFor(env, pageSignals);
    expect(afterConfig).not.toBe(first);
    expect(logRequest(afterConfig).options.body).toContain('"hotHashData":"HOT-MUTATED"');
    jars.push({ encryptedTokenJarContents: 'PUSHED' });
    const afterJar = contextFor(env, pageSignals);
    expect(logRequest(afterJar).options.body).toContain('"encryptedTokenJarContents":"PUSHED"');
    pageSignals[0].value = '3';
    const afterSignal = contextFor(env, pageSignals);
    expect(logRequest(afterSignal).options.body).toContain('"key":"adst","value":"3"');
    expect(logRequest(afterSignal).options.headers['X-Youtube-Ad-Signals']).toContain('adst=3');
    (env.screen as { width: number }).width = 1280;
    expect(logRequest(contextFor(env, pageSignals)).options.body).toContain('"screenWidthPoints":1280');
    // And the context handed out earlier kept what it was built from (it is a copy, not the caller's objects).
    expect(first.client.configInfo).toEqual({ hotHashData: 'HOT', coldHashData: 'COLD' });
  });

  it('compares a class instance (the browser’s NavigatorUAData) by identity, and NaN as equal to itself', () => {
    const contextFor = createClientContextCache();
    const first = contextFor(environment({ devicePixelRatio: Number.NaN }), signals());
    expect(contextFor(environment({ devicePixelRatio: Number.NaN }), signals())).toBe(first);
    const other = contextFor(
      environment({
        navigator: { userAgent: CHROME, language: 'en-GB', userAgentData: new UaData(), connection: { effectiveType: '4g' } },
        devicePixelRatio: Number.NaN,
      }),
      signals(),
    );
    expect(other).not.toBe(first);
    expect(other).toEqual(first);
  });

  it('hands out contexts nobody can change: deeply frozen, so a cached text can never go stale', () => {
    const context = createClientContextCache()(environment({}, { consistencyTokenJars: [{ encryptedTokenJarContents: 'JAR' }] }), signals());
    expect(isSealedClientContext(context)).toBe(true);
    const text = clientContextText(context);
    expect(() => {
      (context.client as { hl: string }).hl = 'fr';
    }).toThrow(TypeError);
    expect(() => context.request.consistencyTokenJars.push({ encryptedTokenJarContents: 'MORE' })).toThrow(TypeError);
    expect(() => {
      (context.request.consistencyTokenJars[0] as { encryptedTokenJarContents: string }).encryptedTokenJarContents = 'X';
    }).toThrow(TypeError);
    expect(() => context.adSignalsInfo!.params.pop()).toThrow(TypeError);
    expect(() => {
      delete (context.client as { configInfo?: unknown }).configInfo;
    }).toThrow(TypeError);
    expect(clientContextText(context)).toBe(text);
    expect(text).toBe(JSON.stringify(context));
  });
});

describe('sealClientContext and the texts derived from it', () => {
  it('copies plain data member by member (same order, same text) and derives the text and ad-signal header once', () => {
    const context = freshContext(environment(), signals());
    const sealed = sealClientContext(context);
    expect(sealed).not.toBe(context);
    expect(sealClientContext(sealed)).toBe(sealed);
    expect(JSON.stringify(sealed)).toBe(JSON.stringify(context));
    expect(clientContextText(sealed)).toBe(JSON.stringify(context));
    expect(clientContextText(sealed)).toBe(clientContextText(sealed));
    const params = context.adSignalsInfo!.params;
    expect(clientContextAdSignals(sealed)).toBe(new URLSearchParams(params.map(({ key, value }) => [key, value])).toString());
    // The caller's objects are not frozen: the copy is.
    expect(Object.isFrozen(context.client)).toBe(false);
  });

  it('leaves a context holding anything but plain data unsealed, and writes it afresh for every request', () => {
    class Location {
      constructor(public latitudeE7: number) {}
    }
    const location = new Location(515_000_000);
    const context = freshContext(environment({}, { locationInfo: location as unknown as Record<string, unknown> }), []);
    const sealed = sealClientContext(context);
    expect(sealed).toBe(context);
    expect(isSealedClientContext(sealed)).toBe(false);
    const before = logRequest(sealed).options.body;
    expect(before).toContain('"latitudeE7":515000000');
    location.latitudeE7 = 480_000_000;
    expect(logRequest(sealed).options.body).toContain('"latitudeE7":480000000');
    const withToJson = freshContext(environment({}, { locationInfo: { toJSON: () => 'custom' } }), []);
    expect(isSealedClientContext(sealClientContext(withToJson))).toBe(false);
    const withGetter = freshContext(environment(), []);
    Object.defineProperty(withGetter.user, 'onBehalfOfUser', { get: () => 'OBO', enumerable: true });
    expect(isSealedClientContext(sealClientContext(withGetter))).toBe(false);
    // Parsed JSON may carry an own `__proto__` member, which a copy by assignment would lose; an array with its own
    // `toJSON` writes other text than its items: neither is sealed, and the body still says what JSON.stringify says.
    const withProto = freshContext(environment({}, { locationInfo: JSON.parse('{"__proto__":{"x":1},"latitudeE7":1}') }), []);
    expect(isSealedClientContext(sealClientContext(withProto))).toBe(false);
    expect(clientContextText(sealClientContext(withProto))).toBe(JSON.stringify(withProto));
    const params = Object.assign([{ key: 'k', value: 'v' }], { toJSON: () => 'custom' });
    const withArrayToJson = freshContext(environment({}, { locationInfo: { params } as unknown as Record<string, unknown> }), []);
    expect(isSealedClientContext(sealClientContext(withArrayToJson))).toBe(false);
  });

  it('writes an unsealed context afresh, so a context changed in place between two requests gives the new text', () => {
    const context = freshContext(environment(), signals());
    const first = logRequest(context).options;
    context.client.hl = 'fr';
    context.adSignalsInfo!.params.push({ key: 'bisc', value: 'ANON' });
    const second = logRequest(context).options;
    expect(second.body).toContain('"hl":"fr"');
    expect(second.body).not.toBe(first.body);
    expect(second.headers['X-Youtube-Ad-Signals']).toContain('bisc=ANON');
  });
});

describe('buildApiRequest: what it keeps between requests', () => {
  it('writes the key query of the key given, whichever came before', () => {
    const context = buildClientContext({});
    const urlWith = (apiKey: string) => buildApiRequest('log_event', { events: [] }, { context, apiKey }).url;
    expect(urlWith('A&B')).toBe('/youtubei/v1/log_event?key=A%26B');
    expect(urlWith('second')).toBe('/youtubei/v1/log_event?key=second');
    expect(urlWith('A&B')).toBe('/youtubei/v1/log_event?key=A%26B');
  });
});

describe('buildApiRequest: bodies written natively where the context text cannot simply go first', () => {
  it('a context with toJSON, an integer payload key, an anti-forgery field named context: as JSON.stringify writes the whole body', () => {
    const context = Object.assign(buildClientContext({}), { toJSON: (key: string) => (key === 'context' ? { replaced: true } : undefined) });
    expect(buildApiRequest('log_event', { events: [] }, { context }).options.body).toBe('{"context":{"replaced":true},"events":[]}');
    const plain = sealClientContext(buildClientContext({}));
    expect(buildApiRequest('next', { 7: 'seven', videoId: 'v' }, { context: plain }).options.body).toBe(
      JSON.stringify({ context: plain, 7: 'seven', videoId: 'v' }),
    );
    expect(buildApiRequest('next', { videoId: 'v' }, { context: plain, xsrfToken: 'T', xsrfFieldName: 'context' }).options.body).toBe(
      '{"context":"T","videoId":"v"}',
    );
    expect(buildApiRequest('next', { videoId: 'v' }, { context: plain, xsrfToken: 'T', xsrfFieldName: '3' }).options.body).toBe(
      JSON.stringify({ 3: 'T', context: plain, videoId: 'v' }),
    );
  });
});

describe('log bodies written without JSON.stringify (stringifyLogRequest)', () => {
  const context = sealClientContext(buildClientContext({ page: { visitorData: 'VIS' }, timeZone: 'Europe/Paris' }));
  const events = [{ eventTimeMs: 1_763_950_000_123, clientEventId: 'p:1', seek: { videoId: 'VFsunrise01', fromSec: 1.5, toSec: 2 } }];
  const cases: [string, Record<string, unknown>][] = [
    ['the usual body', { events, requestTimeMs: 1_763_950_000_200, serializedClientEventId: { serializedEventId: 'p', clientCounter: 65_535 } }],
    ['members before and after the events', { requestTimeMs: -1_763_950_000_200.5, events, tail: 'x' }],
    ['strings to escape, unicode, a lone surrogate', { events, a: 'quote " backslash \\ newline \n', b: 'é ✓ 😀', c: '\ud800', 'key "quoted"': true }],
    ['numbers JSON writes its own way', { events, n0: Number.NaN, n1: Infinity, n2: -0, n3: 1e21, n4: 5e-7, n5: 2 ** 53, n6: 123_456_789_012_345 }],
    ['flat values of every kind', { events, t: true, f: false, z: null, big: 9_007_199_254_740_991, small: -1e9, d: 0.1 + 0.2 }],
    ['an empty object, an object of flat members', { events, empty: {}, id: { serializedEventId: 'p\u0001', clientCounter: 0, extra: null } }],
    ['an undefined member (left out)', { events, gone: undefined, kept: 1 }],
    ['an undefined member in a nested object', { events, id: { a: undefined, b: 1 } }],
    ['a nested object two deep', { events, deep: { a: { b: 1 } } }],
    ['an array member', { events, list: [1, 'two', { three: 3 }] }],
    ['a nested toJSON', { events, when: { toJSON: () => 'custom' } }],
    ['a Date', { events, at: new Date(1_763_950_000_000) }],
    ['a nested object with an integer key', { events, id: { b: 1, 2: 'two' } }],
    ['events that are not log events', { events: [{ free: 'form' }, 3], requestTimeMs: 1 }],
  ];
  it.each(cases)('%s: the same text as JSON.stringify', (_label, payload) => {
    const body = buildApiRequest('log_event', payload, { context, xsrfToken: 'T' }).options.body;
    expect(body).toBe(JSON.stringify({ context, ...payload, session_token: 'T' }));
  });
});
