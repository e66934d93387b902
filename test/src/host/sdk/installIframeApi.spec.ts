import { installIframeApi } from '../../../../src/host/sdk/installIframeApi';
import { setDefaultHost } from '../../../../src/host/sdk/defaultHost';
import { Player } from '../../../../src/host/sdk/Player';
import { PlayerState } from '../../../../streams/player/playerState';

type W = Window & { YT?: unknown; onYouTubeIframeAPIReady?: unknown; YTConfig?: unknown };

afterEach(() => {
  const w = window as W;
  delete w.YT;
  delete w.onYouTubeIframeAPIReady;
  delete w.YTConfig;
  setDefaultHost(undefined);
  document.body.innerHTML = '';
  jest.useRealTimers();
});

describe('installIframeApi (the /iframe_api script)', () => {
  it('defines YT at once and calls onYouTubeIframeAPIReady and YT.ready callbacks after the page scripts ran', () => {
    jest.useFakeTimers();
    const order: string[] = [];
    const yt = installIframeApi(window, { scriptSrc: 'http://embed.test:8080/iframe_api' });
    expect((window as W).YT).toBe(yt);
    expect(yt.Player).toBe(Player);
    expect(yt.PlayerState).toBe(PlayerState);
    expect(yt.PlayerState.PLAYING).toBe(1);
    expect(yt.loaded).toBe(0);
    // Defined after the script tag, as pages do: still called.
    (window as W).onYouTubeIframeAPIReady = () => order.push(`api ready, loaded=${yt.loaded}`);
    yt.ready(() => order.push('YT.ready'));
    expect(order).toEqual([]);
    jest.runOnlyPendingTimers();
    expect(order).toEqual(['api ready, loaded=1', 'YT.ready']);
    yt.ready(() => order.push('late YT.ready'));
    expect(order).toHaveLength(3);

    // Players default to the origin the script came from.
    const div = document.createElement('div');
    div.id = 'p';
    document.body.append(div);
    const player = new yt.Player('p', { videoId: 'VFsunrise01' });
    expect(new URL(player.getIframe().src).origin).toBe('http://embed.test:8080');
    player.destroy();
  });

  it('a second copy of the script keeps the first; a page stub object is extended; YTConfig.host and setConfig win', () => {
    jest.useFakeTimers();
    const stub = { custom: 1 };
    (window as W).YT = stub;
    const first = installIframeApi(window, { scriptSrc: 'http://a.test/iframe_api' });
    expect(first).toBe(stub);
    expect(installIframeApi(window, { scriptSrc: 'http://b.test/iframe_api' })).toBe(first);
    jest.runOnlyPendingTimers();
    const div = document.createElement('div');
    document.body.append(div);
    first.setConfig({ host: 'http://c.test/' });
    let player = new first.Player(div, {});
    expect(new URL(player.getIframe().src).origin).toBe('http://c.test');
    player.destroy();
    (window as W).YTConfig = { host: 'http://d.test' };
    player = new first.Player(div, {});
    expect(new URL(player.getIframe().src).origin).toBe('http://d.test');
    player.destroy();
  });

  it('a throwing ready callback does not stop the others', () => {
    jest.useFakeTimers();
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const yt = installIframeApi(window, {});
    const seen: string[] = [];
    (window as W).onYouTubeIframeAPIReady = () => {
      throw new Error('page bug');
    };
    yt.ready(() => seen.push('still called'));
    jest.runOnlyPendingTimers();
    expect(seen).toEqual(['still called']);
  });
});
