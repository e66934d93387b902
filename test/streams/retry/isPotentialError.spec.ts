import { isPotentialError } from '../../../streams/retry/isPotentialError';
import { ApiFetchError } from '../../../streams/transport/apiErrors';

describe('isPotentialError', () => {
  it.each([
    [new TypeError('Failed to fetch'), true],
    [{ status: 500 }, true],
    [{ status: 503 }, true],
    [{ status: 408 }, true],
    [{ status: 429 }, true],
    [new ApiFetchError(429, {}, false, 30_000), true],
    [new ApiFetchError(503, {}, false, 30_000), true],
    [{ status: 400 }, false],
    [{ status: 415 }, false],
    [{ status: 404 }, false],
    [{ status: '500' }, true],
    [null, true],
    ['text', true],
  ])('%p → %p', (error, potential) => {
    expect(isPotentialError(error)).toBe(potential);
  });
});
