import { retryAfterMsOf } from '../../../streams/retry/retryAfterMsOf';
import { ApiFetchError } from '../../../streams/transport/apiErrors';

describe('retryAfterMsOf', () => {
  it.each([
    [new ApiFetchError(429, {}, false, 30_000), 30_000],
    [new ApiFetchError(503, {}, false, 0), 0],
    [{ status: 429, retryAfterMs: 1_500 }, 1_500],
    [new ApiFetchError(429, {}), undefined],
    [{ status: 429, retryAfterMs: -1 }, undefined],
    [{ status: 429, retryAfterMs: Number.NaN }, undefined],
    [{ status: 429, retryAfterMs: Number.POSITIVE_INFINITY }, undefined],
    [{ status: 429, retryAfterMs: '30000' }, undefined],
    [new TypeError('Failed to fetch'), undefined],
    [null, undefined],
    [undefined, undefined],
    ['text', undefined],
  ])('%p → %p', (error, ms) => {
    expect(retryAfterMsOf(error)).toBe(ms);
  });
});
