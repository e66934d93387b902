/**
 * A react-youtube app, written as react-youtube's README writes one: `opts`, `onReady` pausing through
 * `event.target`, `YouTube.PlayerState` in `onStateChange`, a ref and `getInternalPlayer()` (whose methods return
 * promises). Its react-youtube version differs by the import line of `vidframe/react` only (the package tests check
 * that line and type-check both versions; test/e2e/reactYoutube.e2e.ts runs this one against the real embed).
 */
import { useRef, useState } from 'react';
import YouTube, { type YouTubeProps } from 'vidframe/react';

export default function Example({ host }: { host?: string }) {
  const player = useRef<YouTube>(null);
  const [events, setEvents] = useState<string[]>([]);
  const [time, setTime] = useState<number>();
  const log = (text: string) => setEvents((seen) => [...seen, text]);

  const onPlayerReady: YouTubeProps['onReady'] = (event) => {
    // access to player in all event handlers via event.target
    event.target.pauseVideo();
    log('ready');
  };
  const onStateChange: YouTubeProps['onStateChange'] = (event) => {
    if (event.data === YouTube.PlayerState.PLAYING) log('playing');
    else if (event.data === YouTube.PlayerState.PAUSED) log('paused');
    else log(`state ${String(event.data)}`);
  };
  const opts: YouTubeProps['opts'] = {
    height: '390',
    width: '640',
    host,
    playerVars: {
      // https://developers.google.com/youtube/player_parameters
      autoplay: 0,
    },
  };

  return (
    <div>
      <YouTube ref={player} videoId="VFsunrise01" opts={opts} onReady={onPlayerReady} onStateChange={onStateChange} onPlay={() => log('onPlay')} />
      <button type="button" onClick={() => void player.current?.getInternalPlayer()?.playVideo()}>
        Play
      </button>
      <button type="button" onClick={() => void player.current?.getInternalPlayer()?.pauseVideo()}>
        Pause
      </button>
      <button
        type="button"
        onClick={() => {
          const internal = player.current?.getInternalPlayer();
          if (internal) void internal.getCurrentTime().then(setTime);
        }}
      >
        Time
      </button>
      <output data-testid="time">{time === undefined ? '' : time.toFixed(1)}</output>
      <ol data-testid="events">
        {events.map((text, i) => (
          <li key={i}>{text}</li>
        ))}
      </ol>
    </div>
  );
}
