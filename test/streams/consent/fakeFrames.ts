import { type Observable, Subscription } from 'rxjs';
import type { TcfMessageEventLike, TcfWindowLike } from '../../../streams/consent/tcfConsent';

type Listener = (event: TcfMessageEventLike) => void;

/** A window of the frame tree: records what is posted to it and dispatches `message` events to its listeners. */
export class FakeWindow implements TcfWindowLike {
  frames: Record<string, unknown> = {};
  parent: FakeWindow | null = this;
  top: FakeWindow | null = this;
  readonly posted: { message: unknown; targetOrigin: string }[] = [];
  readonly listeners = new Set<Listener>();
  onPost?: (message: unknown) => void;

  constructor(readonly name: string) {}

  postMessage(message: unknown, targetOrigin: string): void {
    this.posted.push({ message, targetOrigin });
    this.onPost?.(message);
  }
  addEventListener(_type: 'message', listener: Listener): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: Listener): void {
    this.listeners.delete(listener);
  }
  dispatch(data: unknown, source: unknown): void {
    for (const listener of [...this.listeners]) listener({ data, source });
  }
}

/** A frame of another origin: looking at its child frames throws, as a browser may. */
export function crossOrigin(win: FakeWindow): FakeWindow {
  Object.defineProperty(win, 'frames', {
    get() {
      throw new DOMException('Blocked a frame with origin from accessing a cross-origin frame.', 'SecurityError');
    },
  });
  return win;
}

/** `top` ▸ … ▸ `embed`: the chain of frames, `top` first; every one's `top` is the first. */
export function frameChain(...names: string[]): FakeWindow[] {
  const chain = names.map((name) => new FakeWindow(name));
  chain.forEach((win, i) => {
    win.parent = i === 0 ? win : chain[i - 1];
    win.top = chain[0];
  });
  return chain;
}

/** Marks a window as the CMP's: it gets the `__tcfapiLocator` child frame. */
export function withLocator(win: FakeWindow): FakeWindow {
  win.frames = { ...win.frames, __tcfapiLocator: { name: '__tcfapiLocator' } };
  return win;
}

export interface TcDataLike {
  eventStatus: string;
  tcString?: string;
  gdprApplies?: boolean;
  listenerId?: number;
}

/**
 * A CMP in `cmpWin` (GDPR applies unless the answer says otherwise) that answers each `addEventListener` call by replaying `answers$` (a marble) into `embed`, as
 * `__tcfapiReturn` messages from `cmpWin`; `asJson` sends them as JSON strings, as some CMPs do.
 */
export function fakeCmp(cmpWin: FakeWindow, embed: FakeWindow, answers$: Observable<TcDataLike | 'fail'>, { asJson = false } = {}) {
  const subscriptions = new Subscription();
  cmpWin.onPost = (message) => {
    const call = (message as { __tcfapiCall?: { command: string; callId: unknown } }).__tcfapiCall;
    if (call?.command !== 'addEventListener') return;
    subscriptions.add(
      answers$.subscribe((answer) => {
        const data = {
          __tcfapiReturn:
            answer === 'fail'
              ? { returnValue: false, success: false, callId: call.callId }
              : { returnValue: { listenerId: 7, cmpStatus: 'loaded', gdprApplies: true, ...answer }, success: true, callId: call.callId },
        };
        embed.dispatch(asJson ? JSON.stringify(data) : data, cmpWin);
      }),
    );
  };
  return subscriptions;
}
