import { type Observable, type Subscription, tap } from 'rxjs';
import { AD_STATUS_SIGNAL_KEY } from '../../../streams/adStatus/adStatusCheck';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { experimentsTokenFor } from '../../../streams/identity/experimentsToken';
import { withCurrentCredentials } from '../../../streams/identity/withCurrentCredentials';
import type { ApiRequest } from '../../../streams/transport/buildApiRequest';
import type { ClientContext } from '../../../streams/transport/buildClientContext';
import { createClientContextCache } from '../../../streams/transport/createClientContextCache';
import { createApiTransport, type ApiTransport, type FetchLike } from '../../../streams/transport/createApiTransport';
import type { ApiResponse } from '../../../streams/transport/parseApiResponse';
import { createClientEnvironmentReader } from '../../../streams/transport/readClientEnvironment';
import type { Identity } from './identity';
import { createContextFacts, type ContextSources } from './contextFacts';
import { numberText } from '../../../streams/shared/numberText';

export type { ContextFacts, ContextSources } from './contextFacts';

export interface EmbedApi extends ApiTransport {
  /**
   * Follows the state streams of the services that own the context facts; every request built after a value arrived
   * carries it. One source per fact: a second one for a fact that has one throws.
   */
  followContext(sources: ContextSources): Subscription;
}

/** Removes the delegation from a request that no longer carries the credentials it was made with. */
function withoutDelegation(request: ApiRequest): ApiRequest {
  try {
    const body = JSON.parse(request.options.body) as { context?: ClientContext };
    const user = body.context?.user;
    if (!user || (user.delegatedSessionId === undefined && user.onBehalfOfUser === undefined)) return request;
    delete user.delegatedSessionId;
    delete user.onBehalfOfUser;
    return { ...request, options: { ...request.options, body: JSON.stringify(body) } };
  } catch {
    return request;
  }
}

/**
 * The page's one API client (spec §6/§7): every call — the player's `player` and `next`, logging, the retry queue's
 * resends — goes through it, so every request carries the same identity:
 * - the client context with configInfo, experimentsToken, visitorData, the delegated user, location info, consistency
 *   tokens and ad-signal info (the anonymous id while there is consent, the stored ad-status value);
 * - the bearer access token and the logged-in header for a signed-in viewer (none for an anonymous one), the visitor
 *   id header, the API key (in the query only where spec §7 says), the anti-forgery field in the body, the stream
 *   token on log requests;
 * - at send time, a request built earlier (a log request that waited in the retry queue) gets the current
 *   credentials of the same account, or none when the viewer signed out or another account signed in — then also
 *   without the delegation it was made with;
 * - every answer's `responseContext` (a new visitor id, a consistency token jar) is absorbed.
 *
 * The facts other services learn after start-up are their own state streams ({@link EmbedApi.followContext}); a
 * request reads their latest values when it is built.
 */
export function createEmbedApi(win: Window, config: PlayerConfig, identity: Identity): EmbedApi {
  const contextFacts = createContextFacts();
  const vars = config.args.playerVars;
  const experimentsToken = experimentsTokenFor(config.args.fflags || undefined);
  const readEnvironment = createClientEnvironmentReader(win as never);
  const contextFor = createClientContextCache();
  const transport = createApiTransport({
    fetch: ((url, init) => win.fetch(url, init as RequestInit)) as FetchLike,
    settings: () => {
      const credentials = identity.credentials();
      const facts = contextFacts.latest();
      // The same (sealed) context object while nothing it is made of changed, so its text is written once.
      const context = contextFor(
        readEnvironment({
          hl: vars.hl,
          theme: config.args.theme,
          visitorData: identity.visitorData(),
          experimentsToken,
          configInfo: facts.configInfo,
          locationInfo: facts.locationInfo,
          delegatedSessionId: identity.delegatedSessionId(),
          consistencyTokenJars: identity.consistencyTokenJars(),
        }),
        [
          ...(facts.anonymousId ? [{ key: 'bisc', value: facts.anonymousId }] : []),
          ...(facts.adStatus !== undefined ? [{ key: AD_STATUS_SIGNAL_KEY, value: numberText(facts.adStatus) }] : []),
        ],
      );
      return {
        context,
        authorization: credentials.accessToken,
        // Only as a header, and only for a signed-in viewer: an anonymous one sends neither it nor a bearer token.
        loggedIn: credentials.accessToken !== undefined ? true : undefined,
        apiKey: config.args.innertube_api_key,
        xsrfToken: config.args.xsrf_token,
        streamToken: config.args.stream_token,
      };
    },
    isOnline: () => win.navigator.onLine,
  });

  const refresh = (request: ApiRequest): ApiRequest => {
    if (!('Authorization' in request.options.headers)) return request;
    const refreshed = withCurrentCredentials(request, identity.credentials());
    return 'Authorization' in refreshed.options.headers ? refreshed : withoutDelegation(refreshed);
  };
  const absorb = (answer$: Observable<ApiResponse>) => answer$.pipe(tap((response) => identity.absorbResponse(response.body)));
  const send = (request: ApiRequest) => absorb(transport.send(refresh(request)));
  const sendKeepalive = (request: ApiRequest) => absorb(transport.sendKeepalive(refresh(request)));
  return {
    followContext: (sources) => contextFacts.follow(sources),
    buildRequest: transport.buildRequest,
    send,
    sendKeepalive,
    fetchApi: (endpoint, payload) => send(transport.buildRequest(endpoint, payload)),
    get compressionDisabled() {
      return transport.compressionDisabled;
    },
  };
}
