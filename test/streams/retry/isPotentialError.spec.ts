import { isPotentialError } from '../../../streams/retry/isPotentialError';

describe('isPotentialError', () => {
  it.each([
    [new TypeError('Failed to fetch'), true],
    [{ status: 500 }, true],
    [{ status: 503 }, true],
    [{ status: 408 }, true],
    [{ status: 429 }, true],
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
