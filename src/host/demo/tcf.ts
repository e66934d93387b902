/** The IAB TCF v2.2 "CMP API" as the demo CMP speaks it: its types, and the pure parts of its answers. */

/** The name of the child frame through which frames find the CMP (IAB TCF v2.2, "CMP API", `__tcfapiLocator`). */
export const TCF_LOCATOR_NAME = '__tcfapiLocator';
/** The TCF policy version of the TC strings and TC data (TCF v2.2). */
export const TCF_POLICY_VERSION = 5;
/** The purposes a TC data object lists (TCF v2.2 has eleven); this CMP asks for purpose 1 only. */
const PURPOSE_COUNT = 11;
/** The demo CMP's version, in every TC data and ping. */
export const CMP_VERSION = 1;

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

/**
 * The TC data of the current choice: purpose 1 consented only with `purposeOne`, every other purpose not; the
 * vendors asked about (`vendorIds`, positive integers) listed without consent.
 */
export function tcDataOf(
  { tcString, purposeOne, eventStatus }: { tcString: string; purposeOne: boolean; eventStatus: TcfEventStatus },
  listenerId?: number,
  vendorIds?: unknown,
): TCData {
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
}

/** The `ping` answer: the CMP's interface is visible while the visitor has not decided. */
export function pingReturn(decided: boolean): PingReturn {
  return {
    gdprApplies: true,
    cmpLoaded: true,
    cmpStatus: 'loaded',
    displayStatus: decided ? 'hidden' : 'visible',
    apiVersion: '2.2',
    cmpVersion: CMP_VERSION,
    tcfPolicyVersion: TCF_POLICY_VERSION,
  };
}

/**
 * The `__tcfapiCall` a message carries (its data an object or a JSON string), and whether it came as a string (its
 * answer then goes back as one); `undefined` for any other message.
 */
export function parseTcfApiCall(data: unknown): { call: TcfApiCallMessage['__tcfapiCall']; asString: boolean } | undefined {
  let call: unknown;
  let asString = false;
  if (typeof data === 'string') {
    if (!data.includes('__tcfapiCall')) return undefined; // the embed's own JSON messages: not ours
    try {
      call = (JSON.parse(data) as Partial<TcfApiCallMessage> | null)?.__tcfapiCall;
      asString = true;
    } catch {
      return undefined;
    }
  } else if (data && typeof data === 'object') {
    call = (data as Partial<TcfApiCallMessage>).__tcfapiCall;
  }
  if (!call || typeof call !== 'object' || typeof (call as { command?: unknown }).command !== 'string') return undefined;
  return { call: call as TcfApiCallMessage['__tcfapiCall'], asString };
}

/** Adds the hidden `__tcfapiLocator` frame unless the page has one; returns the frame it added. */
export function addLocatorFrame(doc: Document): HTMLIFrameElement | undefined {
  if (doc.querySelector(`iframe[name="${TCF_LOCATOR_NAME}"]`)) return undefined;
  const locator = doc.createElement('iframe');
  locator.name = TCF_LOCATOR_NAME;
  // `hidden` (display: none from the user agent's style sheet): no inline style, which the page's CSP refuses.
  locator.hidden = true;
  locator.tabIndex = -1;
  locator.title = 'TCF CMP locator';
  locator.setAttribute('aria-hidden', 'true');
  (doc.body ?? doc.documentElement).appendChild(locator);
  return locator;
}
