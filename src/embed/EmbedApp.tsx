import { useCallback } from 'react';
import { useObservableEagerState, useSubscription } from 'observable-hooks';
import { combineLatest, filter } from 'rxjs';
import { parseBooleanVar, PLAYER_STYLE_TRANSPARENT } from '../../streams/config/playerConfig';
import { PlayerState } from '../../streams/player/playerState';
import { pageTitle } from '../../streams/player/pageTitle';
import type { EmbedPlayer } from './EmbedPlayer';

/**
 * The embedded player page: the `<video>`, a title bar, the big play button on a cued video, and the messages a
 * viewer needs (an error, autoplay blocked). It reads the player only through observable hooks.
 */
export function EmbedApp({ player }: { player: EmbedPlayer }) {
  const { config } = player;
  const state = useObservableEagerState(player.state$);
  const readiness = useObservableEagerState(player.readiness$);
  const videoData = useObservableEagerState(player.videoData$);
  const error = useObservableEagerState(player.error$);
  const autoplayBlocked = useObservableEagerState(player.autoplayBlocked$);

  // Spec §2: the title follows the video data, set on ready and on every change of the video data.
  useSubscription(
    combineLatest([player.readiness$.pipe(filter((r) => r === 'ready')), player.videoData$]),
    ([, data]) => {
      document.title = pageTitle(data?.title);
    },
  );

  const attach = useCallback((el: HTMLVideoElement | null) => player.attach(el), [player]);
  const controls = parseBooleanVar(config.args.playerVars.controls) !== false;
  const transparent = config.args.ps === PLAYER_STYLE_TRANSPARENT;
  const showBigPlay = !error && (state === PlayerState.CUED || autoplayBlocked) && state !== PlayerState.PLAYING;

  return (
    <div
      id={config.attrs.id}
      className="vf-player"
      data-theme={config.args.theme}
      data-player-style={config.args.ps ?? ''}
      data-state={state}
      data-readiness={readiness}
      style={{ width: config.attrs.width, height: config.attrs.height, background: transparent ? 'transparent' : undefined }}
    >
      <video
        ref={attach}
        className="vf-video"
        controls={controls && !error}
        playsInline={parseBooleanVar(config.args.playerVars.playsinline) !== false}
        poster={videoData?.posterUrl}
        aria-label={videoData?.title ?? 'Video player'}
      />
      {videoData && !error && state !== PlayerState.PLAYING && (
        <div className="vf-titlebar">
          <span className="vf-title">{videoData.title}</span>
          <span className="vf-author">{videoData.author}</span>
        </div>
      )}
      {showBigPlay && (
        <button type="button" className="vf-bigplay" aria-label="Play" onClick={() => player.play()}>
          <svg viewBox="0 0 68 48" width="68" height="48" aria-hidden="true">
            <path className="vf-bigplay-bg" d="M66.5 7.7a8.5 8.5 0 0 0-6-6C55.2.3 34 .3 34 .3S12.8.3 7.5 1.7a8.5 8.5 0 0 0-6 6C.2 13 .2 24 .2 24s0 11 1.3 16.3a8.5 8.5 0 0 0 6 6C12.8 47.7 34 47.7 34 47.7s21.2 0 26.5-1.4a8.5 8.5 0 0 0 6-6C67.8 35 67.8 24 67.8 24s0-11-1.3-16.3z" />
            <path d="M45 24 27 14v20" fill="#fff" />
          </svg>
        </button>
      )}
      {autoplayBlocked && !error && (
        <div className="vf-notice" role="status">
          Your browser blocked autoplay. Press play to start the video.
        </div>
      )}
      {error && (
        <div className="vf-error" role="alert" data-error-code={error.code} data-error-internal={error.internal}>
          <p className="vf-error-message">{error.message}</p>
          <p className="vf-error-detail">Error {error.code}</p>
        </div>
      )}
    </div>
  );
}
