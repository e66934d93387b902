import { StrictMode, useRef } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { EmbeddedPlayer } from '../../../../src/host/react/EmbeddedPlayer';
import { usePlayer } from '../../../../src/host/react/usePlayer';
import { usePlayerInfo, usePlayerState } from '../../../../src/host/react/usePlayerState';
import { usePlayerEvent } from '../../../../src/host/react/usePlayerEvent';
import type { Player } from '../../../../src/host/sdk/Player';

const EMBED = 'http://embed.test';

/** The simulated embed: answers from the iframe's window and origin. */
function fromEmbed(iframe: HTMLIFrameElement, id: number, body: Record<string, unknown>) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', { data: JSON.stringify({ channel: 'widget', id, info: null, ...body }), origin: EMBED, source: iframe.contentWindow }),
    );
  });
}

function spyPosts(iframe: HTMLIFrameElement) {
  const posted: Array<Record<string, unknown>> = [];
  jest.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(((data: unknown) => void posted.push(JSON.parse(String(data)))) as Window['postMessage']);
  return posted;
}

const handshake = (iframe: HTMLIFrameElement, id: number, info: Record<string, unknown> = {}) => {
  fromEmbed(iframe, id, {
    event: 'initialDelivery',
    info: { apiInterface: ['playVideo', 'cueVideoById', 'loadVideoById'], playerState: 5, duration: 12, ...info },
  });
  fromEmbed(iframe, id, { event: 'onReady' });
};

afterEach(() => jest.restoreAllMocks());

describe('<EmbeddedPlayer> in StrictMode', () => {
  it('creates one iframe, calls the latest handlers, cues a new videoId once, and cleans up on unmount', async () => {
    const createElement = jest.spyOn(document, 'createElement');
    const removeListener = jest.spyOn(window, 'removeEventListener');
    const calls: string[] = [];
    let target: Player | undefined;
    const onReady = jest.fn((e: { target: Player }) => {
      target = e.target;
      calls.push('ready');
    });
    const { rerender, unmount, container } = render(
      <StrictMode>
        <EmbeddedPlayer host={EMBED} videoId="VFsunrise01" onReady={onReady} onStateChange={(e) => calls.push(`first ${e.data}`)} />
      </StrictMode>,
    );
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(createElement.mock.calls.filter(([tag]) => tag === 'iframe')).toHaveLength(1);
    const iframe = container.querySelector('iframe')!;
    expect(new URL(iframe.src).pathname).toBe('/embed/VFsunrise01');
    const id = Number(new URL(iframe.src).searchParams.get('widgetid'));
    const posted = spyPosts(iframe);

    handshake(iframe, id);
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(target?.getDuration()).toBe(12);
    fromEmbed(iframe, id, { event: 'onStateChange', info: 1 });

    // A new handler: used at once, nothing resubscribed.
    const before = posted.length;
    rerender(
      <StrictMode>
        <EmbeddedPlayer host={EMBED} videoId="VFsunrise01" onReady={onReady} onStateChange={(e) => calls.push(`second ${e.data}`)} />
      </StrictMode>,
    );
    fromEmbed(iframe, id, { event: 'onStateChange', info: 2 });
    expect(posted.length).toBe(before);
    expect(calls).toEqual(['ready', 'first 1', 'second 2']);

    // Every event name is asked for exactly once.
    const subscriptions = posted.filter((m) => m.func === 'addEventListener').map((m) => (m.args as string[])[0]);
    expect(new Set(subscriptions).size).toBe(subscriptions.length);
    expect(subscriptions).toContain('onStateChange');

    rerender(
      <StrictMode>
        <EmbeddedPlayer host={EMBED} videoId="VFcitylight" onReady={onReady} />
      </StrictMode>,
    );
    expect(posted.filter((m) => m.event === 'command' && m.func !== 'addEventListener')).toEqual([
      { event: 'command', func: 'cueVideoById', args: ['VFcitylight'], id, channel: 'widget' },
    ]);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);

    unmount();
    await waitFor(() => expect(iframe.isConnected).toBe(false));
    expect(removeListener.mock.calls.some(([type]) => type === 'message')).toBe(true);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it('loads (rather than cues) a new videoId when autoplay is on', async () => {
    const { rerender, container } = render(
      <StrictMode>
        <EmbeddedPlayer host={EMBED} videoId="VFsunrise01" playerVars={{ autoplay: 1 }} />
      </StrictMode>,
    );
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    const iframe = container.querySelector('iframe')!;
    const id = Number(new URL(iframe.src).searchParams.get('widgetid'));
    const posted = spyPosts(iframe);
    handshake(iframe, id);
    rerender(
      <StrictMode>
        <EmbeddedPlayer host={EMBED} videoId="VFcitylight" playerVars={{ autoplay: 1 }} />
      </StrictMode>,
    );
    expect(posted.filter((m) => m.func === 'loadVideoById')).toHaveLength(1);
  });
});

function Readout({ onPlayer }: { onPlayer: (p: Player | undefined) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const player = usePlayer(ref, { host: EMBED, videoId: 'VFsunrise01' });
  onPlayer(player);
  const state = usePlayerState(player);
  const info = usePlayerInfo(player);
  usePlayerEvent(player, 'onError', (code) => onErrorSeen.push(code));
  return (
    <>
      <div ref={ref} />
      <output data-testid="state">{String(state)}</output>
      <output data-testid="volume">{String(info.volume)}</output>
    </>
  );
}
const onErrorSeen: number[] = [];

describe('usePlayer, usePlayerState, usePlayerInfo, usePlayerEvent', () => {
  it('re-render with the player state and info; one subscription per event source', async () => {
    let player: Player | undefined;
    render(
      <StrictMode>
        <Readout onPlayer={(p) => (player = p)} />
      </StrictMode>,
    );
    await waitFor(() => expect(player).toBeDefined());
    const iframe = player!.getIframe();
    const posted = spyPosts(iframe);
    expect(screen.getByTestId('state').textContent).toBe('undefined');
    handshake(iframe, player!.id, { volume: 30 });
    expect(screen.getByTestId('state').textContent).toBe('5');
    expect(screen.getByTestId('volume').textContent).toBe('30');
    fromEmbed(iframe, player!.id, { event: 'infoDelivery', info: { playerState: 1, volume: 55 } });
    expect(screen.getByTestId('state').textContent).toBe('1');
    expect(screen.getByTestId('volume').textContent).toBe('55');
    fromEmbed(iframe, player!.id, { event: 'onError', info: 150 });
    // StrictMode subscribed twice and unsubscribed once: the handler ran once.
    expect(onErrorSeen).toEqual([150]);
    expect(posted.filter((m) => m.func === 'addEventListener')).toHaveLength(1);
  });
});
