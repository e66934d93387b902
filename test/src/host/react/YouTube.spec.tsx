import { createRef, isValidElement, StrictMode } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import YouTube from '../../../../src/host/react/YouTube';
import { jsx, jsxs } from '../../../../src/host/react/jsxRuntime';
import { Player } from '../../../../src/host/sdk/Player';

/**
 * The react-youtube drop-in (`import YouTube from 'vidframe/react'`): a class a ref can hold, `YouTube.PlayerState`,
 * `getInternalPlayer()` with promise-returning methods, against a simulated embed (messages from the iframe's window
 * and origin; commands read off the iframe's `postMessage`). And the JSX runtime the SDK build uses in place of
 * `react/jsx-runtime`.
 */
const EMBED = 'http://embed.test';

function fromEmbed(iframe: HTMLIFrameElement, body: Record<string, unknown>) {
  const id = Number(new URL(iframe.src).searchParams.get('widgetid'));
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', { data: JSON.stringify({ channel: 'widget', id, info: null, ...body }), origin: EMBED, source: iframe.contentWindow }),
    );
  });
}

afterEach(() => jest.restoreAllMocks());

describe('YouTube (react-youtube drop-in)', () => {
  it('has react-youtube’s PlayerState constants as a static', () => {
    expect(YouTube.PlayerState).toEqual({ UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 });
  });

  it('through a ref: getInternalPlayer() gives the player with promise-returning methods, null once unmounted', async () => {
    const ref = createRef<YouTube>();
    const onPlayer = jest.fn();
    const view = render(
      <StrictMode>
        <YouTube ref={ref} videoId="VFsunrise01" opts={{ host: EMBED, width: 320, height: 180 }} id="frame" className="box" onPlayer={onPlayer} />
      </StrictMode>,
    );
    await waitFor(() => expect(ref.current?.getInternalPlayer()).not.toBeNull());
    const iframe = view.container.querySelector('iframe')!;
    expect(iframe.id).toBe('frame');
    expect(view.container.querySelector('.box')?.contains(iframe)).toBe(true);
    const yt = ref.current!;
    const internal = yt.getInternalPlayer()!;
    expect(yt.internalPlayer).toBe(internal);
    expect(yt.player).toBeInstanceOf(Player);
    expect(onPlayer).toHaveBeenLastCalledWith(yt.player);
    // Stable functions, as youtube-player's are.
    expect(internal.playVideo).toBe(internal.playVideo);

    const posted: string[] = [];
    jest.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(((data: unknown) => {
      const message = JSON.parse(String(data));
      if (message.event === 'command' && message.func !== 'addEventListener') posted.push(message.func);
    }) as Window['postMessage']);
    fromEmbed(iframe, { event: 'initialDelivery', info: { apiInterface: ['playVideo', 'pauseVideo'], playerState: 5, volume: 40 } });
    fromEmbed(iframe, { event: 'onReady' });

    const states: number[] = [];
    internal.on('stateChange', (event) => states.push(event.data));
    const played = internal.playVideo();
    expect(played).toBeInstanceOf(Promise);
    await expect(played).resolves.toBeUndefined();
    expect(posted).toEqual(['playVideo']);
    await expect(internal.getVolume()).resolves.toBe(40);
    await expect(internal.getIframe()).resolves.toBe(iframe);
    fromEmbed(iframe, { event: 'onStateChange', info: 1 });
    expect(states).toEqual([1]);

    view.unmount();
    expect(yt.getInternalPlayer()).toBeNull();
    expect(yt.player).toBeNull();
    expect(onPlayer).toHaveBeenLastCalledWith(undefined);
  });

  it('a method that throws gives a rejected promise, not an exception', async () => {
    const ref = createRef<YouTube>();
    render(<YouTube ref={ref} videoId="VFsunrise01" opts={{ host: EMBED }} />);
    await waitFor(() => expect(ref.current?.getInternalPlayer()).not.toBeNull());
    jest.spyOn(ref.current!.player!, 'seekTo').mockImplementation(() => {
      throw new Error('no');
    });
    await expect(ref.current!.getInternalPlayer()!.seekTo(3, true)).rejects.toThrow('no');
  });
});

describe('the SDK build’s JSX runtime (createElement only)', () => {
  it('jsx and jsxs make the elements React’s own runtime makes, keys included', () => {
    const one = jsx('p', { className: 'a', children: 'text' }, 'k');
    expect(isValidElement(one)).toBe(true);
    expect(one.key).toBe('k');
    expect(renderToStaticMarkup(one)).toBe('<p class="a">text</p>');
    const many = jsxs('ul', { children: [jsx('li', { children: 'a' }), jsx('li', { children: 'b' })] });
    expect(many.key).toBeNull();
    expect(renderToStaticMarkup(many)).toBe('<ul><li>a</li><li>b</li></ul>');
  });

  it('static children (jsxs) draw no missing-key warning', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    render(jsxs('div', { children: [jsx('span', { children: 'a' }), jsx('span', { children: 'b' })] }));
    expect(error).not.toHaveBeenCalled();
  });
});
