import { BehaviorSubject } from 'rxjs';
import { createEmbedApi } from '../../../../src/embed/services/api';
import type { ContextFacts } from '../../../../src/embed/services/contextFacts';
import type { Identity, Session, SignInStatus } from '../../../../src/embed/services/identity';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { configFor } from '../../../streams/player/fixtures';

/** An anonymous viewer whose consistency token jars the test sets. */
function viewer(jars: { encryptedTokenJarContents: string }[]): Identity {
  return {
    session$: new BehaviorSubject<Session | null>(null),
    status$: new BehaviorSubject<SignInStatus>({ state: 'idle' }),
    visitorData: () => 'v1.visitor',
    credentials: () => ({}),
    delegatedSessionId: () => undefined,
    // A fresh array of fresh jars for every request, as the page's consistency token store answers.
    consistencyTokenJars: () => jars.map((jar) => ({ ...jar })),
    absorbResponse: () => undefined,
    signIn: async () => undefined,
    signOut: async () => undefined,
    stop: () => undefined,
  };
}

const config: PlayerConfig = (() => {
  const base = configFor({ hl: 'en' });
  return { ...base, args: { ...base.args, xsrf_token: 'v1.k.xsrf.t.s', innertube_api_key: 'vidframe-key', stream_token: 'v1.k.stream.t.s' } };
})();

const logPayload = (n: number) => ({
  events: [{ eventTimeMs: 1, clientEventId: `p:${n}` }],
  requestTimeMs: 2,
  serializedClientEventId: { serializedEventId: 'p', clientCounter: n },
});

/** The body's text before its events: the context and what precedes the events. */
const contextPart = (body: string) => body.slice(0, body.indexOf('"events":'));

// That the page reuses one context object while nothing changed is proved on the cache itself
// (test/streams/transport/createClientContextCache.spec.ts); here, through the page's API client, that the reuse never
// serves a stale text.
describe('createEmbedApi: the context text follows the page, with the context reused', () => {
  const setVisibility = (state: 'visible' | 'hidden') => Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  afterEach(() => setVisibility('visible'));

  it('gives every log request the same context text while the page is unchanged, and the new one as soon as anything changes', () => {
    const jars: { encryptedTokenJarContents: string }[] = [];
    const api = createEmbedApi(window, config, viewer(jars));
    const configInfo$ = new BehaviorSubject<ContextFacts['configInfo']>(undefined);
    const adStatus$ = new BehaviorSubject<ContextFacts['adStatus']>(undefined);
    api.followContext({ configInfo$, adStatus$ });
    const contextOf = (n: number) => contextPart(api.buildRequest('log_event', logPayload(n)).options.body);
    const first = contextOf(1);
    expect(contextOf(2)).toBe(first);
    // A fact replaced by an equal value (the config hashes after every log_event answer) changes nothing.
    configInfo$.next({ hotHashData: 'HOT' });
    const withHashes = contextOf(3);
    expect(withHashes).toContain('"configInfo":{"hotHashData":"HOT"}');
    configInfo$.next({ hotHashData: 'HOT' });
    expect(contextOf(4)).toBe(withHashes);
    configInfo$.next({ hotHashData: 'HOT2' });
    expect(contextOf(5)).toContain('"configInfo":{"hotHashData":"HOT2"}');
    adStatus$.next(1);
    expect(contextOf(6)).toContain('{"key":"adst","value":"1"}');
    setVisibility('hidden');
    const hidden = contextOf(7);
    expect(hidden).toContain('{"key":"vis","value":"2"}');
    expect(hidden).not.toContain('{"key":"vis","value":"1"}');
    jars.push({ encryptedTokenJarContents: 'JAR' });
    expect(contextOf(8)).toContain('"consistencyTokenJars":[{"encryptedTokenJarContents":"JAR"}]');
    // Every request's whole body is still what JSON.stringify writes.
    const request = api.buildRequest('log_event', logPayload(9));
    expect(request.options.body).toBe(JSON.stringify(JSON.parse(request.options.body)));
    expect(request.options.headers['X-Youtube-Ad-Signals']).toContain('adst=1');
  });

  it('gives the other calls the same context as the log requests', () => {
    const api = createEmbedApi(window, config, viewer([]));
    const log = JSON.parse(api.buildRequest('log_event', logPayload(1)).options.body).context;
    const next = JSON.parse(api.buildRequest('next', { videoId: 'VFsunrise01' }).options.body);
    expect(next.context).toEqual(log);
    expect(next).toEqual({ context: log, videoId: 'VFsunrise01', session_token: 'v1.k.xsrf.t.s' });
  });
});
