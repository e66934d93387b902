import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { EmbeddedPlayer } from '../../../../src/host/react/EmbeddedPlayer';
import { PlayerFacade } from '../../../../src/host/react/PlayerFacade';
import type { Player } from '../../../../src/host/sdk/Player';

/** Issue 16 item 3: the lazy facade in jsdom (the real browser's proof is test/e2e/reactFacade.e2e.ts). */
const EMBED = 'http://embed.test';

function fromEmbed(iframe: HTMLIFrameElement, body: Record<string, unknown>) {
  const id = Number(new URL(iframe.src).searchParams.get('widgetid'));
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', { data: JSON.stringify({ channel: 'widget', id, info: null, ...body }), origin: EMBED, source: iframe.contentWindow }),
    );
  });
}

afterEach(() => {
  jest.restoreAllMocks();
  document.head.querySelectorAll('link[rel="preconnect"]').forEach((l) => l.remove());
});

describe('<EmbeddedPlayer facade>', () => {
  it('shows the poster and a button named after the video, with no iframe until pressed', () => {
    const createElement = jest.spyOn(document, 'createElement');
    const { container } = render(
      <StrictMode>
        <EmbeddedPlayer facade host={EMBED} videoId="VFsunrise01" title="Sunrise over the test pattern" className="tile" width={320} />
      </StrictMode>,
    );
    const button = screen.getByRole('button', { name: 'Play: Sunrise over the test pattern' });
    expect(button.tagName).toBe('BUTTON');
    expect(button.getAttribute('type')).toBe('button');
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(`${EMBED}/vi/VFsunrise01/poster`);
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('loading')).toBe('lazy');
    const box = container.firstElementChild as HTMLElement;
    expect(box.className).toBe('tile');
    expect(box.style.width).toBe('320px');
    expect(box.style.aspectRatio).toBe('16 / 9');
    expect(container.querySelector('iframe')).toBeNull();
    expect(createElement.mock.calls.filter(([tag]) => tag === 'iframe')).toHaveLength(0);
  });

  it('pressed: creates one player with autoplay, in the same box, focuses its iframe, and the event props work', async () => {
    const calls: string[] = [];
    let player: Player | undefined;
    const { container } = render(
      <StrictMode>
        <EmbeddedPlayer
          facade
          host={EMBED}
          videoId="VFcitylight"
          title="City lights"
          className="tile"
          playerVars={{ rel: 0 }}
          onPlayer={(p) => (player = p ?? player)}
          onPlay={(e) => calls.push(`play ${e.data}`)}
        />
      </StrictMode>,
    );
    screen.getByRole('button', { name: 'Play: City lights' }).focus();
    fireEvent.click(screen.getByRole('button', { name: 'Play: City lights' }));
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    const iframe = container.querySelector('iframe')!;
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(iframe.parentElement!.className).toBe('tile');
    // The player keeps the facade's box (full width, 16:9 without a height): pressing play does not collapse it.
    expect((iframe.parentElement as HTMLElement).style.width).toBe('100%');
    expect((iframe.parentElement as HTMLElement).style.aspectRatio).toBe('16 / 9');
    expect(screen.queryByRole('button')).toBeNull();
    const src = new URL(iframe.src);
    expect(src.pathname).toBe('/embed/VFcitylight');
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(src.searchParams.get('rel')).toBe('0');
    expect(iframe.title).toBe('City lights');
    expect(document.activeElement).toBe(iframe);
    expect(player?.getIframe()).toBe(iframe);
    fromEmbed(iframe, { event: 'initialDelivery', info: { apiInterface: [], playerState: -1 } });
    fromEmbed(iframe, { event: 'onReady' });
    fromEmbed(iframe, { event: 'onStateChange', info: 1 });
    expect(calls).toEqual(['play 1']);
  });

  it('hover or focus preconnects to the embed origin, once; a page-origin embed needs none', () => {
    render(
      <>
        <PlayerFacade host={EMBED} videoId="VFsunrise01" onActivate={() => undefined} />
        <PlayerFacade host={EMBED} videoId="VFcitylight" onActivate={() => undefined} />
        <PlayerFacade videoId="VFoceanwave" title="Ocean wave" onActivate={() => undefined} />
      </>,
    );
    const [first, second, own] = screen.getAllByRole('button');
    fireEvent.pointerEnter(first);
    fireEvent.focus(second);
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preconnect"]')].map((l) => l.href.replace(/\/$/, ''));
    expect(links).toEqual([EMBED]);
    fireEvent.pointerEnter(own);
    expect(document.head.querySelectorAll('link[rel="preconnect"]')).toHaveLength(1);
    // Without a host, the poster comes from the page's own origin (as the player would).
    expect(own.querySelector('img')!.getAttribute('src')).toBe(`${location.origin}/vi/VFoceanwave/poster`);
  });

  it('a poster prop wins; a malformed id has no poster; without a title the label names the id', () => {
    const { container } = render(
      <>
        <PlayerFacade host={EMBED} videoId="VFsunrise01" poster="/own.jpg" onActivate={() => undefined} />
        <PlayerFacade host={EMBED} videoId="bad id" onActivate={() => undefined} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Play video VFsunrise01' }).querySelector('img')!.getAttribute('src')).toBe('/own.jpg');
    expect(screen.getByRole('button', { name: 'Play video bad id' }).querySelector('img')).toBeNull();
    expect(container.querySelectorAll('iframe')).toHaveLength(0);
  });
});
