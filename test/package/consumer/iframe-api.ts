/// <reference types="vidframe/iframe_api" />
/**
 * A page that loads the classic /iframe_api script: `YT.PlayerState`, `YT.ready` and `onYouTubeIframeAPIReady` are
 * declared by the package (its global declarations extend @types/youtube's `YT`).
 */
window.onYouTubeIframeAPIReady = () => {
  const player = new YT.Player('player', {
    videoId: 'VFsunrise01',
    events: { onStateChange: (event) => (event.data === YT.PlayerState.ENDED ? event.target.playVideo() : undefined) },
  });
  console.log(player.getDuration().toFixed(1));
};
YT.ready(() => console.log(YT.loaded === 1));
YT.setConfig({ host: 'https://embed.example' });
// @ts-expect-error ready takes a callback
YT.ready(42);
// @ts-expect-error the script's callback takes no arguments and returns nothing useful: not a string
window.onYouTubeIframeAPIReady = 'later';
export {};
