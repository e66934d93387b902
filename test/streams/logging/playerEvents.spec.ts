import { playerEvents } from '../../../streams/logging/playerEvents';

describe('playerEvents (what the player logs)', () => {
  it('builds one named ClientEvent per catalogue entry', () => {
    const v = 'VFsunrise01';
    expect([
      playerEvents.load({ videoId: v, autoplay: true }).name,
      playerEvents.ready({ videoId: v, latencyMs: 1 }).name,
      playerEvents.stateChange({ videoId: v, previousState: 5, state: 1, mediaTimeSec: 0 }).name,
      playerEvents.watchTimeSegment({ videoId: v, startSec: 0, endSec: 2, playbackRate: 1, muted: false, volume: 50 }).name,
      playerEvents.seek({ videoId: v, fromSec: 0, toSec: 9 }).name,
      playerEvents.qualityChange({ videoId: v, previousQuality: 'medium', quality: 'hd720' }).name,
      playerEvents.playbackRateChange({ videoId: v, previousRate: 1, rate: 2 }).name,
      playerEvents.volumeChange({ videoId: v, volume: 10, muted: true }).name,
      playerEvents.hostCommand({ command: 'playVideo', hostOrigin: 'https://host.test', accepted: false }).name,
      playerEvents.visibilityChange({ state: 'hidden' }).name,
      playerEvents.networkChange({ online: false }).name,
      playerEvents.error({ internalError: 'api.invalidparam', hostErrorCode: 2 }).name,
    ]).toEqual([
      'playerLoad',
      'playerReady',
      'playerStateChange',
      'watchTimeSegment',
      'playerSeek',
      'qualityChange',
      'playbackRateChange',
      'volumeChange',
      'hostCommandReceived',
      'visibilityChange',
      'networkChange',
      'playerError',
    ]);
  });

  it('keeps numbers sane: whole non-negative latency, clamped volume, no NaN, ordered segments', () => {
    expect(playerEvents.ready({ videoId: 'v', latencyMs: -3.2 }).payload.latencyMs).toBe(0);
    expect(playerEvents.ready({ videoId: 'v', latencyMs: 812.6 }).payload.latencyMs).toBe(813);
    expect(playerEvents.volumeChange({ videoId: 'v', volume: 140, muted: false }).payload.volume).toBe(100);
    expect(playerEvents.seek({ videoId: 'v', fromSec: Number.NaN, toSec: 4 }).payload.fromSec).toBe(0);
    expect(playerEvents.watchTimeSegment({ videoId: 'v', startSec: 5, endSec: 3, playbackRate: Number.NaN, muted: false, volume: 1 }).payload).toMatchObject({
      startSec: 5,
      endSec: 5,
      playbackRate: 1,
    });
  });

  it('marks a debugging event, which the sink routes to video_stats', () => {
    const e = playerEvents.asDebug(playerEvents.error({ internalError: 'fmt.decode', hostErrorCode: 5 }));
    expect(e).toEqual({ name: 'playerError', payload: { internalError: 'fmt.decode', hostErrorCode: 5 }, debug: true });
    expect(playerEvents.load({ videoId: 'v', autoplay: false })).not.toHaveProperty('debug');
  });
});
