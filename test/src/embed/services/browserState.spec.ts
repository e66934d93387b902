import { startBrowserState } from '../../../../src/embed/services/browserState';

describe('startBrowserState', () => {
  it('flushes the dispatcher before the sink, at a disposal and at flush()', () => {
    Object.defineProperty(window, 'fetch', { value: jest.fn(async () => ({ status: 204 })), configurable: true, writable: true });
    const browser = startBrowserState(window);
    const seen: string[] = [];
    browser.sinkFlush$.subscribe((state) => seen.push(`sink ${state}`));
    browser.dispatcherFlush$.subscribe((state) => seen.push(`dispatcher ${state}`));
    window.dispatchEvent(new Event('pagehide'));
    const atPagehide = seen.splice(0);
    expect(atPagehide.length).toBeGreaterThan(0);
    expect(atPagehide[0]).toMatch(/^dispatcher document_disposed/);
    expect(atPagehide[1]).toMatch(/^sink document_disposed/);
    browser.flush();
    expect(seen).toEqual(['dispatcher document_disposed_preventable', 'sink document_disposed_preventable']);
    browser.stop();
    window.dispatchEvent(new Event('pagehide'));
    expect(seen).toHaveLength(2);
  });
});
