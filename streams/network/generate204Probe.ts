import { catchError, defer, from, map, of, type Observable } from 'rxjs';

/**
 * The probe that tells a live network from a captive or dead one (for `networkStatus`): the reference server answers
 * `/generate_204` with 204, anything else (another status, a failure) is no network. `fetch` is the page's (injected).
 */
export const generate204Probe = (fetch: (url: string, init: RequestInit) => Promise<{ status: number }>) => (): Observable<boolean> =>
  defer(() => from(fetch('/generate_204', { cache: 'no-store' }))).pipe(
    map((r) => r.status === 204),
    catchError(() => of(false)),
  );
