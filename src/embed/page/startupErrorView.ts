import { SHELL_TEXT, type ShellText } from '../../../streams/i18n/shellText';

/**
 * The error screen of a page that could not start, in plain DOM (the controls' script is never loaded for it), in the
 * interface's language (`text`); the detail is the error's own message, for whoever reports it.
 */
export function startupErrorView(doc: Document, error: unknown, text: ShellText = SHELL_TEXT.en): HTMLElement {
  const element = (tag: string, className: string, text?: string) => {
    const el = doc.createElement(tag);
    el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const view = element('div', 'vf-player');
  const box = element('div', 'vf-error');
  box.setAttribute('role', 'alert');
  box.append(element('p', 'vf-error-message', text.couldNotStart), element('p', 'vf-error-detail', error instanceof Error ? error.message : String(error)));
  view.append(box);
  return view;
}
