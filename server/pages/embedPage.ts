import { buildPlayerConfig, serializeConfigForScript, type ConfigIdentity, type PlayerConfig, type PlayerResponse } from '../../streams/config/playerConfig';
import { earlyMediaOf } from '../../streams/player/playerModel';
import { earlyHandshakeOf, renderEarlyResponderScript } from '../../streams/host/earlyHandshake';
import { escapeHtml } from '../http/escapeHtml';
import { chooseLanguage } from '../../streams/i18n/language';
import { SHELL_TEXT } from '../../streams/i18n/shellText';

/**
 * A place in the embed page the server fills: the host responder's inline script (`responder`: in the head, before the
 * stylesheet, so that it runs as the head is parsed, without waiting for the stylesheet), the configuration's inline
 * script (`config`), the player's shell (`shell`).
 */
export type EmbedSlot = 'responder' | 'config' | 'shell';

/** The built embed page, split at the places the server fills, in the page's order. */
export interface EmbedTemplate {
  /** The page's text around the slots: one more piece than slots. */
  pieces: string[];
  /** The slots, in the page's order; no `shell` when the page has no shell marker (it then gets no shell). */
  slots: EmbedSlot[];
  assets: { js: string; css: string };
}

const CONFIG_MARKER = '<!--vidframe:config-->';
const SHELL_MARKER = '<!--vidframe:shell-->';
const RESPONDER_MARKER = '<!--vidframe:responder-->';

/**
 * The player's shell, written with the HTML: the `.vf-player` box, its `<video>` and the empty `.vf-ui`
 * layer the controls render into later. With the configured video's source and preload on the element, the browser
 * starts the media request while it parses the page, instead of after the scripts have run (the page's script adopts
 * the element: `src/embed/page/playerShell.ts`). Without a source known in advance (a playlist to fetch, a video that
 * cannot play) the element is written without one and the player gives it one.
 */
export function renderPlayerShell(config: PlayerConfig): string {
  const media = earlyMediaOf(config);
  const attributes = ['class="vf-video"'];
  if (media) {
    attributes.push(`src="${escapeHtml(media.src)}"`, `preload="${media.preload}"`);
    if (media.autoplay) attributes.push('autoplay');
    if (media.muted) attributes.push('muted');
    if (media.playsInline) attributes.push('playsinline');
    if (media.poster) attributes.push(`poster="${escapeHtml(media.poster)}"`);
    // Without a title, the player's name in the `hl` language (the page names it in the browser's once it runs).
    attributes.push(`aria-label="${escapeHtml(media.title ?? SHELL_TEXT[chooseLanguage(config.args.playerVars.hl, [])].videoPlayer)}"`);
  } else attributes.push('preload="none"');
  return `<div class="vf-player" tabindex="-1"><video ${attributes.join(' ')}></video><div class="vf-ui"></div></div>`;
}

/**
 * Prepares the embed page's `index.html` (built, or from Vite in development): finds the config marker (required) and
 * the shell marker, in whichever order the page has them, and the page's own JS and CSS assets.
 */
export function readEmbedTemplate(html: string): EmbedTemplate {
  const at = html.indexOf(CONFIG_MARKER);
  if (at < 0) throw new Error(`The embed page has no ${CONFIG_MARKER} marker: is dist/ from another build?`);
  const shellAt = html.indexOf(SHELL_MARKER);
  const responderAt = html.indexOf(RESPONDER_MARKER);
  // The page's own script: in development (Vite) the first one is Vite's client, `/@vite/client`, not the page's.
  const js = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]).find((src) => src !== undefined && !src.startsWith('/@')) ?? '';
  const css = /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/.exec(html)?.[1] ?? '';
  const marks: { slot: EmbedSlot; at: number; length: number }[] = [{ slot: 'config', at, length: CONFIG_MARKER.length }];
  if (shellAt >= 0) marks.push({ slot: 'shell', at: shellAt, length: SHELL_MARKER.length });
  if (responderAt >= 0) marks.push({ slot: 'responder', at: responderAt, length: RESPONDER_MARKER.length });
  marks.sort((a, b) => a.at - b.at);
  const pieces: string[] = [];
  let from = 0;
  for (const mark of marks) {
    pieces.push(html.slice(from, mark.at));
    from = mark.at + mark.length;
  }
  pieces.push(html.slice(from));
  return { pieces, slots: marks.map((m) => m.slot), assets: { js, css } };
}

/**
 * The embed page for one request, with its player configuration (spec §3) inlined as a script carrying the CSP nonce,
 * and, for a host-driven page whose video the server knows, the host's handshake answered inline before it
 * (`streams/host/earlyHandshake.ts`).
 */
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
    /** The server-signed stream token the page's log requests carry. */
    streamToken?: string;
    /** Visitor id, anti-forgery token, API key, anonymous-id URL and embed mode. */
    identity?: ConfigIdentity;
    /** The Content-Security-Policy nonce that lets this one inline script run. */
    nonce?: string;
  },
): string {
  const config = buildPlayerConfig({ videoId, query, playerResponse, assets: template.assets, trustedOrigins, streamToken, identity });
  const nonceAttribute = nonce && /^[A-Za-z0-9+/=_-]+$/.test(nonce) ? ` nonce="${nonce}"` : '';
  const early = earlyHandshakeOf(config, { nowMs: Date.now() });
  const responder = early ? `<script${nonceAttribute}>${renderEarlyResponderScript(early)}</script>` : '';
  // Without its own place (an older page), the responder comes first in the configuration's.
  const ownPlace = template.slots.includes('responder');
  const configScript = `${ownPlace ? '' : responder}<script${nonceAttribute}>window.vidframeConfig=${serializeConfigForScript(config)};</script>`;
  const fill = { responder, config: configScript, shell: template.slots.includes('shell') ? renderPlayerShell(config) : '' };
  // Each piece but the last is followed by its slot's text.
  let html = '';
  template.pieces.forEach((piece, i) => {
    const slot = template.slots[i];
    html += slot === undefined ? piece : piece + fill[slot];
  });
  return html;
}
