/**
 * Type compatibility with @types/youtube (issue 16 item 2): our Player where `YT.Player` is expected, every public
 * method included (setSphericalProperties / getSphericalProperties), getters typed as the IFrame API documents them
 * (not `T | undefined`), quality as `YT.SuggestedVideoQuality`.
 */
import { Player } from 'vidframe';

declare const element: HTMLElement;

// An instance where a YT.Player is expected (strictNullChecks: a `number | undefined` getter would not fit).
const asYT: YT.Player = new Player(element);
// The class where YT.Player's constructor is expected (libraries call `new YT.Player(elementOrId, options)`).
const Ctor: typeof YT.Player = Player;
const fromLibrary: YT.Player = new Ctor('player', { videoId: 'VFsunrise01', events: { onStateChange: (e) => console.log(e.data === YT.PlayerState.ENDED) } });

function usesYT(player: YT.Player): void {
  player.setSphericalProperties({ yaw: 90, fov: 100 });
  const view: YT.SphericalProperties = player.getSphericalProperties();
  const quality: YT.SuggestedVideoQuality = player.getPlaybackQuality();
  player.setPlaybackQuality('hd720');
  console.log(view, quality, player.getAvailableQualityLevels(), player.getVideoData().video_id);
}
usesYT(asYT);
usesYT(fromLibrary);

// Our own getters, read directly, have the documented types too.
const ours = new Player(element);
const state: YT.PlayerState = ours.getPlayerState();
const levels: YT.SuggestedVideoQuality[] = ours.getAvailableQualityLevels();
const time: number = ours.getCurrentTime();
const playlist: string[] = ours.getPlaylist();
console.log(state, levels, time, playlist);
