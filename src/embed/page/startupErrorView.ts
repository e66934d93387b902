/** The error screen of a page that could not start, in plain DOM (the controls' script is never loaded for it). */
export function startupErrorView(doc: Document, error: unknown): HTMLElement {
  const element = (tag: string, className: string, text?: string) => {
    const el = doc.createElement(tag);
    el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const view = element('div', 'vf-player');
  const box = element('div', 'vf-error');
  box.setAttribute('role', 'alert');
  box.append(
    element('p', 'vf-error-message', 'The player could not start.'),
    element('p', 'vf-error-detail', error instanceof Error ? error.message : String(error)),
  );
  view.append(box);
  return view;
}
