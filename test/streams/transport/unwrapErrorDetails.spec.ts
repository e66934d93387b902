import { ApiFetchError, requestTimedOut } from '../../../streams/transport/apiErrors';
import type { ApiResponse } from '../../../streams/transport/parseApiResponse';
import { recoverUnwrappedResponse } from '../../../streams/transport/recoverUnwrappedResponse';
import { unwrapErrorDetails } from '../../../streams/transport/unwrapErrorDetails';
import { createTestScheduler } from '../../helpers/testScheduler';

const playerResponse = { playabilityStatus: { status: 'ERROR', errorCode: 'api.invalidparam' }, videoDetails: { videoId: 'VFgone00001' } };
const errorWith = (...details: unknown[]) => ({ error: { code: 404, message: 'Not found', details } });

describe('unwrapErrorDetails (spec §7: error details unwrapped for browse and player responses)', () => {
  it('returns the first PlayerResponse or BrowseResponse detail without its @type', () => {
    expect(unwrapErrorDetails(errorWith({ '@type': 'type.googleapis.com/vidframe.PlayerResponse', ...playerResponse }))).toEqual(playerResponse);
    expect(unwrapErrorDetails(errorWith({ '@type': 'BrowseResponse', contents: [1] }))).toEqual({ contents: [1] });
    expect(
      unwrapErrorDetails(
        errorWith(
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'X' },
          'junk',
          null,
          { '@type': 'x.PlayerResponse', a: 1 },
          { '@type': 'x.BrowseResponse', b: 2 },
        ),
      ),
    ).toEqual({ a: 1 });
  });

  it('leaves every other body alone (undefined): no error, no details, other types, @type only as a prefix, junk', () => {
    const bodies: unknown[] = [
      undefined,
      null,
      'Internal Server Error',
      42,
      [],
      { error: 'x' },
      { error: { code: 500 } },
      { error: { details: 'x' } },
      errorWith(),
      errorWith({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'X' }),
      errorWith({ '@type': 'PlayerResponseV2' }),
      errorWith({ '@type': 7 }),
      errorWith({ noType: true }),
      { details: [{ '@type': 'x.PlayerResponse' }] },
    ];
    for (const body of bodies) expect(unwrapErrorDetails(body)).toBeUndefined();
  });

  it('does not change the body it reads', () => {
    const body = errorWith({ '@type': 'x.PlayerResponse', a: 1 });
    const copy = structuredClone(body);
    unwrapErrorDetails(body);
    expect(body).toEqual(copy);
  });
});

describe('recoverUnwrappedResponse', () => {
  const ok: ApiResponse = { status: 200, body: { a: 1 }, text: '{"a":1}' };

  it('answers an HTTP failure carrying a player response with that response and the failure status', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const failure = new ApiFetchError(404, errorWith({ '@type': 'x.PlayerResponse', ...playerResponse }));
      const unwrapped: ApiResponse = { status: 404, body: playerResponse, text: JSON.stringify(playerResponse) };
      expectObservable(cold<ApiResponse>('--#', undefined, failure).pipe(recoverUnwrappedResponse())).toBe('--(r|)', { r: unwrapped });
    });
  });

  it('passes successes through and rethrows every other error as it was', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const textFailure = new ApiFetchError(500, 'Internal Server Error');
      const otherDetails = new ApiFetchError(403, errorWith({ '@type': 'google.rpc.ErrorInfo' }));
      const timeout = requestTimedOut();
      expectObservable(cold('-a|', { a: ok }).pipe(recoverUnwrappedResponse())).toBe('-a|', { a: ok });
      expectObservable(cold<ApiResponse>('-#', undefined, textFailure).pipe(recoverUnwrappedResponse())).toBe('-#', undefined, textFailure);
      expectObservable(cold<ApiResponse>('-#', undefined, otherDetails).pipe(recoverUnwrappedResponse())).toBe('-#', undefined, otherDetails);
      expectObservable(cold<ApiResponse>('-#', undefined, timeout).pipe(recoverUnwrappedResponse())).toBe('-#', undefined, timeout);
    });
  });
});
