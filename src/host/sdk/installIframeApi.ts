import { PlayerState } from '../../../streams/player/playerState';
import { normalizeHost } from './buildEmbedUrl';
import { setDefaultHost } from './defaultHost';
import { Player } from './Player';

/** The global `YT` that `/iframe_api` defines: the subset of the public namespace host code and libraries use. */
export interface IframeApiNamespace {
  Player: typeof Player;
  PlayerState: typeof PlayerState;
  /** Calls `callback` once the API is ready (at once when it already is). */
  ready(callback: () => void): void;
  /** 1 once ready, as libraries that look for an already loaded API check. */
  loaded: 0 | 1;
  loading: 0 | 1;
  /** `setConfig({ host })`: the embed origin for players created from now on. */
  setConfig(config: { host?: string }): void;
  /** Marks our implementation (a second copy of the script keeps the first). */
  readonly vidframe: true;
}

type ApiWindow = Window & {
  YT?: Partial<IframeApiNamespace> & Record<string, unknown>;
  onYouTubeIframeAPIReady?: unknown;
};

/**
 * Defines `window.YT` for pages that include `/iframe_api` with a script tag (or whose library injects it), then,
 * once the page's own scripts have run (after `DOMContentLoaded` while the document is still parsing, else on the
 * next task), sets `YT.loaded = 1`, calls `window.onYouTubeIframeAPIReady` if the page defined it and runs every
 * `YT.ready` callback. Players created by this API default to the embed origin the script came from (`scriptSrc`).
 * An existing `window.YT` object (a page's stub) is extended, not replaced; a second copy of this script is a no-op.
 */
export function installIframeApi(win: Window, { scriptSrc }: { scriptSrc?: string } = {}): IframeApiNamespace {
  const w = win as ApiWindow;
  if (w.YT && w.YT.vidframe === true) return w.YT as IframeApiNamespace;

  const scriptOrigin = scriptSrc ? normalizeHost(new URL(scriptSrc, win.location.href).href) : undefined;
  if (scriptOrigin) setDefaultHost(scriptOrigin);

  const callbacks: Array<() => void> = [];
  const run = (callback: unknown) => {
    if (typeof callback !== 'function') return;
    try {
      callback();
    } catch (error) {
      console.error('VidFrame iframe API: a ready callback threw', error);
    }
  };
  const yt = Object.assign(w.YT && typeof w.YT === 'object' ? w.YT : {}, {
    Player,
    PlayerState,
    loaded: 0 as 0 | 1,
    loading: 1 as 0 | 1,
    vidframe: true as const,
    ready(callback: () => void) {
      if (yt.loaded === 1) run(callback);
      else callbacks.push(callback);
    },
    setConfig(config: { host?: string }) {
      const host = normalizeHost(config?.host);
      if (host) setDefaultHost(host);
    },
  }) as IframeApiNamespace;
  w.YT = yt as unknown as ApiWindow['YT'];

  const fire = () => {
    yt.loaded = 1;
    run(w.onYouTubeIframeAPIReady);
    for (const callback of callbacks.splice(0)) run(callback);
  };
  if (win.document.readyState === 'loading') win.document.addEventListener('DOMContentLoaded', fire, { once: true });
  else win.setTimeout(fire, 0);
  return yt;
}
