import { catchError, type MonoTypeOperatorFunction, of, throwError } from 'rxjs';
import { ApiFetchError } from './apiErrors';
import type { ApiResponse } from './parseApiResponse';
import { unwrapErrorDetails } from './unwrapErrorDetails';

/**
 * Turns an HTTP failure whose body carries a browse or player response in its error details (see
 * {@link unwrapErrorDetails}) into that response, keeping the failure's status; every other error goes on unchanged,
 * so a caller that relies on failures erroring (the player's `player` and `next` fetches) keeps doing so.
 *
 * ```
 * answer:  --#(ApiFetchError 404, details: [PlayerResponse p])
 * result:  --(r|)   r = { status: 404, body: p, text: JSON of p }
 * answer:  --#(ApiFetchError 500, text body)
 * result:  --#      the same error
 * ```
 */
export function recoverUnwrappedResponse<T = unknown>(): MonoTypeOperatorFunction<ApiResponse<T>> {
  return catchError((error: unknown) => {
    const unwrapped = error instanceof ApiFetchError ? unwrapErrorDetails(error.body) : undefined;
    if (unwrapped === undefined) return throwError(() => error);
    return of<ApiResponse<T>>({ status: (error as ApiFetchError).status, body: unwrapped as T, text: JSON.stringify(unwrapped) });
  });
}
