import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmbedMode } from '../../streams/config/playerConfig';
import type { AdsHostSettings } from '../ads/adsHostSettings';
import { adsOriginFor } from '../ads/adsOriginFor';
import { AD_STATUS_SCRIPT_PATH } from '../ads/createAdsHost';
import type { Attestation } from '../attestation/registerAttestation';
import type { CurrentCatalog } from '../media/catalogSource';
import { playerResponseFor } from '../media/playerResponse';
import { allowOriginInCsp, embedHelmet } from '../security/securityHeaders';
import type { IdentityTokens } from '../tokens/identityTokens';
import type { StreamTokens } from '../tokens/streamTokens';
import { replyNotBuilt, type PageSource } from './builtPages';
import { readEmbedTemplate, renderEmbedPage, type EmbedTemplate } from './embedPage';

export interface EmbedRouteOptions {
  pages: PageSource;
  catalog: CurrentCatalog;
  /** Host origins (exact `scheme://host:port`) given the privileged host methods. */
  trustedOrigins: readonly string[];
  streamTokens: StreamTokens;
  identityTokens: IdentityTokens;
  /** The API key of spec §7, handed to the embed. */
  apiKey: string;
  /** The ads host (the anonymous id's second origin) and the privacy-enhanced host names. */
  ads?: Pick<AdsHostSettings, 'port' | 'origin' | 'privateEmbedHosts'>;
  /** Host names that serve the education embed: no anonymous id there (spec §5). */
  educationEmbedHosts: readonly string[];
  /** The attestation program URL each page's configuration names. */
  attestation: Pick<Attestation, 'programUrlFor'>;
}

/**
 * `GET /embed/{videoId}` (and `/embed/` without an id, which still gets the page, and the page reports the invalid
 * parameter to the host): the embed page with its player configuration inlined as a script carrying the reply's CSP
 * nonce, a fresh stream token, visitor id and anti-forgery token, and the embed mode of the host name it is served
 * under. Framed by any site (its CSP says `frame-ancestors *`); it carries per-request configuration, so it is not
 * cached.
 */
export function registerEmbedRoutes(app: FastifyInstance, options: EmbedRouteOptions): void {
  const { pages, catalog, trustedOrigins, streamTokens, identityTokens, apiKey, ads, educationEmbedHosts, attestation } = options;
  const templateFor = embedTemplateSource(pages);

  /** Spec §5: the privacy-enhanced and education embeds are told so, and never fetch the anonymous id. */
  const embedModeOf = (request: FastifyRequest): EmbedMode => {
    const name = request.hostname.toLowerCase(); // without the port
    if (ads?.privateEmbedHosts.some((h) => h.toLowerCase() === name)) return 'private';
    if (educationEmbedHosts.some((h) => h.toLowerCase() === name)) return 'education';
    return 'standard';
  };

  const sendEmbed = async (videoId: string, query: Record<string, unknown>, request: FastifyRequest, reply: FastifyReply) => {
    const template = await templateFor(reply);
    if (!template) return replyNotBuilt(reply);
    const adsOrigin = ads ? adsOriginFor(request.headers.host ?? '', request.protocol, ads) : undefined;
    if (adsOrigin) {
      // The anonymous id and the ad-status script come from the ads host, another origin (spec §7): this page, and
      // only it, may connect there and run that one origin's scripts.
      allowOriginInCsp(reply, 'connect-src', adsOrigin);
      allowOriginInCsp(reply, 'script-src', adsOrigin);
    }
    const html = renderEmbedPage(template, {
      videoId,
      query,
      playerResponse: playerResponseFor(catalog.current(videoId), videoId),
      trustedOrigins,
      streamToken: streamTokens.issue().token,
      identity: {
        visitorData: identityTokens.visitor.issue().token,
        antiForgeryToken: identityTokens.antiForgery.issue().token,
        apiKey,
        anonymousIdUrl: adsOrigin && `${adsOrigin}/pagead/id`,
        adStatusUrl: adsOrigin && `${adsOrigin}${AD_STATUS_SCRIPT_PATH}`,
        attestationProgramUrl: attestation.programUrlFor(query),
        embedMode: embedModeOf(request),
      },
      nonce: reply.cspNonce.script,
    });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };

  app.get<{ Params: { videoId: string }; Querystring: Record<string, unknown> }>('/embed/:videoId', { helmet: embedHelmet }, (request, reply) =>
    sendEmbed(request.params.videoId, request.query, request, reply),
  );
  app.get<{ Querystring: Record<string, unknown> }>('/embed/', { helmet: embedHelmet }, (request, reply) => sendEmbed('', request.query, request, reply));
}

/**
 * The embed page's template. The built page is read once, on first use, so the server starts (and says what is
 * wrong) without a build; from Vite (development) it is transformed again for every request, so an edit of its HTML
 * shows at once.
 */
function embedTemplateSource(pages: PageSource): (reply: FastifyReply) => Promise<EmbedTemplate | undefined> {
  let built: EmbedTemplate | undefined;
  return async (reply) => {
    if (built) return built;
    const html = await pages.html('embed', reply);
    const template = html === undefined ? undefined : readEmbedTemplate(html);
    if (pages.kind === 'built') built = template;
    return template;
  };
}
