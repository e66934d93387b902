import { buildPlayerConfig, serializeConfigForScript, type ConfigIdentity, type PlayerConfig, type PlayerResponse } from '../streams/config/playerConfig';
import { earlyMediaOf } from '../streams/player/playerModel';

/** The built embed page, split around the place where the configuration goes and the place where the player's shell goes. */
export interface EmbedTemplate {
  before: string;
  /** Between the configuration and the shell; undefined when the page has no shell marker (it then gets no shell). */
  middle?: string;
  after: string;
  assets: { js: string; css: string };
}

const CONFIG_MARKER = '<!--vidframe:config-->';
const SHELL_MARKER = '<!--vidframe:shell-->';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The player's shell, written with the HTML (issue 15): the `.vf-player` box, its `<video>` and the empty `.vf-ui`
 * layer the controls render into later. With the configured video's source and preload on the element, the browser
 * starts the media request while it parses the page, instead of after the scripts have run (the page's script adopts
 * the element: `src/embed/playerShell.ts`). Without a source known in advance (a playlist to fetch, a video that
 * cannot play) the element is written without one and the player gives it one.
 */
export function renderPlayerShell(config: PlayerConfig): string {
  const media = earlyMediaOf(config);
  const attributes = ['class="vf-video"'];
  if (media) {
    attributes.push(`src="${escapeAttribute(media.src)}"`, `preload="${media.preload}"`);
    if (media.autoplay) attributes.push('autoplay');
    if (media.muted) attributes.push('muted');
    if (media.playsInline) attributes.push('playsinline');
    if (media.poster) attributes.push(`poster="${escapeAttribute(media.poster)}"`);
    attributes.push(`aria-label="${escapeAttribute(media.title ?? 'Video player')}"`);
  } else attributes.push('preload="none"');
  return `<div class="vf-player" tabindex="-1"><video ${attributes.join(' ')}></video><div class="vf-ui"></div></div>`;
}

/** Prepares the embed page's `index.html` (built, or from Vite in development): finds the config marker and the page's own JS and CSS assets. */
export function readEmbedTemplate(html: string): EmbedTemplate {
  const at = html.indexOf(CONFIG_MARKER);
  if (at < 0) throw new Error(`The embed page has no ${CONFIG_MARKER} marker: is dist/ from another build?`);
  const shellAt = html.indexOf(SHELL_MARKER, at);
  // The page's own script: in development (Vite) the first one is Vite's client, `/@vite/client`, not the page's.
  const js = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]).find((src) => !src.startsWith('/@')) ?? '';
  const css = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/.exec(html)?.[1] ?? '';
  const afterConfig = at + CONFIG_MARKER.length;
  return shellAt < 0
    ? { before: html.slice(0, at), after: html.slice(afterConfig), assets: { js, css } }
    : { before: html.slice(0, at), middle: html.slice(afterConfig, shellAt), after: html.slice(shellAt + SHELL_MARKER.length), assets: { js, css } };
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
  return `${template.before}<script${nonceAttribute}>window.vidframeConfig=${serializeConfigForScript(config)};</script>${template.middle === undefined ? '' : template.middle + renderPlayerShell(config)}${template.after}`;
}
