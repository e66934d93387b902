import { buildPlayerConfig, serializeConfigForScript, type ConfigIdentity, type PlayerResponse } from '../streams/config/playerConfig';

/** The built embed page, split around the place where the configuration goes. */
export interface EmbedTemplate {
  before: string;
  after: string;
  assets: { js: string; css: string };
}

const CONFIG_MARKER = '<!--vidframe:config-->';

/** Prepares the embed page's `index.html` (built, or from Vite in development): finds the config marker and the page's own JS and CSS assets. */
export function readEmbedTemplate(html: string): EmbedTemplate {
  const at = html.indexOf(CONFIG_MARKER);
  if (at < 0) throw new Error(`The embed page has no ${CONFIG_MARKER} marker: is dist/ from another build?`);
  // The page's own script: in development (Vite) the first one is Vite's client, `/@vite/client`, not the page's.
  const js = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]).find((src) => !src.startsWith('/@')) ?? '';
  const css = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/.exec(html)?.[1] ?? '';
  return { before: html.slice(0, at), after: html.slice(at + CONFIG_MARKER.length), assets: { js, css } };
}

/** The embed page for one request, with its player configuration (spec §3) inlined as a script carrying the CSP nonce. */
export function renderEmbedPage(
  template: EmbedTemplate,
  {
    videoId,
    query,
    playerResponse,
    trustedOrigins,
    streamToken,
    identity,
    nonce,
  }: {
    videoId: string;
    query: Record<string, unknown>;
    playerResponse: PlayerResponse;
    trustedOrigins?: readonly string[];
    /** The server-signed stream token the page's log requests carry (issue 12). */
    streamToken?: string;
    /** Visitor id, anti-forgery token, API key, anonymous-id URL and embed mode (issue 13). */
    identity?: ConfigIdentity;
    /** The Content-Security-Policy nonce that lets this one inline script run. */
    nonce?: string;
  },
): string {
  const config = buildPlayerConfig({ videoId, query, playerResponse, assets: template.assets, trustedOrigins, streamToken, identity });
  const nonceAttribute = nonce && /^[A-Za-z0-9+/=_-]+$/.test(nonce) ? ` nonce="${nonce}"` : '';
  return `${template.before}<script${nonceAttribute}>window.vidframeConfig=${serializeConfigForScript(config)};</script>${template.after}`;
}
