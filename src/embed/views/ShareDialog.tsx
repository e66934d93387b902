import { Fragment, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SharePanel } from '../../../streams/platform/payloads';
import { formatTime } from '../../../streams/shared/formatTime';
import { copyText } from './copyText';
import type { ViewerActions } from './viewerActions';
import { useI18n } from '../i18n/I18nContext';
import type { MessageKey } from '../i18n/catalogs/en';
import type { I18n } from '../i18n/translate';
import './share.css';

/** The embed code the panel offers, as sites paste it (absolute `src`: the code is used on another site). */
export const embedCodeFor = (embedUrl: string, title: string): string => {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe width="560" height="315" src="${escape(embedUrl)}" title="${escape(title)}" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`;
};

/** A link or code the panel offers: its label, and the names of its Copy button and of its copied status. */
type Row = { key: string; label: string; copy: string; copied: string; value: string; multiline?: boolean };

const ROW_WORDS: Record<'video' | 'videoAt' | 'playlist' | 'embed', [MessageKey, MessageKey, MessageKey]> = {
  video: ['videoLink', 'copyVideoLink', 'copiedVideoLink'],
  videoAt: ['linkAt', 'copyLinkAt', 'copiedLinkAt'],
  playlist: ['playlistLink', 'copyPlaylistLink', 'copiedPlaylistLink'],
  embed: ['embedCode', 'copyEmbedCode', 'copiedEmbedCode'],
};

/** A row's words, in the interface's language, at the time `time` (the link at the current time names it). */
const shareRow =
  (t: I18n['t'], time: string) =>
  (key: string, words: keyof typeof ROW_WORDS, value: string, multiline?: boolean): Row => {
    const [label, copy, copied] = ROW_WORDS[words].map((k) => t(k, { time })) as [string, string, string];
    return { key, label, copy, copied, value, multiline };
  };

/**
 * The share panel (spec §7 `share/get_share_panel`): the video's link, the link at the current time (when the viewer
 * ticks "Start at"), the playlist's link when the video plays from one, and the embed code, each with Copy and a
 * spoken "Copied" (or, where the frame may not copy, the text left selected with "Press Ctrl+C to copy"). A modal
 * dialog (WAI-ARIA dialog pattern) over a scrim that dims the player: focus moves into it (the panel, then its first
 * Copy once the links are there), Tab and Shift+Tab stay inside it, Escape or Close returns focus to the Share button.
 */
export function ShareDialog({
  actions,
  win,
  videoId,
  playlistId,
  currentTime,
  onClose,
}: {
  actions: ViewerActions;
  win: Window;
  videoId: string;
  playlistId?: string;
  currentTime: number;
  onClose: () => void;
}) {
  const startSeconds = Math.floor(currentTime);
  const [panel, setPanel] = useState<SharePanel | { message: string } | null>(null);
  const [atTime, setAtTime] = useState(false);
  const [copied, setCopied] = useState<{ key: string; ok: boolean } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const fields = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());

  useEffect(() => {
    let live = true;
    void actions.sharePanel({ videoId, playlistId, startTimeSeconds: startSeconds > 0 ? startSeconds : undefined }).then((answer) => live && setPanel(answer));
    return () => {
      live = false;
    };
    // Asked once per opening: `currentTime` is the time when the viewer pressed Share and does not change while open.
  }, [actions, videoId, playlistId, startSeconds]);
  useEffect(() => {
    const first = panel ? (dialog.current?.querySelector<HTMLElement>('.vf-copy') ?? dialog.current?.querySelector<HTMLElement>('button')) : null;
    (first ?? dialog.current)?.focus();
  }, [panel]);

  const { t } = useI18n();
  const absolute = (url: string) => new URL(url, win.location.origin).href;
  const row = shareRow(t, formatTime(startSeconds));
  const rows: Row[] = [];
  if (panel && 'videoUrl' in panel) {
    const at = atTime && panel.videoUrlAtTime ? panel.videoUrlAtTime : null;
    rows.push(row('video', at ? 'videoAt' : 'video', absolute(at ?? panel.videoUrl)));
    if (panel.playlistUrl) rows.push(row('playlist', 'playlist', absolute(panel.playlistUrl)));
    rows.push(row('embed', 'embed', embedCodeFor(absolute(panel.embedUrl), panel.title), true));
  }

  const copy = async (row: Row) => {
    const ok = await copyText(win, row.value);
    setCopied({ key: row.key, ok });
    if (!ok) fields.current.get(row.key)?.select();
  };

  return (
    <div className="vf-share-scrim">
      <div
        ref={dialog}
        className="vf-share"
        role="dialog"
        aria-modal="true"
        aria-label={t('share')}
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Tab') trapTab(e);
        }}
      >
        <div className="vf-share-header">
          <h2 className="vf-share-title">{t('share')}</h2>
          <button type="button" className="vf-pill" onClick={onClose}>
            {t('close')}
          </button>
        </div>
        <div className="vf-share-body">
          {panel === null && (
            <p className="vf-share-status" role="status">
              {t('loadingEllipsis')}
            </p>
          )}
          {panel && 'message' in panel && (
            <p className="vf-action-error" role="alert">
              {t('sharePanelFailed', { message: panel.message })}
            </p>
          )}
          {rows.map((row) => (
            <Fragment key={row.key}>
              <ShareRowView
                row={row}
                fieldRef={(el) => void (el ? fields.current.set(row.key, el) : fields.current.delete(row.key))}
                onCopy={() => void copy(row)}
              />
              {row.key === 'video' && panel && 'videoUrl' in panel && panel.videoUrlAtTime && (
                <label className="vf-share-attime">
                  <input type="checkbox" checked={atTime} onChange={(e) => setAtTime(e.target.checked)} /> {t('startAt', { time: formatTime(startSeconds) })}
                </label>
              )}
            </Fragment>
          ))}
          <p className="vf-share-status" role="status" aria-live="polite">
            {copied ? (copied.ok ? (rows.find((r) => r.key === copied.key)?.copied ?? '') : t('pressCtrlC')) : ''}
          </p>
        </div>
      </div>
    </div>
  );
}

/** One link (or the embed code) in its read-only field, with its Copy button. */
function ShareRowView({ row, fieldRef, onCopy }: { row: Row; fieldRef: (el: HTMLInputElement | HTMLTextAreaElement | null) => void; onCopy: () => void }) {
  const { t } = useI18n();
  return (
    <div className="vf-share-row" data-share={row.key}>
      <label className="vf-share-label">
        <span>{row.label}</span>
        {row.multiline ? (
          <textarea readOnly rows={2} className="vf-share-field" value={row.value} ref={fieldRef} />
        ) : (
          <input readOnly className="vf-share-field" value={row.value} ref={fieldRef} />
        )}
      </label>
      <button type="button" className="vf-pill vf-pill-primary vf-copy" aria-label={row.copy} onClick={onCopy}>
        {t('copy')}
      </button>
    </div>
  );
}

/** Tab from the last focusable element of the dialog goes to its first, Shift+Tab from the first to its last. */
function trapTab(e: KeyboardEvent<HTMLElement>) {
  const focusable = [...e.currentTarget.querySelectorAll<HTMLElement>('button, input, textarea, [href]')].filter((el) => !el.matches(':disabled'));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = e.currentTarget.ownerDocument.activeElement;
  if (e.shiftKey && (active === first || active === e.currentTarget)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}
