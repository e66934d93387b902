/**
 * Copies text for the viewer (the share panel's links and embed code). The Clipboard API first; in a frame whose host
 * did not delegate `clipboard-write`, or a browser without the API, the older selection copy, which works within the
 * viewer's press. `false` when neither worked: the caller then leaves the text selected and says to press Ctrl+C.
 */
export async function copyText(win: Window, text: string): Promise<boolean> {
  try {
    if (win.navigator.clipboard?.writeText) {
      await win.navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (permissions policy, no focus): fall back below.
  }
  const doc = win.document;
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  const active = doc.activeElement as HTMLElement | null;
  doc.body.appendChild(area);
  area.select();
  let copied: boolean;
  try {
    copied = doc.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  active?.focus?.();
  return copied;
}
