import { failEarlyHandshake } from '../../../../src/embed/host/hostBridge';
import type { EarlyHostHandoff } from '../../../../streams/host/earlyHandshake';

/** A window whose inline responder hands over `handoff`. */
function windowWith(handoff: EarlyHostHandoff | null) {
  let taken = 0;
  const win = { vidframeEarlyHost: { take: () => (taken++ === 0 ? handoff : null) } } as unknown as Window;
  return { win, taken: () => taken };
}

const handoff = (over: Partial<EarlyHostHandoff>): EarlyHostHandoff => ({
  lock: null,
  listenerId: 3,
  initialized: false,
  readyToListenSent: true,
  held: [],
  baseline: null,
  ...over,
});

describe('failEarlyHandshake: a page that could not start, after the HTML told a host it was ready', () => {
  it('stops the responder and tells the locked host onError 5, on its origin', () => {
    const posts: [string, string][] = [];
    const host = { postMessage: (m: string, o: string) => posts.push([m, o]) };
    const { win, taken } = windowWith(handoff({ lock: { origin: 'https://host.example', source: host }, initialized: true }));
    failEarlyHandshake(win);
    expect(taken()).toBe(1);
    expect(posts.map(([m, o]) => [JSON.parse(m), o])).toEqual([[{ event: 'onError', info: 5, channel: 'widget', id: 3 }, 'https://host.example']]);
  });

  it('a host that never finished the handshake, or no responder at all: nothing is posted, nothing throws', () => {
    const posts: string[] = [];
    const host = { postMessage: (m: string) => posts.push(m) };
    // Locked but not initialized cannot happen; if it did, nothing would be said to a host that heard nothing.
    failEarlyHandshake(windowWith(handoff({ lock: { origin: 'https://host.example', source: host } })).win);
    failEarlyHandshake(windowWith(handoff({ lock: null })).win);
    failEarlyHandshake(windowWith(null).win);
    failEarlyHandshake({} as Window);
    const closed = {
      postMessage: () => {
        throw new Error('closed');
      },
    };
    expect(() => failEarlyHandshake(windowWith(handoff({ lock: { origin: null, source: closed }, initialized: true })).win)).not.toThrow();
    expect(posts).toEqual([]);
  });
});
