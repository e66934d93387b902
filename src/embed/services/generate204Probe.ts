import { catchError, defer, from, map, of, type Observable } from 'rxjs';

/** The probe that tells a live network from a captive or dead one: the reference server answers `/generate_204` with 204. */
export const generate204Probe = (win: Window) => (): Observable<boolean> =>
  defer(() => from(win.fetch('/generate_204', { cache: 'no-store' }))).pipe(
    map((r) => r.status === 204),
    catchError(() => of(false)),
  );
