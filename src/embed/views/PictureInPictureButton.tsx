import { useObservable, useObservableState } from 'observable-hooks';
import { fromEvent, map, merge, type Observable, of, startWith, switchMap } from 'rxjs';
import { ExitPictureInPictureIcon, PictureInPictureIcon } from './icons';
import { useI18n } from '../i18n/I18nContext';

/** Whether the browser can show `video` picture-in-picture (the frame's permissions and the element allow it). */
const available = (video: HTMLVideoElement) =>
  video.ownerDocument.pictureInPictureEnabled === true && !video.disablePictureInPicture && typeof video.requestPictureInPicture === 'function';

/** Whether `video` is the one shown picture-in-picture, as its own events tell (leaving from the browser's window too). */
const inPictureOf = (video: HTMLVideoElement | null): Observable<boolean> =>
  video === null
    ? of(false)
    : merge(fromEvent(video, 'enterpictureinpicture'), fromEvent(video, 'leavepictureinpicture')).pipe(
        map(() => video.ownerDocument.pictureInPictureElement === video),
        startWith(video.ownerDocument.pictureInPictureElement === video),
      );

/**
 * The picture-in-picture button: the player's video in a window of its own over the viewer's other windows, and back.
 * Nothing where the browser or the frame does not allow it, or before the player has its element.
 */
export function PictureInPictureButton({ element$ }: { element$: Observable<HTMLVideoElement | null> }) {
  const video = useObservableState(element$, null);
  const inPicture$ = useObservable((inputs$) => inputs$.pipe(switchMap(([v]) => inPictureOf(v))), [video]);
  const inPicture = useObservableState(inPicture$, false);
  const { t } = useI18n();
  if (video === null || !available(video)) return null;
  const doc = video.ownerDocument;
  const toggle = () => {
    // Refused (no metadata yet, the browser's own rules): the button stays as it is.
    if (doc.pictureInPictureElement) void doc.exitPictureInPicture().catch(() => undefined);
    else void video.requestPictureInPicture().catch(() => undefined);
  };
  return (
    <button
      type="button"
      className="vf-button vf-pip"
      aria-label={t(inPicture ? 'exitPictureInPicture' : 'pictureInPicture')}
      aria-pressed={inPicture}
      onClick={toggle}
    >
      {inPicture ? <ExitPictureInPictureIcon /> : <PictureInPictureIcon />}
    </button>
  );
}
