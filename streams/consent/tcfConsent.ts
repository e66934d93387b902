import { asyncScheduler, Observable, type SchedulerLike, timer } from 'rxjs';
import { TCF_ANSWER_TIMEOUT_MS } from '../timing';
import { numberText } from '../shared/numberText';

/** The name of the child frame by which frames find the CMP (IAB TCF v2.2, CMP API, "`__tcfapiLocator`"). */
export const TCF_LOCATOR_FRAME_NAME = '__tcfapiLocator';

/** A frame on the way up, possibly of another origin: only `frames`, `parent` and `postMessage` are used. */
export interface TcfFrameLike {
  readonly frames?: unknown;
  readonly parent?: TcfFrameLike | null;
  postMessage(message: unknown, targetOrigin: string): void;
}

/** A `message` event as far as it is read. */
export interface TcfMessageEventLike {
  readonly data: unknown;
  readonly source: unknown;
}

/** The embed's window: the real `window` fits, and so does a test fake. */
export interface TcfWindowLike extends TcfFrameLike {
  readonly top?: TcfFrameLike | null;
  addEventListener(type: 'message', listener: (event: TcfMessageEventLike) => void): void;
  removeEventListener(type: 'message', listener: (event: TcfMessageEventLike) => void): void;
}

/** The TC data events that carry a decision (`cmpuishown` only says the CMP is asking). */
export type TcfDecisionStatus = 'tcloaded' | 'useractioncomplete';

/**
 * What the host page's CMP says: no CMP (none found, or no answer in time), or one answer with its consent to
 * purpose 1 ("store and/or access information on a device"), which is what the anonymous id needs.
 */
export type TcfConsent = { cmp: false } | { cmp: true; gdprApplies: boolean | undefined; tcString: string; eventStatus: TcfDecisionStatus; consent: boolean };

export interface TcfConsentOptions {
  scheduler?: SchedulerLike;
  /** Wait for the CMP's first answer; {@link TCF_ANSWER_TIMEOUT_MS} by default. */
  answerTimeoutMs?: number;
  /**
   * Consent to purpose 1 in a TC string: `purposeOneConsent` (synchronous) or, by default, {@link loadPurposeOneConsent}
   * (the decoder loaded on first use). Answers are emitted in the CMP's order either way.
   */
  purposeOne?: (tcString: string) => boolean | PromiseLike<boolean>;
}

/** Bounds the walk up the frame tree (browsers nest at most a few dozen frames). */
const MAX_FRAME_DEPTH = 64;
let callCount = 0;

/** The first frame from `win` up to `win.top` with a child frame named `__tcfapiLocator`, or undefined. */
export function findTcfLocatorFrame(win: TcfWindowLike): TcfFrameLike | undefined {
  let top: TcfFrameLike | null | undefined;
  try {
    top = win.top;
  } catch {
    top = undefined;
  }
  let frame: TcfFrameLike | null | undefined = win;
  for (let depth = 0; frame && depth < MAX_FRAME_DEPTH; depth++) {
    try {
      const frames = frame.frames as Record<string, unknown> | null | undefined;
      if (frames && frames[TCF_LOCATOR_FRAME_NAME]) return frame;
    } catch {
      // a frame that refuses to be looked at: go on upwards
    }
    if (frame === top) return undefined;
    let parent: TcfFrameLike | null | undefined;
    try {
      parent = frame.parent;
    } catch {
      return undefined;
    }
    if (parent === frame) return undefined;
    frame = parent;
  }
  return undefined;
}

/**
 * The page's decoder: `@iabtcf/core` (30 KB) is loaded only when a CMP has answered with a TC string to decode, not
 * with the player. A failed load is no consent.
 */
export const loadPurposeOneConsent = (tcString: string): Promise<boolean> =>
  import('./purposeOneConsent').then((m) => m.purposeOneConsent(tcString)).catch(() => false);

interface TcfReturn {
  callId?: unknown;
  success?: unknown;
  returnValue?: { listenerId?: unknown; eventStatus?: unknown; gdprApplies?: unknown; tcString?: unknown } | null;
}

/** The `__tcfapiReturn` of a message's data (an object or a JSON string), or undefined. */
function tcfReturnOf(data: unknown): TcfReturn | undefined {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const answer = value !== null && typeof value === 'object' ? (value as { __tcfapiReturn?: unknown }).__tcfapiReturn : undefined;
  return answer !== null && typeof answer === 'object' ? (answer as TcfReturn) : undefined;
}

/**
 * The host page's consent, through the IAB TCF v2.2 cross-frame CMP API.
 *
 * - On subscription it looks from `win` up to `win.top` for the frame that has a child frame named
 *   `__tcfapiLocator` (each look in a try/catch: a frame of another origin may refuse). None → `{cmp: false}` and
 *   complete.
 * - It posts `{__tcfapiCall: {command: 'addEventListener', version: 2, callId, parameter: null}}` to that frame
 *   (target origin `*`, as the CMP API has it) and listens to `message` events on `win` whose data (an object or a
 *   JSON string) holds `__tcfapiReturn` with the same `callId` and whose source is that frame.
 * - Each answer with `eventStatus` `tcloaded` or `useractioncomplete` is emitted as
 *   `{cmp: true, gdprApplies, tcString, eventStatus, consent}`; `consent` is true when GDPR does not apply
 *   (`gdprApplies === false`), else consent to purpose 1 in the decoded TC string (`@iabtcf/core`, loaded on first use
 *   unless `purposeOne` is given; a malformed string is no consent). Decisions are emitted in the CMP's order. `cmpuishown` is not emitted (the visitor has not decided yet), nor is an answer with
 *   `success: false`.
 * - No answer within `answerTimeoutMs` (on the scheduler) → `{cmp: false}`: the caller decides as without a CMP. Any
 *   answer, `cmpuishown` included, stops that clock (a CMP showing its dialogue is there). The stream keeps listening:
 *   a CMP that answers late still decides from then on.
 * - On unsubscribe: the message listener is removed, and `removeEventListener` with the `listenerId` the CMP gave is
 *   posted to it.
 *
 * ```
 * CMP answers: ------s------l--------u------   (s cmpuishown, l tcloaded, u useractioncomplete)
 * result:      -------------a--------b------
 * no answer:   -----------------(x)           x = {cmp: false} at answerTimeoutMs
 * ```
 */
export function tcfConsent$(
  win: TcfWindowLike,
  { scheduler = asyncScheduler, answerTimeoutMs = TCF_ANSWER_TIMEOUT_MS, purposeOne = loadPurposeOneConsent }: TcfConsentOptions = {},
): Observable<TcfConsent> {
  // Hand-written: the edge to a CMP's `__tcfapi` across frames, its listener and timer ended on unsubscription.
  return new Observable<TcfConsent>((subscriber) => {
    const cmpFrame = findTcfLocatorFrame(win);
    if (!cmpFrame) {
      subscriber.next({ cmp: false });
      subscriber.complete();
      return undefined;
    }
    const callId = `vidframe-tcf-${numberText(++callCount)}`;
    let listenerId: unknown;
    let answered = false;
    const noAnswer = timer(answerTimeoutMs, scheduler).subscribe(() => {
      if (!answered) subscriber.next({ cmp: false });
    });

    // A decision waiting for an asynchronous decode holds the later ones back: the CMP's order is kept.
    let pending: Promise<void> | undefined;
    const deliver = (answer: Omit<Extract<TcfConsent, { cmp: true }>, 'consent'>, consent: boolean | PromiseLike<boolean>) => {
      if (typeof consent === 'boolean' && pending === undefined) {
        subscriber.next({ ...answer, consent });
        return;
      }
      const next: Promise<void> = (pending ?? Promise.resolve())
        .then(() => Promise.resolve(consent).catch(() => false))
        .then((decided) => {
          if (!subscriber.closed) subscriber.next({ ...answer, consent: decided === true });
          if (pending === next) pending = undefined;
        });
      pending = next;
    };

    const onMessage = (event: TcfMessageEventLike) => {
      if (!event || event.source !== cmpFrame) return;
      const answer = tcfReturnOf(event.data);
      if (!answer || answer.callId !== callId || answer.success === false) return;
      const value = answer.returnValue;
      if (!value || typeof value !== 'object') return;
      answered = true;
      noAnswer.unsubscribe();
      if (typeof value.listenerId === 'number' || typeof value.listenerId === 'string') listenerId = value.listenerId;
      const { eventStatus } = value;
      if (eventStatus !== 'tcloaded' && eventStatus !== 'useractioncomplete') return;
      const gdprApplies = typeof value.gdprApplies === 'boolean' ? value.gdprApplies : undefined;
      const tcString = typeof value.tcString === 'string' ? value.tcString : '';
      deliver({ cmp: true, gdprApplies, tcString, eventStatus }, gdprApplies === false ? true : purposeOne(tcString));
    };

    win.addEventListener('message', onMessage);
    try {
      cmpFrame.postMessage({ __tcfapiCall: { command: 'addEventListener', version: 2, callId, parameter: null } }, '*');
    } catch {
      // The frame went away: the clock above answers for it.
    }

    return () => {
      noAnswer.unsubscribe();
      win.removeEventListener('message', onMessage);
      if (listenerId === undefined) return;
      try {
        cmpFrame.postMessage(
          { __tcfapiCall: { command: 'removeEventListener', version: 2, callId: `vidframe-tcf-${numberText(++callCount)}`, parameter: listenerId } },
          '*',
        );
      } catch {
        // nothing to tell a frame that is gone
      }
    };
  });
}
