import { useEffect, useRef } from 'react';
import { SHORTCUT_LIST } from '../../../streams/player/shortcutCommand';
import { useI18n } from '../i18n/I18nContext';
import { shortcutText } from './shortcutText';

/**
 * The keyboard shortcut list `?` (shift+/) opens: a modal dialog listing the player's real shortcuts
 * ({@link SHORTCUT_LIST}, without captions or full screen when the player has none). Focus goes to its Close button and
 * stays inside while it is open; Escape or Close closes it and `onClose` gives focus back to where it was.
 */
export function ShortcutList({ captions, fullscreen, onClose }: { captions: boolean; fullscreen: boolean; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  const i18n = useI18n();
  useEffect(() => close.current?.focus(), []);
  const rows = SHORTCUT_LIST.filter((e) => (e.needs === 'captions' ? captions : e.needs === 'fullscreen' ? fullscreen : true));
  return (
    <div
      className="vf-shortcuts"
      role="dialog"
      aria-modal="true"
      aria-labelledby="vf-shortcuts-title"
      onKeyDown={(e) => {
        // Nothing under the dialog reacts to keys while it is open; Tab stays on its one control.
        e.stopPropagation();
        if (e.key === 'Escape' || e.key === 'Tab') {
          e.preventDefault();
          if (e.key === 'Escape') onClose();
        }
      }}
    >
      <div className="vf-shortcuts-header">
        <h2 id="vf-shortcuts-title" className="vf-shortcuts-title">
          {i18n.t('keyboardShortcuts')}
        </h2>
        <button ref={close} type="button" className="vf-pill vf-shortcuts-close" onClick={onClose}>
          {i18n.t('close')}
        </button>
      </div>
      <dl className="vf-shortcuts-list">
        {rows.map((row) => (
          <div key={row.action} className="vf-shortcuts-row">
            <dt>{row.keys.map((k, i) => (k === '…' ? <span key={i}> … </span> : <kbd key={i}>{k}</kbd>))}</dt>
            <dd>{shortcutText(row, i18n)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
