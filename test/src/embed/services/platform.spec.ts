import { lastValueFrom, of, throwError } from 'rxjs';
import type { EmbedApi } from '../../../../src/embed/services/api';
import { startPlatformCalls } from '../../../../src/embed/services/platform';
import { ApiFetchError } from '../../../../streams/transport/apiErrors';

/** An EmbedApi whose fetchApi answers with `answer`; nothing else is used by the platform calls. */
const apiAnswering = (answer: EmbedApi['fetchApi']) => ({ fetchApi: answer }) as unknown as EmbedApi;

describe('startPlatformCalls', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => (warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined)));
  afterEach(() => warn.mockRestore());

  it('sends through the page API client and resolves its answer', async () => {
    const sent: unknown[] = [];
    const calls = startPlatformCalls(
      apiAnswering((endpoint, payload) => {
        sent.push([endpoint, payload]);
        return of({ status: 200, body: { channelId: 'UCada', notificationLevel: 'all' }, text: '' });
      }),
      window,
    );
    const result = await lastValueFrom(calls.modifyChannelPreference({ channelId: 'UCada', level: 'all', source: 'bell' }));
    expect(result).toEqual({ ok: true, status: 200, body: { channelId: 'UCada', notificationLevel: 'all' } });
    expect(sent).toEqual([['notification/modify_channel_preference', expect.objectContaining({ params: expect.any(String) })]]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('a failed call warns on the console with the spec line and hands the error to error reporting', async () => {
    const error = new ApiFetchError(500, { error: { code: 500 } });
    const reported: unknown[] = [];
    const calls = startPlatformCalls(
      apiAnswering(() => throwError(() => error)),
      window,
      { report: (e, context) => reported.push([e, context]) },
    );
    expect(await lastValueFrom(calls.sendFeedback({ tokens: ['t'], cpn: 'c' }))).toMatchObject({ ok: false, kind: 'http', status: 500 });
    expect(warn).toHaveBeenCalledWith('[vidframe] platform call failed:', 'feedback', 500, 'Error: API fetch failed');
    expect(reported).toEqual([[error, 'platform feedback']]);
  });

  it('without error reporting, the console still gets the line', async () => {
    const calls = startPlatformCalls(
      apiAnswering(() => throwError(() => new ApiFetchError(404, 'nope'))),
      window,
    );
    expect(await lastValueFrom(calls.videoViewerState('v'))).toMatchObject({ ok: false, status: 404, body: { text: 'nope', errorMetadata: { status: 404 } } });
    expect(warn).toHaveBeenCalledWith('[vidframe] platform call failed:', 'next', 404, 'Error: API fetch failed');
  });
});
