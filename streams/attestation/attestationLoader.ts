import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  map,
  NEVER,
  type Observable,
  of,
  type SchedulerLike,
  switchMap,
  take,
  takeUntil,
  throwError,
  throwIfEmpty,
  timeout,
} from 'rxjs';
import { ATTESTATION_LOAD_TIMEOUT_MS, ATTESTATION_RUN_TIMEOUT_MS } from '../timing';
import {
  AttestationState,
  BOTGUARD_LOAD_FAILED_MESSAGE,
  BOTGUARD_NO_PROGRAM_MESSAGE,
  isAttestationProgramUrl,
  type AttestationProgram,
  type AttestationSnapshot,
} from './attestationStates';

export interface AttestationLoaderOptions {
  /** The program script's URL from the player configuration (root-relative; anything else is state 3). */
  url: string | undefined;
  /** Loads the script (adds a `<script>`): emits or completes once it ran, errors when it could not be loaded. */
  loadScript: (url: string) => Observable<unknown>;
  /** Starts the program the script provided: `undefined` when there is none; may throw (both are state 4). */
  startProgram: () => AttestationProgram | undefined;
  /** One fresh challenge from the server (its first value is used). */
  fetchChallenge: () => Observable<unknown>;
  /** A script neither loaded nor failed after this long is a load failure (3). */
  loadTimeoutMs?: number;
  /** One run of the challenge (fetch and solve) fails after this long. */
  runTimeoutMs?: number;
  scheduler?: SchedulerLike;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const snapshot = (state: 1 | 2 | 5 | 8): AttestationSnapshot => ({ state });

/**
 * The attestation ("Botguard") loader of spec §4/§8, states 1–8:
 *
 * - `1` initial until `start$` first emits (the page starts it lazily, never before the player);
 * - `2` loading the program's script; no or an invalid URL, a load error, or no answer within
 *   {@link ATTESTATION_LOAD_TIMEOUT_MS} → `3` with "Unable to load Botguard";
 * - the script ran but `startProgram()` gave no program or threw → `4` with "Cannot initialize botguard without program";
 * - `5` running: the program solves a first challenge, proving it works here; a failure, or no token within
 *   {@link ATTESTATION_RUN_TIMEOUT_MS} → `7` with the cause as message;
 * - `6` ready, with `response()`: a fresh challenge solved per subscription (tokens are single-use), under the same
 *   timeout, and an error once disposed;
 * - `dispose$` → `8` from any state: the load, the run and the timers are unsubscribed, and the stream completes.
 *   Failed and ready states are otherwise final (the stream stays open for `dispose$`).
 *
 * ```
 * start$:    -s-------------
 * script:     --l
 * challenge:     -c
 * dispose$:  ------------d--
 * result:    12--56------(8|)
 * ```
 */
export function attestationLoader(
  start$: Observable<unknown>,
  dispose$: Observable<unknown>,
  {
    url,
    loadScript,
    startProgram,
    fetchChallenge,
    loadTimeoutMs = ATTESTATION_LOAD_TIMEOUT_MS,
    runTimeoutMs = ATTESTATION_RUN_TIMEOUT_MS,
    scheduler = asyncScheduler,
  }: AttestationLoaderOptions,
): Observable<AttestationSnapshot> {
  return defer(() => {
    // Per subscription: a ready snapshot's `response()` refuses to run once this loader was disposed.
    let disposed = false;

    /** One challenge, fetched and solved: one token or an error, never a hang. */
    const solveOnce = (program: AttestationProgram): Observable<string> =>
      defer(() => fetchChallenge()).pipe(
        take(1),
        concatMap((challenge) => program.solve(challenge).pipe(take(1))),
        timeout({ first: runTimeoutMs, with: () => throwError(() => new Error('The attestation program did not answer in time')), scheduler }),
        throwIfEmpty(() => new Error('The attestation program gave no response')),
      );
    const response = (program: AttestationProgram) => () =>
      disposed ? throwError(() => new Error('The attestation loader was disposed')) : solveOnce(program);

    /** After the script ran: start the program (4 without one), then run it (5 → 6 or 7). */
    const run$ = defer((): Observable<AttestationSnapshot> => {
      let program: AttestationProgram | undefined;
      try {
        program = startProgram();
      } catch (error) {
        return of({ state: AttestationState.FAILED_BY_SCRIPT, message: BOTGUARD_NO_PROGRAM_MESSAGE, cause: messageOf(error) });
      }
      if (!program || typeof program.solve !== 'function') {
        return of({ state: AttestationState.FAILED_BY_SCRIPT, message: BOTGUARD_NO_PROGRAM_MESSAGE, cause: 'The script provided no program' });
      }
      const started = program;
      return concat(
        of(snapshot(AttestationState.RUNNING)),
        solveOnce(started).pipe(
          map((): AttestationSnapshot => ({ state: AttestationState.READY, response: response(started) })),
          catchError((error: unknown) => of<AttestationSnapshot>({ state: AttestationState.FAILED, message: messageOf(error) })),
        ),
      );
    });

    const load$ = defer((): Observable<AttestationSnapshot> => {
      if (!isAttestationProgramUrl(url)) {
        return of({ state: AttestationState.FAILED_BY_URL, message: BOTGUARD_LOAD_FAILED_MESSAGE, cause: 'No valid program URL' });
      }
      const loaded$ = defer(() => loadScript(url)).pipe(
        timeout({ first: loadTimeoutMs, with: () => throwError(() => new Error('The program script did not load in time')), scheduler }),
        take(1),
        // A loader that completes without a value has loaded the script all the same.
        defaultIfEmpty(null),
        map(() => undefined),
        // Only the load's own failure is caught here: what the program does later is not a load failure.
        catchError((error: unknown) => of(messageOf(error))),
      );
      return concat(
        of(snapshot(AttestationState.LOADING)),
        loaded$.pipe(
          switchMap((loadError) =>
            loadError === undefined
              ? run$
              : of<AttestationSnapshot>({ state: AttestationState.FAILED_BY_URL, message: BOTGUARD_LOAD_FAILED_MESSAGE, cause: loadError }),
          ),
        ),
      );
    });

    return concat(
      concat(
        of(snapshot(AttestationState.INITIAL)),
        start$.pipe(
          take(1),
          switchMap(() => load$),
        ),
        NEVER,
      ).pipe(takeUntil(dispose$)),
      defer(() => {
        disposed = true;
        return of(snapshot(AttestationState.DISPOSED));
      }),
    );
  });
}
