import type { FocusEvent, ReactNode } from 'react';
import type { PlayerError, VideoData } from '../player/EmbedPlayer';
import type { Identity } from '../services/identity';
import { AccountControl } from './AccountControl';
import { ChannelBar } from './ChannelBar';
import { FeedbackControls } from './FeedbackControls';
import { NextIcon, ReplayIcon } from './icons';
import { TopActions } from './TopActions';
import type { ViewerActions } from './viewerActions';
import { useI18n } from '../i18n/I18nContext';
import { errorText } from './errorText';
import './overlays.css';
import './lightTheme.css';

const BIG_PLAY_PATH =
  'M66.5 7.7a8.5 8.5 0 0 0-6-6C55.2.3 34 .3 34 .3S12.8.3 7.5 1.7a8.5 8.5 0 0 0-6 6C.2 13 .2 24 .2 24s0 11 1.3 16.3a8.5 8.5 0 0 0 6 6C12.8 47.7 34 47.7 34 47.7s21.2 0 26.5-1.4a8.5 8.5 0 0 0 6-6C67.8 35 67.8 24 67.8 24s0-11-1.3-16.3z';

/** The title and the channel (with its bar when the viewer's actions are there). */
export function TitleBar({
  videoData,
  actions,
  identity,
  onOverlayChange,
}: {
  videoData: VideoData;
  actions?: ViewerActions;
  identity?: Identity;
  onOverlayChange: (open: boolean) => void;
}) {
  return (
    <div className="vf-titlebar">
      <span className="vf-title">{videoData.title}</span>
      {actions && identity ? (
        <ChannelBar actions={actions} identity={identity} author={videoData.author} onOverlayChange={onOverlayChange} />
      ) : (
        <span className="vf-author">{videoData.author}</span>
      )}
    </div>
  );
}

/** The top-right corner: the viewer's actions on the video (when there is one) and the account. */
export function TopRight({
  identity,
  actions,
  videoData,
  playlistId,
  currentTime,
  onOverlayChange,
}: {
  identity: Identity;
  actions?: ViewerActions;
  videoData: VideoData | null;
  playlistId: string | undefined;
  currentTime: () => number;
  onOverlayChange: (open: boolean) => void;
}) {
  return (
    <div className="vf-topright">
      {actions && videoData && (
        <TopActions
          actions={actions}
          identity={identity}
          win={window}
          videoId={videoData.videoId}
          playlistId={playlistId}
          currentTime={currentTime}
          onOverlayChange={onOverlayChange}
        />
      )}
      <AccountControl identity={identity} />
    </div>
  );
}

export function BufferingSpinner() {
  const { t } = useI18n();
  return (
    <div className="vf-spinner" role="status" aria-label={t('loading')}>
      <span className="vf-spinner-ring" />
    </div>
  );
}

export function BigPlayButton({ onPlay }: { onPlay: () => void }) {
  const { t } = useI18n();
  return (
    <button type="button" className="vf-bigplay" aria-label={t('play')} onClick={onPlay}>
      <svg viewBox="0 0 68 48" width="68" height="48" aria-hidden="true">
        <path className="vf-bigplay-bg" d={BIG_PLAY_PATH} />
        <path d="M45 24 27 14v20" fill="#fff" />
      </svg>
    </button>
  );
}

/** The end screen: the suggested videos (`children`), Replay, Next video when there is one, and the viewer's feedback. */
export function EndScreen({
  hasNext,
  actions,
  onReplay,
  onNext,
  children,
}: {
  hasNext: boolean;
  actions?: ViewerActions;
  onReplay: () => void;
  onNext: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className={children ? 'vf-endscreen vf-endscreen-suggesting' : 'vf-endscreen'}>
      {children}
      <button type="button" className="vf-end-replay" onClick={onReplay}>
        <ReplayIcon /> {t('replay')}
      </button>
      {hasNext && (
        <button type="button" className="vf-end-next" onClick={onNext}>
          <NextIcon /> {t('nextVideo')}
        </button>
      )}
      {actions && <FeedbackControls actions={actions} />}
    </div>
  );
}

/**
 * The layer of the control bar, hidden with the controls; `onFocusWithin` says whether keyboard focus is inside it
 * (`:focus-within` shows the auto-hidden bar).
 */
export function ControlChrome({ visible, onFocusWithin, children }: { visible: boolean; onFocusWithin: (focused: boolean) => void; children: ReactNode }) {
  return (
    <div
      className={visible ? 'vf-chrome' : 'vf-chrome vf-chrome-hidden'}
      onFocus={() => onFocusWithin(true)}
      onBlur={(e: FocusEvent<HTMLDivElement>) => onFocusWithin(e.currentTarget.contains(e.relatedTarget as Node | null))}
    >
      {children}
    </div>
  );
}

export function AutoplayNotice() {
  const { t } = useI18n();
  return (
    <div className="vf-notice" role="status">
      {t('autoplayBlocked')}
    </div>
  );
}

/** The failure in the viewer's language (`errorText`), with its host code. */
export function ErrorScreen({ error }: { error: PlayerError }) {
  const i18n = useI18n();
  return (
    <div className="vf-error" role="alert" data-error-code={error.code} data-error-internal={error.internal}>
      <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
        <path fill="currentColor" d="M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z" />
      </svg>
      <p className="vf-error-message">{errorText(error, i18n)}</p>
      <p className="vf-error-detail">{i18n.t('errorCode', { code: i18n.number(error.code, { useGrouping: false }) })}</p>
    </div>
  );
}
