import { BehaviorSubject, type Observable } from 'rxjs';
import { encodeDemoTcString } from '../../../streams/consent/encodeTcString';
import { addLocatorFrame, parseTcfApiCall, pingReturn, tcDataOf, type TcfApi, type TcfApiReturnMessage, type TcfCallback, type TcfEventStatus } from './tcf';

export { TCF_LOCATOR_NAME, TCF_POLICY_VERSION } from './tcf';
export type { PingReturn, TCData, TcfApi, TcfApiCallMessage, TcfApiReturnMessage, TcfCallback, TcfEventStatus } from './tcf';

/** Where the demo CMP keeps the visitor's choice (`{"purposeOne":true|false}`); absent: not decided. */
export const CONSENT_STORAGE_KEY = 'vidframe-demo-consent';

/** The visitor's choice: nothing yet (which is no consent), consent to purpose 1 given, or refused/withdrawn. */
export type ConsentChoice = 'undecided' | 'granted' | 'withdrawn';

/** What the panel shows. */
export interface ConsentState {
  choice: ConsentChoice;
  /** Consent to purpose 1 ("store and/or access information on a device"). */
  purposeOne: boolean;
  /** The TC string every caller receives now. */
  tcString: string;
  /** `tcloaded` until the visitor chooses on this page, then `useractioncomplete`. */
  eventStatus: TcfEventStatus;
  /** How many `addEventListener` registrations (this page's and other frames') are live. */
  listeners: number;
}

export interface ConsentManagerOptions {
  /** The host window the CMP is installed on (default `window`). */
  win?: Window & { __tcfapi?: TcfApi };
  /** Where the choice is kept (default the window's `localStorage`; `null`: memory only). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Makes the TC string of a choice (default `encodeDemoTcString`, streams/consent/encodeTcString.ts). */
  encode?: (choice: { purposeOne: boolean }) => string;
}

export interface ConsentManager {
  /** The state, current value first (a BehaviorSubject's). */
  readonly state$: Observable<ConsentState>;
  getState(): ConsentState;
  /** The visitor grants purpose 1: every listener hears `useractioncomplete` with consent. */
  grant(): void;
  /** The visitor refuses or withdraws: every listener hears `useractioncomplete` without consent. */
  withdraw(): void;
  /** Uninstall: `__tcfapi`, the locator frame and the message listener go; listeners are dropped; `state$` completes. */
  stop(): void;
}

function readChoice(storage: ConsentManagerOptions['storage']): ConsentChoice {
  try {
    const saved = JSON.parse(storage?.getItem(CONSENT_STORAGE_KEY) ?? 'null') as { purposeOne?: unknown } | null;
    if (saved && typeof saved.purposeOne === 'boolean') return saved.purposeOne ? 'granted' : 'withdrawn';
  } catch {
    // unreadable or malformed: not decided
  }
  return 'undecided';
}

/**
 * The demo host page's own consent management platform, IAB TCF v2.2 style, so a visitor can grant and withdraw
 * consent and watch the embed react (the embed fetches the anonymous id only with consent).
 *
 * - installs `window.__tcfapi(command, version, callback, parameter)` with `ping`, `addEventListener`,
 *   `removeEventListener` and `getTCData`; callbacks get `(returnValue, success)`;
 * - adds the hidden child frame `<iframe name="__tcfapiLocator">`, by which frames (the embed) find the CMP, and answers
 *   the cross-frame protocol: a `message` whose data (an object or a JSON string) holds
 *   `__tcfapiCall: { command, version, callId, parameter }` is run, and every callback result goes back to
 *   `event.source` as `{ __tcfapiReturn: { returnValue, success, callId } }` (a JSON string when the call was one),
 *   target origin `*` as the TCF spec has it — the TC data is meant for any frame of the page;
 * - keeps the choice in memory and in `localStorage` (`vidframe-demo-consent`); it starts as "not decided", which is
 *   no consent: the TC string then is the no-consent one and `eventStatus` is `tcloaded`, as after a reload with a
 *   saved choice; a choice made on the page notifies every listener with `useractioncomplete`.
 *
 * TC strings come from `encode({ purposeOne })` (`encodeDemoTcString`).
 */
export function startConsentManager({ win = window, storage, encode = encodeDemoTcString }: ConsentManagerOptions = {}): ConsentManager {
  let store: ConsentManagerOptions['storage'] = null;
  try {
    store = storage === undefined ? win.localStorage : storage;
  } catch {
    store = null; // storage blocked: memory only
  }

  const listeners = new Map<number, TcfCallback>();
  let nextListenerId = 1;
  const stateFor = (choice: ConsentChoice, eventStatus: TcfEventStatus): ConsentState => ({
    choice,
    purposeOne: choice === 'granted',
    tcString: encode({ purposeOne: choice === 'granted' }),
    eventStatus,
    listeners: listeners.size,
  });
  const state = new BehaviorSubject<ConsentState>(stateFor(readChoice(store), 'tcloaded'));
  const countListeners = () => state.next({ ...state.value, listeners: listeners.size });

  const tcfapi: TcfApi = (command, version, callback, parameter) => {
    if (typeof callback !== 'function') return;
    if (command === 'ping') return callback(pingReturn(state.value.choice !== 'undecided'), true);
    // TCF v2.2: version 2, or none (0, null, undefined) for the latest.
    if (version !== 2 && version !== 0 && version !== null && version !== undefined) return callback(null, false);
    switch (command) {
      case 'getTCData':
        return callback(tcDataOf(state.value, undefined, parameter), true);
      case 'addEventListener': {
        const listenerId = nextListenerId++;
        listeners.set(listenerId, callback);
        countListeners();
        return callback(tcDataOf(state.value, listenerId), true);
      }
      case 'removeEventListener': {
        const removed = typeof parameter === 'number' && listeners.delete(parameter);
        if (removed) countListeners();
        return callback(removed, removed);
      }
      default:
        return callback(null, false);
    }
  };

  const choose = (purposeOne: boolean) => {
    try {
      store?.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ purposeOne }));
    } catch {
      // quota or blocked storage: the choice holds for this page
    }
    state.next(stateFor(purposeOne ? 'granted' : 'withdrawn', 'useractioncomplete'));
    for (const [listenerId, callback] of [...listeners]) {
      try {
        callback(tcDataOf(state.value, listenerId), true);
      } catch {
        // one broken listener does not keep the others from hearing
      }
    }
  };

  const onMessage = (event: MessageEvent) => {
    const parsed = parseTcfApiCall(event.data);
    if (!parsed) return;
    const { command, version, callId, parameter } = parsed.call;
    const source = event.source as Window | null;
    if (!source || typeof source.postMessage !== 'function') return;
    const answer = (returnValue: unknown, success?: boolean) => {
      const message: TcfApiReturnMessage = { __tcfapiReturn: { returnValue, success, callId } };
      try {
        source.postMessage(parsed.asString ? JSON.stringify(message) : message, '*');
      } catch {
        // the frame went away
      }
    };
    tcfapi(command, version, answer, parameter);
  };

  const previousApi = win.__tcfapi;
  win.__tcfapi = tcfapi;
  win.addEventListener('message', onMessage);
  const locator = addLocatorFrame(win.document);

  return {
    state$: state.asObservable(),
    getState: () => state.value,
    grant: () => choose(true),
    withdraw: () => choose(false),
    stop() {
      win.removeEventListener('message', onMessage);
      if (win.__tcfapi === tcfapi) {
        if (previousApi) win.__tcfapi = previousApi;
        else delete win.__tcfapi;
      }
      locator?.remove();
      listeners.clear();
      state.complete();
    },
  };
}
