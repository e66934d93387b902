import { StrictMode, useEffect, useState, type ReactElement } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { EmbeddedPlayer, type EmbeddedPlayerProps } from '../../../../src/host/react/EmbeddedPlayer';
import { playerIn } from '../../../../src/host/react/playerIn';
import { playerResetKey } from '../../../../src/host/react/playerResetKey';
import { Player } from '../../../../src/host/sdk/Player';

/**
 * Issue 16 item 3: `<EmbeddedPlayer>` on par with react-youtube — every prop, in StrictMode, against a simulated embed
 * (messages from the iframe's window and origin; commands read off the iframe's `postMessage`).
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

/** The commands the page sends to `iframe` from now on (after the handshake, so nothing is queued). */
function commandsTo(iframe: HTMLIFrameElement) {
  const posted: Array<{ func: string; args: unknown[] }> = [];
  jest.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(((data: unknown) => {
    const message = JSON.parse(String(data));
    if (message.event === 'command' && message.func !== 'addEventListener') posted.push({ func: message.func, args: message.args });
  }) as Window['postMessage']);
  fromEmbed(iframe, {
    event: 'initialDelivery',
    info: { apiInterface: ['playVideo', 'stopVideo', 'cueVideoById', 'loadVideoById', 'setSize'], playerState: 5 },
  });
  fromEmbed(iframe, { event: 'onReady' });
  return posted;
}

const strict = (props: EmbeddedPlayerProps): ReactElement => (
  <StrictMode>
    <EmbeddedPlayer host={EMBED} {...props} />
  </StrictMode>
);

async function mount(props: EmbeddedPlayerProps) {
  const view = render(strict(props));
  await waitFor(() => expect(view.container.querySelector('iframe')).not.toBeNull());
  return { ...view, iframe: () => view.container.querySelector('iframe')!, update: (next: EmbeddedPlayerProps) => view.rerender(strict(next)) };
}

afterEach(() => jest.restoreAllMocks());

describe('event props', () => {
  it('onPlay, onPause and onEnd fire exactly on states 1, 2 and 0, after onStateChange and with its { target, data }', async () => {
    const calls: string[] = [];
    const targets = new Set<unknown>();
    const note = (name: string) => (e: { target: Player; data: number }) => {
      targets.add(e.target);
      calls.push(`${name} ${e.data}`);
    };
    let player: Player | undefined;
    const { iframe } = await mount({
      videoId: 'VFsunrise01',
      onPlayer: (p) => (player = p ?? player),
      onStateChange: note('state'),
      onPlay: note('play'),
      onPause: note('pause'),
      onEnd: note('end'),
    });
    commandsTo(iframe());
    for (const state of [-1, 3, 1, 2, 3, 1, 0, 5]) fromEmbed(iframe(), { event: 'onStateChange', info: state });
    expect(calls).toEqual(['state -1', 'state 3', 'state 1', 'play 1', 'state 2', 'pause 2', 'state 3', 'state 1', 'play 1', 'state 0', 'end 0', 'state 5']);
    expect([...targets]).toEqual([player]);
  });

  it('onReady, onError, onPlaybackRateChange and onPlaybackQualityChange get { target, data }; the other protocol events stay', async () => {
    const seen: Array<[string, unknown]> = [];
    const { iframe } = await mount({
      videoId: 'VFsunrise01',
      onReady: (e) => seen.push(['ready', e.data]),
      onError: (e) => seen.push(['error', e.data]),
      onPlaybackRateChange: (e) => seen.push(['rate', e.data]),
      onPlaybackQualityChange: (e) => seen.push(['quality', e.data]),
      onVolumeChange: (e) => seen.push(['volume', e.data]),
      onAutoplayBlocked: () => seen.push(['autoplayBlocked', null]),
    });
    commandsTo(iframe());
    fromEmbed(iframe(), { event: 'onPlaybackRateChange', info: 1.5 });
    fromEmbed(iframe(), { event: 'onPlaybackQualityChange', info: 'small' });
    fromEmbed(iframe(), { event: 'onVolumeChange', info: { volume: 40, muted: false } });
    fromEmbed(iframe(), { event: 'onAutoplayBlocked' });
    fromEmbed(iframe(), { event: 'onError', info: 5 });
    expect(seen).toEqual([
      ['ready', null],
      ['rate', 1.5],
      ['quality', 'small'],
      ['volume', { volume: 40, muted: false }],
      ['autoplayBlocked', null],
      ['error', 5],
    ]);
  });
});

describe('a changed videoId', () => {
  it('cues the new video in the same iframe element; start/end go with it; a removed videoId stops the video', async () => {
    const createElement = jest.spyOn(document, 'createElement');
    const { iframe, update } = await mount({ videoId: 'VFsunrise01' });
    const first = iframe();
    const commands = commandsTo(first);
    update({ videoId: 'VFcitylight' });
    expect(iframe()).toBe(first);
    update({ videoId: 'VFcitylight', playerVars: { start: 3, end: '8' } });
    update({ videoId: 'VFoceanwave', playerVars: { start: 3, end: '8' } });
    update({ playerVars: { start: 3, end: '8' } });
    expect(commands).toEqual([
      { func: 'cueVideoById', args: ['VFcitylight'] },
      { func: 'cueVideoById', args: [{ videoId: 'VFcitylight', startSeconds: 3, endSeconds: 8 }] },
      { func: 'cueVideoById', args: [{ videoId: 'VFoceanwave', startSeconds: 3, endSeconds: 8 }] },
      { func: 'stopVideo', args: [] },
    ]);
    expect(iframe()).toBe(first);
    expect(first.isConnected).toBe(true);
    expect(createElement.mock.calls.filter(([tag]) => tag === 'iframe')).toHaveLength(1);
  });

  it('set by the parent in its own mount effect (one render brings the player and the new id) is still cued', async () => {
    function Parent() {
      const [videoId, setVideoId] = useState('VFsunrise01');
      useEffect(() => setVideoId('VFcitylight'), []);
      return <EmbeddedPlayer host={EMBED} videoId={videoId} />;
    }
    const view = render(
      <StrictMode>
        <Parent />
      </StrictMode>,
    );
    await waitFor(() => expect(view.container.querySelector('iframe')).not.toBeNull());
    const iframe = view.container.querySelector('iframe')!;
    expect(new URL(iframe.src).pathname).toBe('/embed/VFsunrise01');
    const commands = commandsTo(iframe);
    await waitFor(() => expect(commands).toEqual([{ func: 'cueVideoById', args: ['VFcitylight'] }]));
    expect(view.container.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('changed together with playerVars goes into the new player only: the old one is sent nothing', async () => {
    const { iframe, update } = await mount({ videoId: 'VFsunrise01' });
    const first = iframe();
    const commands = commandsTo(first);
    update({ videoId: 'VFcitylight', playerVars: { rel: 0 } });
    await waitFor(() => expect(iframe()).not.toBe(first));
    expect(new URL(iframe().src).pathname).toBe('/embed/VFcitylight');
    expect(commands).toEqual([]);
  });

  it('loads it instead when autoplay is on; turning autoplay on or off alone sends nothing and keeps the iframe', async () => {
    const { iframe, update } = await mount({ videoId: 'VFsunrise01', playerVars: { autoplay: 1, rel: 0 } });
    const first = iframe();
    const commands = commandsTo(first);
    update({ videoId: 'VFcitylight', playerVars: { autoplay: 1, rel: 0 } });
    update({ videoId: 'VFcitylight', playerVars: { autoplay: 0, rel: 0 } });
    update({ videoId: 'VFoceanwave', playerVars: { autoplay: 0, rel: 0 } });
    expect(commands).toEqual([
      { func: 'loadVideoById', args: ['VFcitylight'] },
      { func: 'cueVideoById', args: ['VFoceanwave'] },
    ]);
    expect(iframe()).toBe(first);
  });
});

describe('changed playerVars or host', () => {
  it('make a new player with a new iframe; the same variables in a new object (or written otherwise) do not', async () => {
    const { iframe, update, container } = await mount({ videoId: 'VFsunrise01', playerVars: { rel: 0, controls: 1 } });
    const first = iframe();
    update({ videoId: 'VFsunrise01', playerVars: { controls: true, rel: false } });
    expect(iframe()).toBe(first);

    update({ videoId: 'VFsunrise01', playerVars: { controls: 0, rel: false } });
    await waitFor(() => expect(first.isConnected).toBe(false));
    const second = iframe();
    expect(second).not.toBe(first);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(new URL(second.src).searchParams.get('controls')).toBe('0');
    expect(new URL(second.src).pathname).toBe('/embed/VFsunrise01');

    update({ videoId: 'VFsunrise01', playerVars: { controls: 0, rel: false }, host: 'http://other.test' });
    await waitFor(() => expect(second.isConnected).toBe(false));
    expect(new URL(iframe().src).origin).toBe('http://other.test');
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('the new player is the one the event props and onPlayer see', async () => {
    const players: Array<Player | undefined> = [];
    const states: string[] = [];
    const { iframe, update } = await mount({
      videoId: 'VFsunrise01',
      playerVars: { rel: 0 },
      onPlayer: (p) => players.push(p),
      onPlay: (e) => states.push(`play ${e.target.id}`),
    });
    const first = iframe();
    update({ videoId: 'VFsunrise01', playerVars: { rel: 1 }, onPlayer: (p) => players.push(p), onPlay: (e) => states.push(`play ${e.target.id}`) });
    await waitFor(() => expect(iframe()).not.toBe(first));
    commandsTo(iframe());
    fromEmbed(iframe(), { event: 'onStateChange', info: 1 });
    const last = players.filter(Boolean).at(-1)!;
    expect(last.getIframe()).toBe(iframe());
    expect(states).toEqual([`play ${last.id}`]);
  });

  it('playerResetKey: by value as the embed URL writes it; autoplay, start and end aside', () => {
    expect(playerResetKey({ playerVars: { a: 1, b: true, c: ['x', 'y'] } })).toBe(
      playerResetKey({ playerVars: { c: 'x,y', b: 1, a: '1', d: undefined, e: null } }),
    );
    expect(playerResetKey({ playerVars: { autoplay: 1, start: 5, end: 9 } })).toBe(playerResetKey({}));
    expect(playerResetKey({ playerVars: { a: 1 } })).not.toBe(playerResetKey({ playerVars: { a: 2 } }));
    expect(playerResetKey({ host: 'http://a.test' })).not.toBe(playerResetKey({}));
  });
});

describe('size', () => {
  it('new numbers resize the same iframe and tell the embed (setSize); other lengths set the attributes', async () => {
    const { iframe, update } = await mount({ videoId: 'VFsunrise01', width: 640, height: 360 });
    const first = iframe();
    expect([first.getAttribute('width'), first.getAttribute('height')]).toEqual(['640', '360']);
    const commands = commandsTo(first);
    update({ videoId: 'VFsunrise01', width: 480, height: 270 });
    expect([first.getAttribute('width'), first.getAttribute('height')]).toEqual(['480', '270']);
    expect(commands).toEqual([{ func: 'setSize', args: [480, 270] }]);
    update({ videoId: 'VFsunrise01', opts: { width: '100%', height: '50vh' } });
    expect([first.getAttribute('width'), first.getAttribute('height')]).toEqual(['100%', '50vh']);
    expect(iframe()).toBe(first);
    expect(commands).toHaveLength(1);
  });
});

describe('className, iframeClassName, id, title, loading', () => {
  it('land on the container and the iframe; loading is there before the iframe enters the document', async () => {
    const observed = document.createElement('div');
    document.body.append(observed);
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((r) => records.push(...r));
    observer.observe(observed, { childList: true, subtree: true, attributes: true, attributeFilter: ['loading', 'class', 'id'] });
    const view = render(strict({ videoId: 'VFsunrise01', className: 'outer', iframeClassName: 'frame wide', id: 'hero', title: 'Sunrise', loading: 'lazy' }), {
      container: observed,
    });
    await waitFor(() => expect(observed.querySelector('iframe')).not.toBeNull());
    records.push(...observer.takeRecords());
    const iframe = observed.querySelector('iframe')!;
    const container = observed.querySelector('.outer')!;
    expect(iframe.parentElement).toBe(container);
    expect(iframe.getAttribute('class')).toBe('frame wide');
    expect(iframe.id).toBe('hero');
    expect(iframe.title).toBe('Sunrise');
    expect(iframe.getAttribute('loading')).toBe('lazy');
    // The iframe arrived complete: no attribute of it changed once it was in the document.
    expect(records.some((r) => r.type === 'childList' && [...r.addedNodes].includes(iframe))).toBe(true);
    expect(records.filter((r) => r.type === 'attributes' && r.target === iframe)).toEqual([]);

    view.rerender(strict({ videoId: 'VFsunrise01', className: 'outer2', iframeClassName: 'frame', title: 'Sunrise again' }));
    expect(observed.querySelector('iframe')).toBe(iframe);
    expect(iframe.parentElement!.className).toBe('outer2');
    expect(iframe.getAttribute('class')).toBe('frame');
    expect(iframe.hasAttribute('id')).toBe(false);
    expect(iframe.hasAttribute('loading')).toBe(false);
    expect(iframe.title).toBe('Sunrise again');
    view.rerender(strict({ videoId: 'VFsunrise01' }));
    expect(iframe.hasAttribute('class')).toBe(false);
    expect(iframe.title).toBe('VidFrame video player');
    expect(iframe.parentElement!.className).toBe('vidframe-player');
    observer.disconnect();
    view.unmount();
    observed.remove();
  });

  it('react-youtube’s opts give the size and the player variables', async () => {
    const { iframe } = await mount({ videoId: 'VFsunrise01', opts: { width: 320, height: 180, playerVars: { rel: 0, autoplay: 1 } } });
    expect([iframe().getAttribute('width'), iframe().getAttribute('height')]).toEqual(['320', '180']);
    expect(new URL(iframe().src).searchParams.get('rel')).toBe('0');
    expect(new URL(iframe().src).searchParams.get('autoplay')).toBe('1');
  });

  it('playerIn hands the iframe over before it is in the document, and destroys the player if that fails', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const connected: boolean[] = [];
    const sub = playerIn(
      () => container,
      () => ({ host: EMBED, videoId: 'VFsunrise01' }),
      { prepareIframe: (f) => void connected.push(f.isConnected) },
    ).subscribe();
    expect(connected).toEqual([false]);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    sub.unsubscribe();
    await waitFor(() => expect(container.children).toHaveLength(0));
    const failed = jest.fn();
    const destroy = jest.spyOn(Player.prototype, 'destroy');
    playerIn(
      () => container,
      () => ({ host: EMBED }),
      {
        prepareIframe: () => {
          throw new Error('no');
        },
      },
    ).subscribe({ error: failed });
    expect(failed).toHaveBeenCalledWith(new Error('no'));
    expect(destroy).toHaveBeenCalledTimes(1);
    expect(container.children).toHaveLength(0);
    container.remove();
  });
});
