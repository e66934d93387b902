import type { PlayerConfig, PlayerResponse } from '../../../streams/config/playerConfig';

/** A playable answer with two renditions (and two caption tracks when asked). */
export const response = (id: string, captions = false): PlayerResponse => ({
  playabilityStatus: { status: 'OK' },
  videoDetails: { videoId: id, title: `Title ${id}`, author: 'A', lengthSeconds: 12 },
  streamingData: {
    formats: [
      { quality: 'small', width: 426, height: 240, url: `/media/${id}/small.webm`, mimeType: 'video/webm', contentLength: 100 },
      { quality: 'medium', width: 640, height: 360, url: `/media/${id}/medium.webm`, mimeType: 'video/webm', contentLength: 200 },
    ],
  },
  captions: {
    tracks: captions
      ? [
          { languageCode: 'en', languageName: 'English', url: '/en.vtt' },
          { languageCode: 'es', languageName: 'Spanish', url: '/es.vtt' },
        ]
      : [],
  },
});

/** A configuration for `id` with these player variables. */
export const configFor = (vars: Record<string, string> = {}, id = 'VFsunrise01'): PlayerConfig => ({
  args: { video_id: id, playerVars: vars, autoplay: vars.autoplay ?? '0', fflags: '', theme: 'dark', player_response: response(id, true) },
  attrs: { width: '100%', height: '100%', id: 'video-player' },
  assets: { js: '', css: '' },
  loaded: true,
});
