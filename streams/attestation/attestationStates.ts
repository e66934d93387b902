import type { Observable } from 'rxjs';

/**
 * The eight states of the attestation ("Botguard") loader, spec §4, as the numbers the spec gives them: diagnostics and
 * the browser tests read the number, so it must not drift from the spec's list.
 */
export const AttestationState = {
  INITIAL: 1,
  LOADING: 2,
  FAILED_BY_URL: 3,
  FAILED_BY_SCRIPT: 4,
  RUNNING: 5,
  READY: 6,
  FAILED: 7,
  DISPOSED: 8,
} as const;
export type AttestationStateCode = (typeof AttestationState)[keyof typeof AttestationState];

/** Spec §8, verbatim: the program's script could not be loaded (no or an invalid URL, a load error, a stalled load). */
export const BOTGUARD_LOAD_FAILED_MESSAGE = 'Unable to load Botguard';
/** Spec §8, verbatim: the script loaded but gave no program, or the program threw while starting. */
export const BOTGUARD_NO_PROGRAM_MESSAGE = 'Cannot initialize botguard without program';

/** Where the program gets a challenge (`POST`, no body), on the page's own origin: shared by the server and the page. */
export const ATTESTATION_CHALLENGE_PATH = '/attestation/challenge';

/**
 * The program the script provides, once started: it turns one server challenge into one response token (and errors
 * when it cannot meet the challenge). Each token is single-use on the server, so every caller gets its own solve.
 */
export interface AttestationProgram {
  solve(challenge: unknown): Observable<string>;
}

/** Where the loader stands. Failures carry the spec's message and, for diagnostics, what caused it. */
export type AttestationSnapshot =
  | { state: 1 | 2 | 5 | 8 }
  | { state: 3 | 4 | 7; message: string; cause?: string }
  /** Ready: `response()` fetches a fresh challenge and solves it (one token per subscription). */
  | { state: 6; response: () => Observable<string> };

/**
 * Whether `url` may name the program's script: root-relative only (`/attestation/program.js`), never `//host/…` or
 * an absolute URL — the program runs with the page's rights, so it comes from the page's own origin, which also lets
 * the CSP's `script-src 'self'` allow it and keeps it working behind proxies under other host names.
 */
export const isAttestationProgramUrl = (url: unknown): url is string => typeof url === 'string' && url.length <= 2048 && /^\/(?![/\\])[^\s]*$/.test(url);
