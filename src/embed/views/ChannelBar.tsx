import { useEffect, useRef, useState } from 'react';
import { useObservableEagerState } from 'observable-hooks';
import { NOTIFICATION_LEVELS, type NotificationLevel } from '../../../streams/platform/payloads';
import type { ViewerVideoView } from '../../../streams/platform/videoViewerState';
import type { Identity } from '../services/identity';
import { BellIcon, BellOffIcon } from './icons';
import { SignInInvite } from './SignInInvite';
import { useActionRunner } from './useActionRunner';
import type { ViewerActions } from './viewerActions';
import { useI18n } from '../i18n/I18nContext';
import type { MessageKey } from '../i18n/catalogs/en';

const LEVEL_LABELS: Record<NotificationLevel, MessageKey> = { all: 'notificationsAll', personalized: 'notificationsPersonalized', none: 'notificationsNone' };

/**
 * The video's channel under its title, with Subscribe / Subscribed and, while subscribed, the notification bell
 * (All, Personalized, None). A signed-out viewer who presses Subscribe is invited to sign in. Until the viewer's state
 * is known the author's name stands alone; a failed action says why and changes nothing.
 */
export function ChannelBar({
  actions,
  identity,
  author,
  onOverlayChange,
}: {
  actions: ViewerActions;
  identity: Identity;
  author: string;
  /** Told when the bell menu or the sign-in invitation opens and closes (the player keeps its overlays up). */
  onOverlayChange?: (open: boolean) => void;
}) {
  const view: ViewerVideoView = useObservableEagerState(actions.view$);
  const session = useObservableEagerState(identity.session$);
  const { busy, message, run } = useActionRunner();
  const [invite, setInvite] = useState(false);
  const [bellOpen, setBellOpen] = useState(false);
  const subscribeButton = useRef<HTMLButtonElement>(null);
  const bellButton = useRef<HTMLButtonElement>(null);
  const { t } = useI18n();
  const overlay = invite || bellOpen;
  useEffect(() => {
    onOverlayChange?.(overlay);
    return () => onOverlayChange?.(false);
  }, [overlay, onOverlayChange]);
  if (view.status !== 'ready') return <span className="vf-author">{author}</span>;
  const { channel } = view.state;
  const subscribed = session !== null && channel.subscribed === true;

  const onSubscribe = () => {
    if (!session) return setInvite(true);
    void run(() => (subscribed ? actions.unsubscribe(channel.channelId) : actions.subscribe(channel.channelId)));
  };
  const choose = (level: NotificationLevel) => {
    setBellOpen(false);
    bellButton.current?.focus();
    void run(() => actions.setNotifications(channel.channelId, level));
  };

  return (
    <div className="vf-channel" data-subscribed={subscribed ? 'true' : 'false'}>
      <span className="vf-author">{channel.title}</span>
      <button
        ref={subscribeButton}
        type="button"
        className={subscribed ? 'vf-pill vf-subscribe vf-subscribed' : 'vf-pill vf-pill-primary vf-subscribe'}
        aria-pressed={subscribed}
        aria-label={t(subscribed ? 'unsubscribeFrom' : 'subscribeTo', { channel: channel.title })}
        disabled={busy}
        onClick={onSubscribe}
      >
        {t(subscribed ? 'subscribed' : 'subscribe')}
      </button>
      {subscribed && (
        <button
          ref={bellButton}
          type="button"
          className="vf-icon-button vf-bell"
          aria-label={t('notificationsLevel', { level: t(LEVEL_LABELS[channel.notificationLevel ?? 'personalized']) })}
          aria-haspopup="menu"
          aria-expanded={bellOpen}
          disabled={busy}
          onClick={() => setBellOpen((open) => !open)}
        >
          {channel.notificationLevel === 'none' ? <BellOffIcon /> : <BellIcon />}
        </button>
      )}
      {bellOpen && subscribed && (
        <div
          className="vf-popover vf-bell-menu"
          role="menu"
          aria-label={t('notifications')}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setBellOpen(false);
              bellButton.current?.focus();
            }
          }}
        >
          {NOTIFICATION_LEVELS.map((level) => (
            <button
              key={level}
              type="button"
              role="menuitemradio"
              aria-checked={(channel.notificationLevel ?? 'personalized') === level}
              className="vf-menu-item"
              onClick={() => choose(level)}
            >
              {t(LEVEL_LABELS[level])}
            </button>
          ))}
        </div>
      )}
      {invite && (
        <SignInInvite
          identity={identity}
          message={t('signInToSubscribe', { channel: channel.title })}
          onClose={() => {
            setInvite(false);
            subscribeButton.current?.focus();
          }}
        />
      )}
      {message && (
        <span className="vf-action-error" role="alert">
          {message}
        </span>
      )}
    </div>
  );
}
