import { map, Subject, type Observable } from 'rxjs';
import { readPlayerConfig, withLoaderUrl, PLAYER_STYLE_TRANSPARENT, type PlayerConfig } from '../../../streams/config/playerConfig';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import type { PlaylistResponse } from '../../../streams/player/playerEngine';
import { createRecorder, type Recorder } from '../../../streams/shared/recorder';
import { visibilityEvents$ } from '../../../streams/sources/visibilityEvents';
import { recoverUnwrappedResponse } from '../../../streams/transport/recoverUnwrappedResponse';
import { visibilityState, type VisibilityState } from '../../../streams/visibility/visibilityState';
import { startHostBridge } from '../host/hostBridge';
import { createEmbedPlayer, type EmbedPlayer } from '../player/EmbedPlayer';
import { playerFeed, type PlayerFeed } from '../player/playerFeed';
import { createEmbedApi, type EmbedApi } from '../services/api';
import { startIdentity, type Identity } from '../services/identity';
import { startPreferences } from '../services/preferences';
import { startTracking } from '../services/tracking';
import { bindShellClicks, bindShellState, findPlayerShell, type PlayerShell } from '../player/playerShell';
import { startService } from './startService';
import { SHELL_TEXT } from '../../../streams/i18n/shellText';
import { chooseLanguage, textDirection, type Language } from '../../../streams/i18n/language';

/** What the page started before any chunk: the player over the server's `<video>`, and what the chunks take over. */
export interface StartedPlayer {
  config: PlayerConfig;
  identity: Identity;
  api: EmbedApi;
  player: EmbedPlayer;
  shell: PlayerShell;
  /** Holds what logging will want to see until the services start; released once they have. */
  recorder: Recorder;
  feed: PlayerFeed;
  hostCommands$: Observable<HostCommandReceipt>;
  visibility$: Observable<VisibilityState>;
  /** Stops the shell's own click handling, once the controls' listeners are bound. */
  releaseShellClicks: () => void;
  /** The interface's language (`hl`, else the browser's): the controls load its catalog. */
  language: Language;
}

/** The interface's language from `hl` or the browser's languages, set on `<html>` with its direction (before any text). */
export function applyLanguage(doc: Document, hl: unknown): Language {
  const nav = doc.defaultView?.navigator;
  const language = chooseLanguage(hl, nav?.languages ?? [nav?.language ?? '']);
  doc.documentElement.lang = language;
  doc.documentElement.dir = textDirection(language);
  return language;
}

/**
 * The player and what it needs at once: the configuration the server inlined, identity and the one API client, the
 * player adopting the server's `<video>`, the preferences, the ping beacons and the host channel. What logging will
 * want to see of this time is recorded from the start (the player's states, the element's events, host commands and
 * the page's visibility), so the services, which come later in their own chunk, miss none of it. The feed and the ping
 * beacons subscribe before the element is adopted, so they see the player's first states; the host bridge starts
 * last, once the player it drives is complete.
 */
export function startPlayer(win: Window, container: HTMLElement): StartedPlayer {
  const doc = win.document;
  const framed = win.parent !== win;
  const config = withLoaderUrl(readPlayerConfig(win.vidframeConfig), { framed, referrer: doc.referrer });
  doc.documentElement.dataset.theme = config.args.theme;
  const language = applyLanguage(doc, config.args.playerVars.hl);
  if (config.args.ps === PLAYER_STYLE_TRANSPARENT) doc.documentElement.classList.add('vf-transparent');
  const identity = startIdentity(config, win);
  win.vidframeIdentity = identity;
  const api = createEmbedApi(win, config, identity);
  const player = createEmbedPlayer(config, {
    // An error answer carrying a player (or browse) response in its details is that response (spec §7); any other
    // failure still errors, which the player turns into its error state. The body goes to the player as parsed: the
    // player reads it, and a body that is no player response is a failed load too.
    fetchVideo: (videoId) =>
      api.fetchApi('player', { videoId }).pipe(
        recoverUnwrappedResponse(),
        map((r) => r.body),
      ),
    sendHeartbeat: (request) => api.fetchApi('player/heartbeat', { ...request }).pipe(map((r) => r.body)),
    // A list id is asked as `{playlistId}`; a channel's uploads and a search as `{listType, list}`.
    fetchPlaylist: (list, listType) =>
      api.fetchApi('next', listType === 'playlist' ? { playlistId: list } : { listType, list }).pipe(
        recoverUnwrappedResponse(),
        map((r) => r.body as PlaylistResponse),
      ),
  });
  win.vidframePlayer = player;

  const recorder = createRecorder();
  const feed = playerFeed(player, recorder);
  const hostCommandReceipts$ = new Subject<HostCommandReceipt>();
  const hostCommands$ = recorder.record(hostCommandReceipts$);
  // A state: a late subscriber gets the current one, each change at its own time.
  const readVisibility = () => doc.visibilityState;
  const visibility$ = recorder.recordState(visibilityState(visibilityEvents$({ document: doc, window: win }, readVisibility), { readVisibility }));
  startService('preferences', () => startPreferences(player, win));
  startService('ping beacons', () => startTracking(player, win));

  // The element the server wrote is adopted in place: its media request started with the HTML.
  const shell = findPlayerShell(container);
  player.attach(shell.video);
  bindShellState(shell, player, SHELL_TEXT[language]);
  const releaseShellClicks = bindShellClicks(shell, player);
  // Until the controls are there the player itself is a tab stop (the frame has nothing else to focus): a keyboard
  // viewer tabbing into the frame reaches it, which brings the controls; with them it is focusable by script only.
  shell.root.tabIndex = 0;
  startService('the host channel', () => startHostBridge(player, win, { onCommandReceived: (receipt) => hostCommandReceipts$.next(receipt) }));
  return { config, identity, api, player, shell, recorder, feed, hostCommands$, visibility$, releaseShellClicks, language };
}
