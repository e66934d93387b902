import { pageHiding$ } from '../../../streams/sources/pageHiding';

describe('pageHiding$', () => {
  it('gives pagehide, and visibilitychange only when the document turned hidden; listeners go on unsubscribe', () => {
    const win = new EventTarget();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    const seen: string[] = [];
    const sub = pageHiding$(win, doc).subscribe((e) => seen.push(`${e.type}:${doc.visibilityState}`));
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    win.dispatchEvent(new Event('pagehide'));
    win.dispatchEvent(new Event('pageshow'));
    expect(seen).toEqual(['visibilitychange:hidden', 'pagehide:hidden']);
    sub.unsubscribe();
    win.dispatchEvent(new Event('pagehide'));
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(seen).toHaveLength(2);
  });
});
