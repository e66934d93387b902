import { useEffect, useRef, useState } from 'react';
import { useObservableEagerState } from 'observable-hooks';
import type { ViewerVideoView } from '../../../streams/platform/videoViewerState';
import type { Identity } from '../services/identity';
import { SavedIcon, ShareIcon, WatchLaterIcon } from './icons';
import { ShareDialog } from './ShareDialog';
import { SignInInvite } from './SignInInvite';
import { useActionRunner } from './useActionRunner';
import type { ViewerActions } from './viewerActions';
import { useI18n } from '../i18n/I18nContext';

/**
 * The top-right actions of the video: Watch later (adds or removes it, `browse/edit_playlist`; a signed-out viewer is
 * invited to sign in) and Share (the share panel). Icon buttons with their own names and pressed state.
 */
export function TopActions({
  actions,
  identity,
  win,
  videoId,
  playlistId,
  currentTime,
  onOverlayChange,
}: {
  actions: ViewerActions;
  identity: Identity;
  win: Window;
  videoId: string;
  playlistId?: string;
  currentTime: () => number;
  /** Told when the share panel or the sign-in invitation opens and closes (the player keeps its overlays up). */
  onOverlayChange?: (open: boolean) => void;
}) {
  const view: ViewerVideoView = useObservableEagerState(actions.view$);
  const session = useObservableEagerState(identity.session$);
  const { busy, message, run } = useActionRunner();
  const [invite, setInvite] = useState(false);
  const [share, setShare] = useState<{ time: number } | null>(null);
  const watchLaterButton = useRef<HTMLButtonElement>(null);
  const shareButton = useRef<HTMLButtonElement>(null);
  const overlay = share !== null || invite;
  useEffect(() => {
    onOverlayChange?.(overlay);
    return () => onOverlayChange?.(false);
  }, [overlay, onOverlayChange]);
  const { t } = useI18n();
  const saved = session !== null && view.status === 'ready' && view.videoId === videoId && view.state.inWatchLater === true;

  const onWatchLater = async () => {
    if (!session) return setInvite(true);
    await run(() => actions.setWatchLater(videoId, !saved));
  };

  return (
    <>
      <button
        ref={watchLaterButton}
        type="button"
        className="vf-icon-button vf-watch-later"
        aria-label={t(saved ? 'removeFromWatchLater' : 'watchLater')}
        aria-pressed={saved}
        title={t(saved ? 'savedToWatchLater' : 'watchLater')}
        disabled={busy}
        onClick={() => void onWatchLater()}
      >
        {saved ? <SavedIcon /> : <WatchLaterIcon />}
      </button>
      <button
        ref={shareButton}
        type="button"
        className="vf-icon-button vf-share-button"
        aria-label={t('share')}
        aria-haspopup="dialog"
        aria-expanded={share !== null}
        title={t('share')}
        onClick={() => setShare({ time: currentTime() })}
      >
        <ShareIcon />
      </button>
      {message && (
        <span className="vf-action-error" role="alert">
          {message}
        </span>
      )}
      {invite && (
        <SignInInvite
          identity={identity}
          message={t('signInToWatchLater')}
          onClose={() => {
            setInvite(false);
            watchLaterButton.current?.focus();
          }}
        />
      )}
      {share && (
        <ShareDialog
          actions={actions}
          win={win}
          videoId={videoId}
          playlistId={playlistId}
          currentTime={share.time}
          onClose={() => {
            setShare(null);
            shareButton.current?.focus();
          }}
        />
      )}
    </>
  );
}
