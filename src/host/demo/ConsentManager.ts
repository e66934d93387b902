import { BehaviorSubject, type Observable } from 'rxjs';
import { encodeDemoTcString } from '../../../streams/consent/encodeTcString';

/** Where the demo CMP keeps the visitor's choice (`{"purposeOne":true|false}`); absent: not decided. */
export const CONSENT_STORAGE_KEY = 'vidframe-demo-consent';
/** The name of the child frame through which frames find the CMP (IAB TCF v2.2, "CMP API", `__tcfapiLocator`). */
export const TCF_LOCATOR_NAME = '__tcfapiLocator';
/** The TCF policy version of the TC strings and TC data (TCF v2.2). */
export const TCF_POLICY_VERSION = 5;
/** The purposes a TC data object lists (TCF v2.2 has eleven); this CMP asks for purpose 1 only. */
const PURPOSE_COUNT = 11;

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

export type TcfEventStatus = 'tcloaded' | 'cmpuishown' | 'useractioncomplete';

/** The TC data of TCF v2.2 `getTCData` / `addEventListener`, as far as this demo CMP fills it in. */
export interface TCData {
  tcString: string;
  tcfPolicyVersion: number;
  cmpVersion: number;
  gdprApplies: true;
  eventStatus: TcfEventStatus;
  cmpStatus: 'loaded';
  listenerId?: number;
  isServiceSpecific: true;
  useNonStandardTexts: false;
  purposeOneTreatment: false;
  purpose: { consents: Record<number, boolean>; legitimateInterests: Record<number, boolean> };
  vendor: { consents: Record<number, boolean>; legitimateInterests: Record<number, boolean> };
  specialFeatureOptins: Record<number, boolean>;
}

/** The TCF v2.2 `PingReturn`. */
export interface PingReturn {
  gdprApplies: true;
  cmpLoaded: true;
  cmpStatus: 'loaded';
  displayStatus: 'visible' | 'hidden';
  apiVersion: '2.2';
  cmpVersion: number;
  tcfPolicyVersion: number;
}

export type TcfCallback = (returnValue: unknown, success?: boolean) => void;
/** `window.__tcfapi(command, version, callback, parameter)`. */
export type TcfApi = (command: string, version: unknown, callback: TcfCallback, parameter?: unknown) => void;

/** The cross-frame form of a call (`postMessage` to the frame holding `__tcfapiLocator`) and of its answer. */
export interface TcfApiCallMessage {
  __tcfapiCall: { command: string; version?: unknown; callId: unknown; parameter?: unknown };
}
export interface TcfApiReturnMessage {
  __tcfapiReturn: { returnValue: unknown; success?: boolean; callId: unknown };
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

const CMP_VERSION = 1;

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
 * consent and watch the embed react (issue 13: the anonymous id is fetched only with consent).
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

  const tcData = (listenerId?: number, vendorIds?: unknown): TCData => {
    const { tcString, purposeOne, eventStatus } = state.value;
    const consents: Record<number, boolean> = {};
    for (let purpose = 1; purpose <= PURPOSE_COUNT; purpose++) consents[purpose] = purpose === 1 && purposeOne;
    const vendors: Record<number, boolean> = {};
    if (Array.isArray(vendorIds)) for (const id of vendorIds) if (Number.isInteger(id) && id > 0) vendors[id] = false;
    return {
      tcString,
      tcfPolicyVersion: TCF_POLICY_VERSION,
      cmpVersion: CMP_VERSION,
      gdprApplies: true,
      eventStatus,
      cmpStatus: 'loaded',
      ...(listenerId === undefined ? {} : { listenerId }),
      isServiceSpecific: true,
      useNonStandardTexts: false,
      purposeOneTreatment: false,
      purpose: { consents, legitimateInterests: {} },
      vendor: { consents: vendors, legitimateInterests: {} },
      specialFeatureOptins: {},
    };
  };

  const tcfapi: TcfApi = (command, version, callback, parameter) => {
    if (typeof callback !== 'function') return;
    if (command === 'ping') {
      const ping: PingReturn = {
        gdprApplies: true,
        cmpLoaded: true,
        cmpStatus: 'loaded',
        displayStatus: state.value.choice === 'undecided' ? 'visible' : 'hidden',
        apiVersion: '2.2',
        cmpVersion: CMP_VERSION,
        tcfPolicyVersion: TCF_POLICY_VERSION,
      };
      callback(ping, true);
      return;
    }
    // TCF v2.2: version 2, or none (0, null, undefined) for the latest.
    if (version !== 2 && version !== 0 && version !== null && version !== undefined) return callback(null, false);
    switch (command) {
      case 'getTCData':
        return callback(tcData(undefined, parameter), true);
      case 'addEventListener': {
        const listenerId = nextListenerId++;
        listeners.set(listenerId, callback);
        countListeners();
        return callback(tcData(listenerId), true);
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
        callback(tcData(listenerId), true);
      } catch {
        // one broken listener does not keep the others from hearing
      }
    }
  };

  const onMessage = (event: MessageEvent) => {
    const { data } = event;
    let call: unknown;
    let asString = false;
    if (typeof data === 'string') {
      if (!data.includes('__tcfapiCall')) return; // the embed's own JSON messages: not ours
      try {
        call = (JSON.parse(data) as Partial<TcfApiCallMessage> | null)?.__tcfapiCall;
        asString = true;
      } catch {
        return;
      }
    } else if (data && typeof data === 'object') {
      call = (data as Partial<TcfApiCallMessage>).__tcfapiCall;
    }
    if (!call || typeof call !== 'object' || typeof (call as { command?: unknown }).command !== 'string') return;
    const { command, version, callId, parameter } = call as TcfApiCallMessage['__tcfapiCall'];
    const source = event.source as Window | null;
    if (!source || typeof source.postMessage !== 'function') return;
    tcfapi(
      command,
      version,
      (returnValue, success) => {
        const answer: TcfApiReturnMessage = { __tcfapiReturn: { returnValue, success, callId } };
        try {
          source.postMessage(asString ? JSON.stringify(answer) : answer, '*');
        } catch {
          // the frame went away
        }
      },
      parameter,
    );
  };

  const previousApi = win.__tcfapi;
  win.__tcfapi = tcfapi;
  win.addEventListener('message', onMessage);
  let locator: HTMLIFrameElement | undefined;
  if (!win.document.querySelector(`iframe[name="${TCF_LOCATOR_NAME}"]`)) {
    locator = win.document.createElement('iframe');
    locator.name = TCF_LOCATOR_NAME;
    // `hidden` (display: none from the user agent's style sheet): no inline style, which the page's CSP refuses.
    locator.hidden = true;
    locator.tabIndex = -1;
    locator.title = 'TCF CMP locator';
    locator.setAttribute('aria-hidden', 'true');
    (win.document.body ?? win.document.documentElement).appendChild(locator);
  }

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
