import {
  MEDIA_SESSION_ACTIONS,
  mediaSessionCommand,
  mediaSessionMetadata,
  mediaSessionPlaybackState,
  mediaSessionPosition,
  offeredMediaSessionActions,
} from '../../../streams/player/mediaSession';
import { PlayerState } from '../../../streams/player/playerState';
import { KEYBOARD_SEEK_LARGE_S } from '../../../streams/timing';

describe('the Media Session of the page', () => {
  it('shows the video’s title, channel and poster, and nothing for a video without a title', () => {
    expect(mediaSessionMetadata({ title: 'City lights', author: 'VidFrame Samples', posterUrl: '/vi/VFcitylight/poster' })).toEqual({
      title: 'City lights',
      artist: 'VidFrame Samples',
      artwork: [{ src: '/vi/VFcitylight/poster' }],
    });
    expect(mediaSessionMetadata({ title: 'No poster', author: 'A' })).toEqual({ title: 'No poster', artist: 'A', artwork: [] });
    expect(mediaSessionMetadata({ title: '', author: 'A' })).toBeNull();
    expect(mediaSessionMetadata(null)).toBeNull();
  });

  it('is playing while the player plays or buffers, paused once a video is there, none before', () => {
    expect(mediaSessionPlaybackState(PlayerState.PLAYING)).toBe('playing');
    expect(mediaSessionPlaybackState(PlayerState.BUFFERING)).toBe('playing');
    for (const state of [PlayerState.PAUSED, PlayerState.CUED, PlayerState.ENDED]) expect(mediaSessionPlaybackState(state)).toBe('paused');
    expect(mediaSessionPlaybackState(PlayerState.UNSTARTED)).toBe('none');
  });

  it('offers the previous and next track only while a playlist plays', () => {
    expect(offeredMediaSessionActions(true)).toEqual(MEDIA_SESSION_ACTIONS);
    expect(offeredMediaSessionActions(false)).toEqual(['play', 'pause', 'stop', 'seekbackward', 'seekforward', 'seekto']);
  });

  it('turns each action into a player command; seeks stay within the video and keep its state', () => {
    const at = { currentTime: 30, duration: 36 };
    expect(mediaSessionCommand('play', {}, at)).toEqual({ type: 'play' });
    expect(mediaSessionCommand('pause', {}, at)).toEqual({ type: 'pause' });
    expect(mediaSessionCommand('stop', {}, at)).toEqual({ type: 'stop' });
    const seek = (seconds: number) => ({ type: 'seek', seconds, allowSeekAhead: true, keepState: true });
    expect(mediaSessionCommand('seekbackward', {}, at)).toEqual(seek(30 - KEYBOARD_SEEK_LARGE_S));
    expect(mediaSessionCommand('seekbackward', { seekOffset: 5 }, at)).toEqual(seek(25));
    expect(mediaSessionCommand('seekbackward', { seekOffset: 60 }, at)).toEqual(seek(0));
    expect(mediaSessionCommand('seekforward', {}, at)).toEqual(seek(36));
    expect(mediaSessionCommand('seekforward', { seekOffset: 2 }, at)).toEqual(seek(32));
    expect(mediaSessionCommand('seekto', { seekTime: 12.5 }, at)).toEqual(seek(12.5));
    expect(mediaSessionCommand('seekto', {}, at)).toBeNull();
    expect(mediaSessionCommand('seekto', { seekTime: NaN }, at)).toBeNull();
    // No length known yet: forward is not bounded by it.
    expect(mediaSessionCommand('seekforward', {}, { currentTime: 3, duration: 0 })).toEqual(seek(13));
    expect(mediaSessionCommand('previoustrack', {}, at)).toEqual({ type: 'previousVideo' });
    expect(mediaSessionCommand('nexttrack', {}, at)).toEqual({ type: 'nextVideo' });
  });

  it('shows the position within the video, and none before its length is known', () => {
    expect(mediaSessionPosition({ currentTime: 4, duration: 12, playbackRate: 1.5 })).toEqual({ duration: 12, playbackRate: 1.5, position: 4 });
    expect(mediaSessionPosition({ currentTime: 13, duration: 12, playbackRate: 0 })).toEqual({ duration: 12, playbackRate: 1, position: 12 });
    expect(mediaSessionPosition({ currentTime: 0, duration: 0, playbackRate: 1 })).toBeNull();
    expect(mediaSessionPosition({ currentTime: 0, duration: Infinity, playbackRate: 1 })).toBeNull();
  });
});
