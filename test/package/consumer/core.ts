/**
 * A host app's use of the core entry. Type-checked with strict + noImplicitAny under bundler, node16 and nodenext:
 * a declaration that failed to resolve would make `event`, `state`, … implicitly `any` (an error here), and every
 * `@ts-expect-error` below must meet a real error (an `any` Player would accept the misuse, failing the check).
 */
import { buildEmbedUrl, Player, PlayerState, type PlayerInfoCache, type PlayerStateValue } from 'vidframe';

export function drive(element: HTMLElement): Player {
  const player = new Player(element, { host: 'https://embed.example', videoId: 'VFsunrise01', playerVars: { autoplay: 0 } });
  player.addEventListener('onStateChange', (event) => {
    const state: PlayerStateValue = event.data;
    if (state === PlayerState.PLAYING) event.target.pauseVideo();
  });
  player.state$.subscribe((state) => {
    const value: number = state;
    console.log(value);
  });
  player.events$('onVolumeChange').subscribe(({ volume, muted }) => console.log(volume.toFixed(0), muted === true));
  player.info$.subscribe((info: PlayerInfoCache) => console.log(info.duration?.toFixed(1)));
  // @ts-expect-error seekTo takes seconds
  player.seekTo('later', true);
  // @ts-expect-error onError carries a number
  player.events$('onError').subscribe((code) => code.toUpperCase());
  // @ts-expect-error the options are checked
  new Player(element, { width: { px: 3 } });
  const url: string = buildEmbedUrl({ host: 'https://embed.example', videoId: 'VFsunrise01', pageOrigin: 'https://host.example', widgetId: 1 });
  console.log(url);
  return player;
}
