import { buildEmbedUrl, normalizeHost } from './buildEmbedUrl';
import { defaultHost } from './defaultHost';
import { isValidVideoId } from './isValidVideoId';
import type { PlayerOptions } from './types';

/** The public API's default size. */
export const DEFAULT_WIDTH = 640;
export const DEFAULT_HEIGHT = 390;

/** The iframe a player drives, and where its messages go and come from. */
export interface PlayerIframe {
  /** The window of the host page the iframe is in. */
  win: Window;
  iframe: HTMLIFrameElement;
  /** The element the iframe replaced, put back on destroy; `undefined` when the player attached to an embed iframe. */
  placeholder: HTMLElement | undefined;
  /** The only origin the player posts to and reads from. */
  embedOrigin: string;
}

/**
 * Finds the element (`elementOrId`) and puts an embed iframe in its place, or attaches to it when it already is an
 * embed iframe (turning `enablejsapi` on when its URL lacks it). The embed origin is `options.host` when it is an
 * http(s) origin, else the default host (`setDefaultHost`, the `/iframe_api` script's origin), else the page's own.
 * Throws when there is no such element or it is not in a document with a window.
 */
export function createPlayerIframe(
  elementOrId: string | HTMLElement,
  options: Pick<PlayerOptions, 'host' | 'videoId' | 'width' | 'height' | 'title' | 'playerVars'>,
  widgetId: number,
): PlayerIframe {
  const element = typeof elementOrId === 'string' ? document.getElementById(elementOrId) : elementOrId;
  if (!element) throw new Error(`VidFrame Player: there is no element with id "${String(elementOrId)}" to replace.`);
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  if (!win) throw new Error('VidFrame Player: the element is not in a document with a window.');

  const pageOrigin = win.location.origin;
  const configured = options.host === undefined ? undefined : normalizeHost(options.host);
  if (options.host !== undefined && !configured) {
    console.warn(`VidFrame Player: host "${String(options.host)}" is not an http(s) origin; using the default.`);
  }
  const host = configured ?? normalizeHost(defaultHost(win)) ?? pageOrigin;

  if (element instanceof win.HTMLIFrameElement) {
    // Attach to an embed the page already framed: its URL says where it comes from.
    const src = new URL(element.src || 'about:blank', doc.baseURI);
    if (src.protocol !== 'http:' && src.protocol !== 'https:') return { win, iframe: element, placeholder: undefined, embedOrigin: host };
    if (src.searchParams.get('enablejsapi') !== '1') {
      // Without enablejsapi=1 the embed never answers: turn it on (this reloads the frame once).
      src.searchParams.set('enablejsapi', '1');
      if (!src.searchParams.has('origin')) src.searchParams.set('origin', pageOrigin);
      src.searchParams.set('widgetid', String(widgetId));
      element.src = src.toString();
    }
    return { win, iframe: element, placeholder: undefined, embedOrigin: src.origin };
  }

  if (options.videoId !== undefined && !isValidVideoId(options.videoId)) {
    console.warn(`VidFrame Player: "${String(options.videoId)}" is not a video id (11 characters of A-Z a-z 0-9 _ -).`);
  }
  const iframe = doc.createElement('iframe');
  if (element.id) iframe.id = element.id;
  iframe.width = String(options.width ?? DEFAULT_WIDTH);
  iframe.height = String(options.height ?? DEFAULT_HEIGHT);
  iframe.title = options.title ?? 'VidFrame video player';
  iframe.setAttribute('frameborder', '0');
  // A host that enables geolocation (`playerVars.geolocation`) also lets the frame ask the viewer for it.
  const geolocation = ['1', 'true', 1, true].includes(options.playerVars?.geolocation as never);
  iframe.setAttribute('allow', `autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture${geolocation ? '; geolocation' : ''}`);
  iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
  iframe.src = buildEmbedUrl({ host, videoId: options.videoId, playerVars: options.playerVars, pageOrigin, widgetId });
  element.replaceWith(iframe);
  return { win, iframe, placeholder: element, embedOrigin: host };
}
