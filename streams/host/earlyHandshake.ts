import { parseBooleanVar, serializeConfigForScript, type PlayerConfig } from '../config/playerConfig';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT } from '../player/playerInfo';
import { earlyMediaOf, initialPlayerModel } from '../player/playerModel';
import { INITIAL_PLAYER_STATE_MACHINE, stepPlayerState } from '../player/playerState';
import { reducePlayer } from '../player/reducePlayer';
import type { PlayerInfo } from '../player/types';
import { HOST_GETTERS, PRIVILEGED_HOST_COMMANDS, PUBLIC_HOST_COMMANDS } from './hostApiInterface';
import { HOST_MESSAGE_MAX_CHARS, hostGate, type HostLock } from './hostGate';
import type { HostMessageEvent } from './hostTypes';
import { captionsApiInfo, snapshotForHost } from './snapshotForHost';
import { numberText } from '../shared/numberText';

/**
 * The host's handshake answered from the embed page's HTML, so that a host hears `onReady` about as soon as a bare
 * page would answer: a page script cannot answer sooner than its file arrives and runs.
 *
 * For a video the server knows in advance (the one whose `<video>` it writes into the page: `earlyMediaOf`), the
 * server also writes a small inline responder that speaks the protocol's first steps (host-protocol §3) from the
 * player's first snapshot, computed on the server with the player's own pure functions ({@link earlyHandshakeOf}):
 * - it posts `readyToListen` to the parent at once (framed, with a `widgetid`), as a ready player does (§3.6);
 * - it accepts messages, and locks the channel at the first `listening`, through the page script's own gate
 *   (`hostGate`: the `origin` parameter matched exactly, §3.3; the locked window and origin, §3.2; JSON text); at the
 *   lock it sends `initialDelivery` (with the `apiInterface` for that origin), `onReady`, and the captions module's
 *   `apiInfoDelivery` when the video has tracks (§3.4);
 * - every other accepted message is held, in order, untouched (after the lock, only the locked host's).
 *
 * The page script then takes the channel over in one step ({@link EarlyHostResponder.take}: the listener is removed
 * and what it knows is handed on) and starts the protocol from there (`hostStateFromHandoff`): the lock, the listener
 * id, the snapshot the host has heard (so what differs in the real player — the element's volume, a playback that
 * already started — goes out as an ordinary `infoDelivery` and its events), and the held messages, which it reads
 * first. Commands among them wait for the player to be ready and run in order (§4), as any command that comes before
 * readiness does. A host's commands thus take effect once the player is there; its getters answer from the snapshot
 * at once.
 *
 * Pages without `enablejsapi=1`, or whose first source is not known in advance (a playlist to fetch, a video whose
 * answer says it cannot play: its `onError` comes right after `onReady`, which only the player can say) get no
 * responder: the page script answers the handshake. A video whose media fails after the responder answered is told
 * by the page script with its first snapshot (`firstSnapshotOwed` in `hostProtocolState.ts`), once, subscribed or
 * not. A page whose script fails to start tells a host that heard `onReady` `onError` 5 (`failEarlyHandshake`); one
 * whose script never arrives cannot tell it anything.
 *
 * The viewer's stored preferences (volume, mute, rate, quality, captions) are applied by the page script: a host sees
 * them as ordinary changes after the handshake (`infoDelivery` and, when subscribed, `onVolumeChange` and the rest),
 * not in `initialDelivery` as when the page script answers.
 */

/** The global through which the inline responder hands over to the page script. */
export const EARLY_HOST_GLOBAL = 'vidframeEarlyHost' satisfies keyof EarlyWindow;

/** What the server writes for the inline responder: plain JSON. */
export interface EarlyHandshake {
  /** The host's view of the player's first snapshot (`snapshotForHost`), with root-relative URLs (origin ''). */
  view: Record<string, unknown>;
  /** The snapshot's fields the host never sees, for the page script's baseline. */
  engine: Pick<PlayerInfo, 'captionTrack' | 'loop' | 'shuffle' | 'videoKnown'>;
  /** The captions module's `apiInfoDelivery` after `onReady`, or null when the video has no tracks. */
  api: Record<string, unknown> | null;
  /** The `apiInterface`: public commands, the privileged ones (trusted origins only), then the getters. */
  commands: string[];
  privileged: string[];
  getters: string[];
  trustedOrigins: string[];
  /** The `origin` parameter: before the lock only this exact origin may talk; null lets any. */
  originParam: string | null;
  /** The `widgetid` parameter (the reply `id` before any `listening`, and `readyToListen`'s), or null. */
  widgetId: number | string | null;
  /** Longest message text read (`HOST_MESSAGE_MAX_CHARS`, as the page script). */
  maxChars: number;
  /** Most messages held for the page script (a host cannot send more before it runs; the rest are dropped). */
  maxHeld: number;
}

/** What the inline responder hands over. */
export interface EarlyHostHandoff {
  lock: HostLock | null;
  listenerId: number | string | undefined;
  initialized: boolean;
  readyToListenSent: boolean;
  /** Every message that came after the handshake's `listening` (or before it, when it was not one), in order. */
  held: HostMessageEvent[];
  /** The snapshot the host heard in `initialDelivery` (host view and engine fields), once initialized. */
  baseline: PlayerInfo | null;
}

export interface EarlyHostResponder {
  /** Stops the responder (its listener removed) and hands over what it knows; later calls return null. */
  take(): EarlyHostHandoff | null;
}

/** The window the responder runs in (the embed's own; plain objects in tests). */
export interface EarlyWindow {
  parent: { postMessage(message: string, targetOrigin: string): void } | unknown;
  location: { origin: string };
  innerWidth: number;
  innerHeight: number;
  addEventListener(type: 'message', listener: (event: { data: unknown; origin: string; source: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown; origin: string; source: unknown }) => void): void;
  vidframeEarlyHost?: EarlyHostResponder;
}

/** `widgetid` as the host sent it: a number when it is one, else the trimmed string; absent when empty. */
export function widgetIdOf(value: string | undefined): number | string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && numberText(n) === value.trim() ? n : value.trim();
}

/**
 * The responder's data for a page, or undefined when the page gets none (no `enablejsapi=1`, or a first source the
 * server does not know). The first snapshot is the player's own at readiness, as far as the server can know it: the
 * model after the configured response (`reducePlayer`), the state after the page's `load`/`cue` and the response's
 * state actions, an element that has nothing yet (muted as the page asks). The page patches its origin and size in.
 */
export function earlyHandshakeOf(config: PlayerConfig, { nowMs }: { nowMs: number }): EarlyHandshake | undefined {
  const vars = config.args.playerVars;
  if (parseBooleanVar(vars.enablejsapi) !== true) return undefined;
  const media = earlyMediaOf(config);
  if (!media) return undefined;
  const autoplay = media.preload === 'auto';
  let machine = stepPlayerState(INITIAL_PLAYER_STATE_MACHINE, { type: autoplay ? 'load' : 'cue' });
  const step = reducePlayer(
    initialPlayerModel(config),
    { type: 'videoResponse', seq: 0, response: config.args.player_response, autoplay },
    { currentTime: 0, state: machine.state, random: () => 0 },
  );
  for (const action of step.actions) if (action.type === 'state') machine = stepPlayerState(machine, action.input);
  const info = buildPlayerInfo(step.model, { ...EMPTY_MEDIA_SNAPSHOT, muted: media.muted }, machine.state, { origin: '', nowMs });
  const api = captionsApiInfo(info);
  const widgetId = widgetIdOf(vars.widgetid);
  return {
    view: { ...snapshotForHost(info) },
    engine: { captionTrack: info.captionTrack, loop: info.loop, shuffle: info.shuffle, videoKnown: info.videoKnown },
    api: (api.namespaces as string[]).length > 0 ? api : null,
    commands: [...PUBLIC_HOST_COMMANDS],
    privileged: [...PRIVILEGED_HOST_COMMANDS],
    getters: Object.keys(HOST_GETTERS),
    trustedOrigins: [...(config.args.trustedOrigins ?? [])],
    originParam: vars.origin?.trim() || null,
    widgetId: widgetId ?? null,
    maxChars: HOST_MESSAGE_MAX_CHARS,
    maxHeld: 1_000,
  };
}

/**
 * The inline responder (see the module's comment). It runs in the page as the text of this function
 * ({@link renderEarlyResponderScript}), so it uses nothing from outside itself but its arguments: no imports, no
 * helpers. `gate` is `hostGate`, written into the page as its own text, so the responder accepts exactly what the page
 * script accepts.
 */
export function installEarlyResponder(win: EarlyWindow, data: EarlyHandshake, gate: typeof hostGate): void {
  const parent = win.parent as { postMessage?: (message: string, targetOrigin: string) => void } | null;
  const framed = parent !== (win as unknown);
  let lock: HostLock | null = null;
  let listenerId: number | string | undefined = data.widgetId === null ? undefined : data.widgetId;
  let initialized = false;
  let readyToListenSent = false;
  const held: { data: unknown; origin: string; source: unknown }[] = [];
  let baseline: Record<string, unknown> | null = null;
  let taken = false;
  const post = function (target: unknown, targetOrigin: string, message: Record<string, unknown>) {
    try {
      (target as { postMessage(m: string, o: string): void }).postMessage(JSON.stringify(message), targetOrigin);
    } catch (e) {
      // A closed or foreign window: nothing to tell.
    }
  };
  const envelope = function (event: string, info: unknown) {
    const m: Record<string, unknown> = { event: event, info: info, channel: 'widget' };
    if (listenerId !== undefined) m.id = listenerId;
    return m;
  };
  const handshake = function (locked: HostLock, id: unknown) {
    lock = locked;
    const source = lock.source;
    if ((typeof id === 'number' && isFinite(id)) || (typeof id === 'string' && id.length > 0 && id.length <= 100)) listenerId = id;
    const target = lock.origin === null ? '*' : lock.origin;
    const view: Record<string, unknown> = {};
    for (const k in data.view) view[k] = data.view[k];
    // What only the page knows: its origin (the server writes root-relative URLs), its size, the time now.
    const here = win.location.origin;
    if (typeof view.videoUrl === 'string' && view.videoUrl.charAt(0) === '/') view.videoUrl = here + view.videoUrl;
    if (typeof view.videoEmbedCode === 'string') view.videoEmbedCode = view.videoEmbedCode.replace('src="/', 'src="' + here + '/');
    const width = Math.round(win.innerWidth) || 0;
    const height = Math.round(win.innerHeight) || 0;
    if (width > 0 && height > 0) {
      view.size = { width: width, height: height };
      view.videoContentRect = { left: 0, top: 0, width: width, height: height };
    }
    // The responder runs as an inline script before any module, where no scheduler exists: the page's clock is its only one.
    // eslint-disable-next-line no-restricted-properties
    view.currentTimeLastUpdated_ = Date.now() / 1000;
    const trusted = lock.origin !== null && data.trustedOrigins.indexOf(lock.origin) >= 0;
    const apiInterface = data.commands.concat(trusted ? data.privileged : [], data.getters);
    const initial: Record<string, unknown> = { apiInterface: apiInterface };
    for (const key in view) initial[key] = view[key];
    post(source, target, envelope('initialDelivery', initial));
    post(source, target, envelope('onReady', null));
    if (data.api) post(source, target, envelope('apiInfoDelivery', data.api));
    baseline = view;
    for (const e in data.engine) baseline[e] = (data.engine as unknown as Record<string, unknown>)[e];
    initialized = true;
  };
  const onMessage = function (event: { data: unknown; origin: string; source: unknown }) {
    if (taken) return;
    const message = { data: event.data, origin: event.origin, source: event.source };
    const decision = gate(message, lock, { originParam: data.originParam, maxChars: data.maxChars });
    if (!decision.accepted) return;
    if (!lock && decision.lock) {
      const value = decision.value as Record<string, unknown>;
      handshake(decision.lock, Object.prototype.hasOwnProperty.call(value, 'id') ? value.id : undefined);
      return;
    }
    // After the lock only the host's own messages pass the gate: another window cannot crowd them out.
    if (held.length < data.maxHeld) held.push(message);
  };
  win.addEventListener('message', onMessage);
  if (framed && data.widgetId !== null && parent && typeof parent.postMessage === 'function') {
    readyToListenSent = true;
    post(parent, '*', { event: 'readyToListen', channel: 'widget', id: data.widgetId });
  }
  // The global's name written out: this text runs alone in the page (EARLY_HOST_GLOBAL is not there).
  win.vidframeEarlyHost = {
    take: function () {
      if (taken) return null;
      taken = true;
      win.removeEventListener('message', onMessage);
      return {
        lock: lock,
        listenerId: listenerId,
        initialized: initialized,
        readyToListenSent: readyToListenSent,
        held: held,
        baseline: baseline as PlayerInfo | null,
      };
    },
  };
}

/**
 * The inline `<script>` body: the responder's own text, called on the page's window with its data and the gate's own
 * text. Bundlers and the TypeScript runner may name functions through a `__name` helper; the script defines a
 * harmless one.
 */
export function renderEarlyResponderScript(data: EarlyHandshake): string {
  return `(function(){var __name=function(f){return f};(${installEarlyResponder.toString()})(window,${serializeConfigForScript(data)},${hostGate.toString()})})();`;
}
