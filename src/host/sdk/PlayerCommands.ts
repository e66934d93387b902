import type { PlaylistOptions, SphericalProperties, VideoByIdOptions, VideoByUrlOptions, VideoQuality } from './types';

/**
 * The command methods of the public `YT.Player` (host-protocol §4), each a `command` message to the embed. They exist
 * from the start: {@link PlayerCommands.command} decides when the message goes out (the `Player` queues it
 * until the embed answered, and drops it once destroyed).
 */
export abstract class PlayerCommands {
  /** Sends (or queues) the command `func` with its arguments. */
  protected abstract command(func: string, args?: unknown[]): void;

  playVideo(): void {
    this.command('playVideo');
  }
  pauseVideo(): void {
    this.command('pauseVideo');
  }
  stopVideo(): void {
    this.command('stopVideo');
  }
  clearVideo(): void {
    this.command('clearVideo');
  }
  seekTo(seconds: number, allowSeekAhead = true): void {
    this.command('seekTo', [seconds, allowSeekAhead]);
  }
  mute(): void {
    this.command('mute');
  }
  unMute(): void {
    this.command('unMute');
  }
  /** 0 to 100. */
  setVolume(volume: number): void {
    this.command('setVolume', [volume]);
  }
  setPlaybackRate(rate: number): void {
    this.command('setPlaybackRate', [rate]);
  }
  /** A {@link VideoQuality}, or the embed's own `auto`. */
  setPlaybackQuality(quality: VideoQuality | 'auto' | (string & {})): void {
    this.command('setPlaybackQuality', [quality]);
  }
  /** The view of a 360° video (`fov`, `yaw`, `pitch`, `roll`, `enableOrientationSensor`); a flat video ignores it. */
  setSphericalProperties(properties: SphericalProperties): void {
    this.command('setSphericalProperties', [properties]);
  }
  nextVideo(): void {
    this.command('nextVideo');
  }
  previousVideo(): void {
    this.command('previousVideo');
  }
  /** Zero-based. */
  playVideoAt(index: number): void {
    this.command('playVideoAt', [index]);
  }
  setLoop(loop: boolean): void {
    this.command('setLoop', [loop]);
  }
  setShuffle(shuffle: boolean): void {
    this.command('setShuffle', [shuffle]);
  }
  /** e.g. `setOption('captions', 'track', { languageCode: 'en' })`; `{}` turns captions off. */
  setOption(module: string, option: string, value: unknown): void {
    this.command('setOption', [module, option, value]);
  }
  loadModule(module: string): void {
    this.command('loadModule', [module]);
  }
  unloadModule(module: string): void {
    this.command('unloadModule', [module]);
  }

  loadVideoById(videoId: string, startSeconds?: number, suggestedQuality?: string): void;
  loadVideoById(options: VideoByIdOptions): void;
  loadVideoById(...args: unknown[]): void {
    this.command('loadVideoById', args);
  }
  cueVideoById(videoId: string, startSeconds?: number, suggestedQuality?: string): void;
  cueVideoById(options: VideoByIdOptions): void;
  cueVideoById(...args: unknown[]): void {
    this.command('cueVideoById', args);
  }
  loadVideoByUrl(mediaContentUrl: string, startSeconds?: number, suggestedQuality?: string): void;
  loadVideoByUrl(options: VideoByUrlOptions): void;
  loadVideoByUrl(...args: unknown[]): void {
    this.command('loadVideoByUrl', args);
  }
  cueVideoByUrl(mediaContentUrl: string, startSeconds?: number, suggestedQuality?: string): void;
  cueVideoByUrl(options: VideoByUrlOptions): void;
  cueVideoByUrl(...args: unknown[]): void {
    this.command('cueVideoByUrl', args);
  }
  loadPlaylist(playlist: string | string[], index?: number, startSeconds?: number, suggestedQuality?: string): void;
  loadPlaylist(options: PlaylistOptions): void;
  loadPlaylist(...args: unknown[]): void {
    this.command('loadPlaylist', args);
  }
  cuePlaylist(playlist: string | string[], index?: number, startSeconds?: number, suggestedQuality?: string): void;
  cuePlaylist(options: PlaylistOptions): void;
  cuePlaylist(...args: unknown[]): void {
    this.command('cuePlaylist', args);
  }
}
