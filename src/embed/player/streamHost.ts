import type { Subscription } from 'rxjs';
import type { PlayerResponse } from '../../../streams/config/playerConfig';
import type { AdaptiveEvent, AdaptiveSession } from './mse/startAdaptive';

/** The element's adaptive stream, if any: one at a time, loaded with the engine's chunk when the first one starts. */
export interface StreamHost {
  /** Streams this response into the element (the one streaming before stops). */
  attach(el: HTMLVideoElement, response: PlayerResponse, options: { preference: string; startSeconds: number }): void;
  /** The quality preference of the stream playing: `auto` or a quality name. */
  setQuality(quality: string): void;
  /** Stops the stream, if one plays. */
  detach(): void;
}

/** Whether this browser has Media Source Extensions (`MediaSource`, or `ManagedMediaSource` on Safari and iOS). */
export const canStream = (win: object = globalThis): boolean => 'MediaSource' in win || 'ManagedMediaSource' in win;

/**
 * The stream host of a player. The engine (`mse/startAdaptive.ts`) is its own chunk, fetched when the first stream
 * starts, so a page that plays only progressive files never loads it. A chunk that cannot be fetched fails the
 * video as a stream that cannot start (`html5.missingapi`), as every other failure of the stream is said: `report`.
 */
export function createStreamHost(report: (event: AdaptiveEvent) => void): StreamHost {
  let session: AdaptiveSession | null = null;
  let events: Subscription | null = null;
  let attachments = 0;
  const detach = () => {
    attachments += 1;
    events?.unsubscribe();
    session?.stop();
    events = null;
    session = null;
  };
  return {
    attach: (el, response, options) => {
      detach();
      const mine = attachments;
      import('./mse/startAdaptive').then(
        ({ startAdaptive }) => {
          if (mine !== attachments) return;
          session = startAdaptive(el, response, options);
          events = session.events$.subscribe(report);
        },
        () => {
          if (mine === attachments) report({ type: 'failed', internal: 'html5.missingapi', message: 'The streaming engine could not be loaded.' });
        },
      );
    },
    setQuality: (quality) => session?.setPreference(quality),
    detach,
  };
}
