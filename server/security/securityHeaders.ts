import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The security headers of every reply (`@fastify/helmet`), with a Content-Security-Policy that fits the product:
 *
 * - scripts only from our origin, plus the per-request nonce of the embed page's inlined configuration
 *   (`reply.cspNonce.script`): no other inline script, no eval;
 * - media, images and API calls from our origin only (`blob:`/`data:` for what the player makes itself);
 * - `frame-ancestors 'self'` everywhere but the embed page, which any site may frame (`frame-ancestors *`, and no
 *   X-Frame-Options there);
 * - `Referrer-Policy: strict-origin-when-cross-origin`, which IFrame-API hosts need (the embed learns its host's
 *   origin from the referrer), `X-Content-Type-Options: nosniff`;
 * - `Cross-Origin-Resource-Policy: cross-origin`: host pages on other sites load `/iframe_api` and the SDK;
 * - no `upgrade-insecure-requests` and no HSTS: the server also runs on plain http://localhost, and TLS policy belongs to
 *   the proxy in front;
 * - `Origin-Agent-Cluster: ?1` everywhere but the embed page (below).
 */
function helmetOptions({ frameAncestors, originAgentCluster = true }: { frameAncestors: string[]; originAgentCluster?: boolean }): FastifyHelmetOptions {
  return {
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The demo host page frames an embed of any origin (`?host=`), as a third-party host would.
        frameSrc: ["'self'", 'https:', 'http:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors,
      },
    },
    frameguard: frameAncestors.includes('*') ? false : { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    // TLS and its HSTS policy belong to the TLS-terminating proxy in front, which knows the deployment's host names.
    strictTransportSecurity: false,
    originAgentCluster,
  };
}

/**
 * The embed page's own helmet options (route option `helmet`): framed by any site, and without `Origin-Agent-Cluster`.
 * With that header a cold framed load starts parsing later in Chromium, which backs an origin-keyed agent cluster with
 * a process keyed by the exact origin (`bench/loadTimeline.ts` measures it; figures in docs/performance.md). What it
 * guards is `document.domain` relaxation: disabled by default in Chromium, honoured by Firefox and Safari only between
 * pages that both set it, and the embed page never does. Site isolation still keeps the embed out of other sites'
 * processes.
 */
export const embedHelmet = helmetOptions({ frameAncestors: ['*'], originAgentCluster: false });

/**
 * Adds `origin` to one directive of the reply's Content-Security-Policy (`connect-src`, `script-src`, `img-src`), for a
 * page that needs one more origin than every other reply (the embed and its ads host; the demo page and the posters
 * of the embed origin it is pointed at; in `npm run dev`, the pages' HMR websocket). The origin must be a bare
 * `http(s)://` or `ws(s)://host[:port]` — anything else is ignored, so nothing a request carries can add a source like
 * `*` or `'unsafe-inline'`; a reply without that directive is left as it is.
 */
export function allowOriginInCsp(reply: FastifyReply, directive: 'connect-src' | 'script-src' | 'img-src', origin: string): void {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp !== 'string' || !/^(https?|wss?):\/\/[A-Za-z0-9.[\]:-]+$/.test(origin)) return;
  reply.header(
    'content-security-policy',
    csp
      .split(';')
      .map((part) => (part.trim().split(/\s+/)[0] === directive ? `${part} ${origin}` : part))
      .join(';'),
  );
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, { global: true, ...helmetOptions({ frameAncestors: ["'self'"] }) });
}
