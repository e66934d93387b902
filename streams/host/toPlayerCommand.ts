import type { PlayerCommand } from '../player/types';
import { isLoadFunction, normalizeLoadCommand, type NormalizedCommand } from './normalizeLoadCommand';

const ok = (command: PlayerCommand): NormalizedCommand => ({ ok: true, command });
const bad = (reason: string): NormalizedCommand => ({ ok: false, internal: 'api.invalidparam', reason });

/** A number, or a numeric string (lenient: some clients send `"50"`); `NaN` for anything else. */
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
/** `true`/`false`, `1`/`0`, `"true"`/`"false"`, `"1"`/`"0"`; `undefined` for anything else. */
function bool(v: unknown): boolean | undefined {
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return undefined;
}
const shortString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 100;

/**
 * One wire command (host-protocol §4) as a {@link PlayerCommand}. Returns `null` for a function that is not a player
 * command (unknown names, getters, `addEventListener`/`removeEventListener`, which the protocol handles itself) — the
 * caller ignores it — and `{ ok: false }` for malformed arguments, which the host sees as `onError` 2.
 * Numbers may arrive as numeric strings and booleans as `1`/`0`/`"true"`/`"false"`. Never throws.
 */
export function toPlayerCommand(func: string, args: readonly unknown[]): NormalizedCommand | null {
  if (isLoadFunction(func)) return normalizeLoadCommand(func, args);
  switch (func) {
    case 'playVideo':
      return ok({ type: 'play' });
    case 'pauseVideo':
      return ok({ type: 'pause' });
    case 'stopVideo':
      return ok({ type: 'stop' });
    case 'clearVideo':
      return ok({ type: 'clear' });
    case 'mute':
      return ok({ type: 'mute' });
    case 'unMute':
      return ok({ type: 'unMute' });
    case 'nextVideo':
      return ok({ type: 'nextVideo' });
    case 'previousVideo':
      return ok({ type: 'previousVideo' });
    case 'seekTo': {
      const seconds = num(args[0]);
      if (!Number.isFinite(seconds)) return bad('seekTo needs a number of seconds');
      // allowSeekAhead defaults to true when the host leaves it out (undefined arrives as null in JSON).
      const allowSeekAhead = args[1] === undefined || args[1] === null ? true : (bool(args[1]) ?? Boolean(args[1]));
      return ok({ type: 'seek', seconds: Math.max(0, seconds), allowSeekAhead });
    }
    case 'setVolume': {
      const volume = num(args[0]);
      if (!Number.isFinite(volume)) return bad('setVolume needs a number from 0 to 100');
      return ok({ type: 'setVolume', volume: Math.min(100, Math.max(0, volume)) });
    }
    case 'setPlaybackRate': {
      const rate = num(args[0]);
      if (!Number.isFinite(rate) || rate <= 0) return bad('setPlaybackRate needs a positive number');
      return ok({ type: 'setPlaybackRate', rate });
    }
    case 'setPlaybackQuality':
      return shortString(args[0]) ? ok({ type: 'setPlaybackQuality', quality: args[0] }) : bad('setPlaybackQuality needs a quality name');
    case 'setSize': {
      const width = num(args[0]);
      const height = num(args[1]);
      if (!Number.isFinite(width) || !Number.isFinite(height) || width < 0 || height < 0) return bad('setSize needs two sizes');
      return ok({ type: 'setSize', width, height });
    }
    case 'playVideoAt': {
      const index = num(args[0]);
      if (!Number.isInteger(index) || index < 0) return bad('playVideoAt needs a zero-based index');
      return ok({ type: 'playVideoAt', index });
    }
    case 'setLoop': {
      const loop = bool(args[0]);
      return loop === undefined ? bad('setLoop needs a boolean') : ok({ type: 'setLoop', loop });
    }
    case 'setShuffle': {
      const shuffle = bool(args[0]);
      return shuffle === undefined ? bad('setShuffle needs a boolean') : ok({ type: 'setShuffle', shuffle });
    }
    case 'setOption': {
      const [module, option, value] = args;
      if (!shortString(module) || !shortString(option)) return bad('setOption needs a module and an option name');
      return ok({ type: 'setOption', module, option, value: value === undefined ? null : value });
    }
    case 'loadModule':
    case 'unloadModule': {
      // Modules other than captions have nothing to load here: ignored, as the public player ignores unknown ones.
      if (args[0] !== 'captions' && args[0] !== 'cc') return null;
      return ok({ type: 'setCaptions', enabled: func === 'loadModule' });
    }
    case 'setSphericalProperties': {
      // The view of a 360° video. Every catalogue video is flat, and the public player ignores the call for a flat
      // video (getSphericalProperties stays {}): a well-formed call changes nothing, a malformed one is onError 2.
      const p = args[0];
      if (!p || typeof p !== 'object' || Array.isArray(p)) return bad('setSphericalProperties needs an object');
      for (const [key, value] of Object.entries(p)) {
        const fine =
          key === 'enableOrientationSensor' ? typeof value === 'boolean' : ['fov', 'yaw', 'pitch', 'roll'].includes(key) ? Number.isFinite(value) : true;
        if (!fine) return bad(`setSphericalProperties: ${key} must be ${key === 'enableOrientationSensor' ? 'a boolean' : 'a number'}`);
      }
      return null;
    }
    case 'setCaptions': {
      const enabled = bool(args[0]);
      if (enabled === undefined) return bad('setCaptions needs a boolean');
      if (!(args[1] === undefined || args[1] === null || shortString(args[1]))) return bad('setCaptions needs a language code');
      return ok({ type: 'setCaptions', enabled, ...(shortString(args[1]) && { languageCode: args[1] }) });
    }
    default:
      return null;
  }
}
