import { BehaviorSubject, firstValueFrom, of, filter } from 'rxjs';
import type { PlatformCalls, PlatformResult } from '../../../../streams/platform/platformCalls';
import type { VideoViewerState } from '../../../../streams/platform/payloads';
import { createViewerActions, failureMessage } from '../../../../src/embed/views/viewerActions';
import type { Session } from '../../../../src/embed/services/identity';

const CHANNEL = 'UCvidframeSamples0000000';
const state: VideoViewerState = {
  videoId: 'VFsunrise01',
  channel: { channelId: CHANNEL, title: 'VidFrame Samples', subscribed: false },
  inWatchLater: false,
  feedback: { notInterested: 'ni', report: [] },
};
const ok = <T>(body: T): PlatformResult<T> => ({ ok: true, status: 200, body });

function setup(overrides: Partial<PlatformCalls> = {}) {
  const sent: { name: string; input: unknown }[] = [];
  const record = (name: string, answer: PlatformResult<unknown>) => (input: unknown) => {
    sent.push({ name, input });
    return of(answer);
  };
  const calls = {
    videoViewerState: () => of(ok(state)),
    subscribe: record('subscribe', ok({ channelId: CHANNEL, subscribed: true, notificationLevel: 'personalized' })),
    addToWatchLater: (videoId: string, source: string) => record('addToWatchLater', ok({ playlistId: 'WL', videoIds: ['VFsunrise01'] }))({ videoId, source }),
    sendFeedback: record('sendFeedback', ok({ feedbackResponses: [] })),
    ...overrides,
  } as unknown as PlatformCalls;
  const session$ = new BehaviorSubject<Session | null>({ account: { id: 'acc_ada' } } as Session);
  const actions = createViewerActions({
    calls,
    attestation: { response: async () => 'token-1' },
    videoId$: of('VFsunrise01'),
    identity: { session$ },
    win: window,
  });
  return { actions, sent };
}

const readyView = (actions: ReturnType<typeof setup>['actions']) => firstValueFrom(actions.view$.pipe(filter((v) => v.status === 'ready')));

describe('createViewerActions', () => {
  it('subscribes with a fresh attestation response and applies the answer to the view', async () => {
    const { actions, sent } = setup();
    await readyView(actions);
    expect(await actions.subscribe(CHANNEL)).toEqual({ ok: true });
    expect(sent[0]).toEqual({
      name: 'subscribe',
      input: { channelId: CHANNEL, source: 'embed', botguardResponse: 'token-1', clientFeature: 'embed_channel_bar' },
    });
    const view = await firstValueFrom(actions.view$);
    expect(view.status === 'ready' && view.state.channel).toEqual({
      channelId: CHANNEL,
      title: 'VidFrame Samples',
      subscribed: true,
      notificationLevel: 'personalized',
    });
  });

  it('marks the video saved when the answer lists it in watch later', async () => {
    const { actions } = setup();
    await readyView(actions);
    await actions.setWatchLater('VFsunrise01', true);
    const view = await firstValueFrom(actions.view$);
    expect(view.status === 'ready' && view.state.inWatchLater).toBe(true);
  });

  it('gives the server’s message on an HTTP failure and leaves the view as it was', async () => {
    const refused: PlatformResult<never> = {
      ok: false,
      kind: 'http',
      status: 403,
      message: 'Error: API fetch failed',
      body: { error: { message: 'Attestation token was already used' }, errorMetadata: { status: 403 } },
    };
    const { actions } = setup({ subscribe: () => of(refused) } as Partial<PlatformCalls>);
    await readyView(actions);
    expect(await actions.subscribe(CHANNEL)).toEqual({ ok: false, message: 'Attestation token was already used', status: 403 });
    const view = await firstValueFrom(actions.view$);
    expect(view.status === 'ready' && view.state.channel.subscribed).toBe(false);
  });

  it('sends feedback with one 16-character cpn per video, merged', async () => {
    const { actions, sent } = setup();
    await readyView(actions);
    await actions.sendFeedback('ni');
    await actions.sendFeedback('ni');
    const [first, second] = sent.map((s) => s.input as { tokens: string[]; cpn: string; shouldMerge: boolean });
    expect(first).toMatchObject({ tokens: ['ni'], shouldMerge: true });
    expect(first.cpn).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(second.cpn).toBe(first.cpn);
  });
});

describe('failureMessage', () => {
  it('falls back to the spec message when the body has none', () => {
    expect(
      failureMessage({ ok: false, kind: 'http', status: 500, message: 'Error: API fetch failed', body: { text: 'oops', errorMetadata: { status: 500 } } }),
    ).toBe('Error: API fetch failed');
    expect(failureMessage({ ok: false, kind: 'request', code: 'net.timeout', message: 'Request timed out' })).toBe('Request timed out');
  });
});
