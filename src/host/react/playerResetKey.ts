import { buildEmbedUrl } from '../sdk/buildEmbedUrl';
import type { PlayerOptions, PlayerVarValue } from '../sdk/types';

/**
 * Player variables a new video takes without a new iframe: `autoplay` chooses between loading and cueing it,
 * `start` and `end` go with the load/cue command (as react-youtube treats them).
 */
export const VIDEO_UPDATE_VARS: readonly string[] = ['autoplay', 'start', 'end'];

/**
 * What the iframe was built from, by value: the embed origin and every player variable but {@link VIDEO_UPDATE_VARS},
 * written as the embed URL writes them (`true` and `1` are the same `1`, an `undefined` or `null` variable is no
 * variable, key order does not matter). Two options with the same key need the same iframe; a different key needs a
 * new player, since an embed reads its variables once, when it loads.
 */
export function playerResetKey({ host, playerVars = {} }: Pick<PlayerOptions, 'host' | 'playerVars'>): string {
  const kept = Object.keys(playerVars)
    .filter((name) => !VIDEO_UPDATE_VARS.includes(name))
    .sort()
    .map((name) => [name, (playerVars as Record<string, PlayerVarValue>)[name]] as const);
  const query = buildEmbedUrl({ host: 'http://vidframe.invalid', playerVars: Object.fromEntries(kept), pageOrigin: '', widgetId: 0 }).split('?')[1];
  return JSON.stringify([host ?? null, query]);
}
