import { BehaviorSubject, catchError, defer, filter, firstValueFrom, from, map, Observable, of, Subject, Subscription, switchMap, take } from 'rxjs';
import { AD_STATUS_GLOBAL, adStatusCheck, type AdStatusValue } from '../../../streams/adStatus/adStatusCheck';
import { attestationLoader } from '../../../streams/attestation/attestationLoader';
import {
  ATTESTATION_CHALLENGE_PATH,
  AttestationState,
  type AttestationProgram,
  type AttestationSnapshot,
  type AttestationStateCode,
} from '../../../streams/attestation/attestationStates';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { idleCallback$ } from '../../../streams/scheduler/idleCallback';
import { reportHandledError } from './errorReporting';
import { pageStorage } from './pageStorage';
import { numberText } from '../../../streams/shared/numberText';

/** Where the ad-status value is kept between pages (the frame's storage, see pageStorage). */
export const AD_STATUS_STORAGE_KEY = 'vidframe.adStatus';

/** What the program script sets (server/attestation/program.js): `start()` checks the browser and returns the solver. */
interface ProgramGlobal {
  start?: () => { solve?: (challenge: unknown) => Promise<string> } | undefined;
}

declare global {
  interface Window {
    /** Set by the attestation program's script. */
    vidframeAttestationProgram?: ProgramGlobal;
  }
}

/** The page's attestation and ad-status check, for the subscribe button, diagnostics and the browser tests. */
export interface Attestation {
  /** The loader's state (spec §4: 1 initial … 8 disposed) with the message of a failed one. */
  readonly state$: BehaviorSubject<{ state: AttestationStateCode; message?: string }>;
  /** The current state number. */
  readonly state: AttestationStateCode;
  /** The message of a failed state (spec §8), else undefined. */
  readonly message: string | undefined;
  /**
   * A fresh response token for one call (a subscribe's `botguardResponse`): starts the loader if the page has not yet,
   * waits for it to settle, and solves a new challenge. `undefined` when attestation failed or was disposed, or this
   * run fails — the call then goes without one. Never rejects.
   */
  response(): Promise<string | undefined>;
  /**
   * Starts the loader, if nothing has yet, when the browser is next idle (at most 3 s): the controls call it when they
   * mount, so a subscribe that follows finds the program ready, and the program never competes with their first
   * render. Later calls do nothing.
   */
  prepare(): void;
  /** The ad-status check's value (spec §4: 1 loaded, 2 present, 3 timed out) once it ended; undefined before. */
  readonly adStatus$: BehaviorSubject<AdStatusValue | undefined>;
  /**
   * The value requests carry as `adst`: this page's check once it ended, until then the value the previous page
   * stored; undefined when there is neither.
   */
  readonly adStatusSignal$: Observable<AdStatusValue | undefined>;
  /** Stops everything (state 8). */
  dispose(): void;
}

/** One `<script>` of `win`'s document: emits once it ran, errors when it could not be loaded; removed if abandoned. */
export function loadScript$(win: Window, src: string): Observable<void> {
  // Hand-written: the edge to a `<script>` element, removed when abandoned.
  return new Observable<void>((subscriber) => {
    const script = win.document.createElement('script');
    let settled = false;
    const onLoad = () => {
      settled = true;
      subscriber.next();
      subscriber.complete();
    };
    const onError = () => {
      settled = true;
      subscriber.error(new Error(`The script ${src} could not be loaded`));
    };
    script.addEventListener('load', onLoad);
    script.addEventListener('error', onError);
    script.async = true;
    script.src = src;
    win.document.head.appendChild(script);
    return () => {
      script.removeEventListener('load', onLoad);
      script.removeEventListener('error', onError);
      // A script given up on (timed out, disposed) goes; one that ran stays, its globals are what was loaded.
      if (!settled) script.remove();
    };
  });
}

/** The started program as the loader wants it: a solve returning an observable; none without a usable `start()`. */
function startProgramOf(win: Window): () => AttestationProgram | undefined {
  return () => {
    const program = win.vidframeAttestationProgram;
    if (!program || typeof program.start !== 'function') return undefined;
    const solver = program.start();
    if (!solver || typeof solver.solve !== 'function') return undefined;
    return { solve: (challenge) => defer(() => from(solver.solve!(challenge))) };
  };
}

/** One challenge from our server (`POST`, no body, never cached). */
function fetchChallengeOf(win: Window): () => Observable<unknown> {
  return () =>
    defer(() =>
      from(
        win
          .fetch(ATTESTATION_CHALLENGE_PATH, { method: 'POST', cache: 'no-store', credentials: 'same-origin' })
          .then((r) => (r.ok ? (r.json() as Promise<unknown>) : Promise.reject(new Error(`Request failed, status=${numberText(r.status)}`)))),
      ),
    );
}

/**
 * The page's attestation ("Botguard", spec §4/§7/§8) over the streams loader, and the ad-status check (spec §4/§7/§9).
 *
 * Neither competes with the player's own start. The ad-status check starts when the browser is first idle after the
 * player started (`requestIdleCallback`, at most 3 s). The attestation loader starts on demand: when the
 * controls mount ({@link Attestation.prepare}, at the next idle moment: a subscribe may follow) or at the first
 * `response()`. A video playing on its own that nobody touches (its controls never come) never loads the program nor
 * solves a challenge, whose proof of work cost the page heap and main-thread time for a token only a subscribe uses.
 *
 * The program is the root-relative `attestation_program_url` of the configuration (a same-origin `<script>`, which the
 * page's CSP `script-src 'self'` allows); "Unable to load Botguard" and "Cannot initialize botguard without program"
 * also go to the page's error reporting.
 *
 * The ad-status script comes from the ads host (`ad_status_url`; the embed page's CSP allows that one origin's
 * scripts), never in the privacy-enhanced or education embed, which contact no ads host. Its value is kept in the
 * frame's storage and is the state of {@link Attestation.adStatusSignal$}, which every later request's context reads;
 * until this page's check ends, requests carry the value the previous page stored.
 */
export function startAttestation(config: PlayerConfig, win: Window): Attestation {
  const subscriptions = new Subscription();
  const start$ = new Subject<void>();
  const dispose$ = new Subject<void>();
  const snapshot$ = new BehaviorSubject<AttestationSnapshot>({ state: AttestationState.INITIAL });
  const state$ = new BehaviorSubject<{ state: AttestationStateCode; message?: string }>({ state: AttestationState.INITIAL });

  const publish = (snapshot: AttestationSnapshot) => {
    snapshot$.next(snapshot);
    state$.next('message' in snapshot ? { state: snapshot.state, message: snapshot.message } : { state: snapshot.state });
  };
  // The loader is built and subscribed at its first start, not with the page: a video nobody touches asks no token,
  // and its frame holds no loader pipeline for nothing. Until then the state is initial (1), as the loader's own first
  // snapshot says.
  let loaderStarted = false;
  let disposed = false;
  const start = () => {
    if (disposed) return;
    if (!loaderStarted) {
      loaderStarted = true;
      subscriptions.add(
        attestationLoader(start$, dispose$, {
          url: config.args.attestation_program_url,
          loadScript: (url) => loadScript$(win, url),
          startProgram: startProgramOf(win),
          fetchChallenge: fetchChallengeOf(win),
        }).subscribe((snapshot) => {
          // Its first snapshot says initial (1), which the state already says: not told again.
          if (snapshot.state === AttestationState.INITIAL && snapshot$.value.state === AttestationState.INITIAL) return;
          publish(snapshot);
          if (snapshot.state === AttestationState.FAILED_BY_URL || snapshot.state === AttestationState.FAILED_BY_SCRIPT) {
            reportHandledError(win, new Error(snapshot.message));
          }
        }),
      );
    }
    start$.next();
  };

  // The ad-status check: its value, kept between pages.
  const storage = pageStorage(win);
  const stored = Number(storage.get(AD_STATUS_STORAGE_KEY));
  const adStatusSignal$ = new BehaviorSubject<AdStatusValue | undefined>(stored === 1 || stored === 2 || stored === 3 ? stored : undefined);
  const adStatus$ = new BehaviorSubject<AdStatusValue | undefined>(undefined);
  const adStatusUrl = config.args.ad_status_url;
  const mode = config.args.embed_mode ?? 'standard';
  const adStatusCheck$ =
    adStatusUrl && mode === 'standard'
      ? adStatusCheck({
          isPresent: () => (win as unknown as Record<string, unknown>)[AD_STATUS_GLOBAL] === true,
          loadScript: () => loadScript$(win, adStatusUrl),
        })
      : of<AdStatusValue | undefined>(undefined);

  // Idle once: the check starts (its 5 s count from there). The loader waits for the controls or a response().
  subscriptions.add(
    idleCallback$(win as never)
      .pipe(
        take(1),
        switchMap(() => adStatusCheck$),
      )
      .subscribe((value) => {
        if (value === undefined) return;
        storage.set(AD_STATUS_STORAGE_KEY, numberText(value));
        adStatusSignal$.next(value);
        adStatus$.next(value);
      }),
  );

  // The controls mounted: the loader starts at the next idle moment (a response() before then starts it at once).
  let preparing = false;
  const prepare = () => {
    if (preparing || disposed) return;
    preparing = true;
    subscriptions.add(
      idleCallback$(win as never)
        .pipe(take(1))
        .subscribe(() => start()),
    );
  };

  const response = (): Promise<string | undefined> => {
    start();
    return firstValueFrom(
      snapshot$.pipe(
        filter((s) => s.state !== AttestationState.INITIAL && s.state !== AttestationState.LOADING && s.state !== AttestationState.RUNNING),
        take(1),
        switchMap((s) => (s.state === AttestationState.READY ? s.response() : of(undefined))),
        map((token): string | undefined => token),
        catchError(() => of(undefined)),
      ),
      { defaultValue: undefined },
    );
  };

  return {
    state$,
    get state() {
      return state$.value.state;
    },
    get message() {
      return state$.value.message;
    },
    response,
    prepare,
    adStatus$,
    adStatusSignal$: adStatusSignal$.asObservable(),
    dispose: () => {
      if (disposed) return;
      disposed = true;
      // A started loader says disposed (8) itself; one never started is disposed without being built.
      if (loaderStarted) dispose$.next();
      else publish({ state: AttestationState.DISPOSED });
      subscriptions.unsubscribe();
    },
  };
}
