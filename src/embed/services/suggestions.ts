import { catchError, map, type Observable, of } from 'rxjs';
import { parseBooleanVar } from '../../../streams/config/playerConfig';
import { readEndScreenSuggestions, type Suggestion } from '../../../streams/player/endScreenSuggestions';
import type { EmbedApi } from './api';

/** The videos to suggest after (and while paused in) a video; none when they cannot be had. */
export type SuggestionLoader = (videoId: string) => Observable<Suggestion[]>;

/**
 * Asks `next {videoId}` for the end screen's suggestions. The player's `rel` decides whose: `rel=0` asks the server for
 * the video's own channel only (`sameChannelOnly`: the server filters before it caps the list), `rel=1` or none for
 * any channel. A failed call suggests nothing: the end screen keeps its buttons.
 */
export function createSuggestionLoader(api: Pick<EmbedApi, 'fetchApi'>, playerVars: { rel?: string }): SuggestionLoader {
  const sameChannelOnly = parseBooleanVar(playerVars.rel) === false;
  return (videoId) =>
    api.fetchApi('next', { videoId, sameChannelOnly }).pipe(
      map((response) => readEndScreenSuggestions(response.body, videoId)),
      catchError(() => of([])),
    );
}
