import { readEmbedTemplate, renderEmbedPage, renderPlayerShell } from '../../../server/pages/embedPage';
import { configFor, response } from '../../streams/player/fixtures';

const page = (body: string) =>
  `<html><head><!--vidframe:config--><script type="module" src="/assets/embed-1.js"></script><link rel="stylesheet" href="/assets/embed-1.css"></head><body>${body}</body></html>`;

describe('the embed page writes the player shell with its <video>', () => {
  it('puts the shell where the page marks it, after the inlined configuration, with the source and preload', () => {
    const template = readEmbedTemplate(page('<div id="player-root"><!--vidframe:shell--></div>'));
    const html = renderEmbedPage(template, { videoId: 'VFsunrise01', query: { autoplay: '1', mute: '1' }, playerResponse: response('VFsunrise01') });
    const body = html.slice(html.indexOf('<body>'));
    expect(body).toBe(
      '<body><div id="player-root"><div class="vf-player" tabindex="-1"><video class="vf-video" src="/media/VFsunrise01/medium.webm" preload="auto" autoplay muted playsinline aria-label="Title VFsunrise01"></video><div class="vf-ui"></div></div></div></body></html>',
    );
    expect(html.indexOf('window.vidframeConfig=')).toBeLessThan(html.indexOf('<video'));
  });

  it('a video without a title is named "video player" in the hl language (English without hl)', () => {
    const untitled = (query: Record<string, string>) => {
      const config = configFor(query);
      config.args.player_response.videoDetails!.title = '';
      return renderPlayerShell(config);
    };
    expect(untitled({ hl: 'ja' })).toContain('aria-label="動画プレーヤー"');
    expect(untitled({ hl: 'de-AT' })).toContain('aria-label="Videoplayer"');
    expect(untitled({})).toContain('aria-label="Video player"');
  });

  it("a video that starts later than its beginning is the script's to seek and play: no autoplay", () => {
    const html = renderPlayerShell(configFor({ autoplay: '1', mute: '1', start: '5' }));
    expect(html).toContain('preload="auto" muted playsinline');
    expect(html).not.toContain('autoplay');
  });

  it('a cued video preloads its metadata only and shows its poster; attribute values are escaped', () => {
    const config = configFor({});
    config.args.player_response.videoDetails!.thumbnailUrl = '/vi/x?a=1&b="2"<';
    config.args.player_response.videoDetails!.title = 'A "title" <b>&</b>';
    expect(renderPlayerShell(config)).toContain(
      'preload="metadata" playsinline poster="/vi/x?a=1&amp;b=&quot;2&quot;&lt;" aria-label="A &quot;title&quot; &lt;b&gt;&amp;&lt;/b&gt;"></video>',
    );
  });

  it('a playlist still to fetch gets an element without a source, which the player fills', () => {
    expect(renderPlayerShell(configFor({ list: 'PLsamples' }))).toBe(
      '<div class="vf-player" tabindex="-1"><video class="vf-video" preload="none"></video><div class="vf-ui"></div></div>',
    );
  });

  it('a page from a build without the shell marker gets no shell (the script builds one)', () => {
    const html = renderEmbedPage(readEmbedTemplate(page('<div id="player-root"></div>')), {
      videoId: 'VFsunrise01',
      query: {},
      playerResponse: response('VFsunrise01'),
    });
    expect(html).not.toContain('<video');
    expect(html).toContain('<div id="player-root"></div>');
  });

  it("the built page's order: the host responder in the head before the stylesheet, the <video>, then the configuration", () => {
    const built =
      '<html><head><title>VidFrame</title><!--vidframe:responder--><script type="module" src="/assets/embed-1.js"></script><link rel="stylesheet" href="/assets/embed-1.css"></head>' +
      '<body><div id="player-root"><!--vidframe:shell--></div><!--vidframe:config--></body></html>';
    const template = readEmbedTemplate(built);
    expect(template.slots).toEqual(['responder', 'shell', 'config']);
    expect(template.assets).toEqual({ js: '/assets/embed-1.js', css: '/assets/embed-1.css' });
    const html = renderEmbedPage(template, {
      videoId: 'VFsunrise01',
      query: { enablejsapi: '1', widgetid: '1' },
      playerResponse: response('VFsunrise01'),
      nonce: 'N0nce',
    });
    const responderAt = html.indexOf('<script nonce="N0nce">(function(){var __name=');
    expect(responderAt).toBeGreaterThan(html.indexOf('<title>'));
    expect(responderAt).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(html.indexOf('<video')).toBeLessThan(html.indexOf('window.vidframeConfig='));
    expect(html.indexOf('<script nonce="N0nce">window.vidframeConfig=')).toBeGreaterThan(html.indexOf('</video>'));
    expect(html).not.toContain('<!--vidframe:');
  });

  it('a responder only for a host-driven page whose video is known; an older page gets it with its configuration', () => {
    const withOwnPlace = readEmbedTemplate('<html><head><!--vidframe:responder--></head><body><!--vidframe:shell--><!--vidframe:config--></body></html>');
    const render = (template: ReturnType<typeof readEmbedTemplate>, query: Record<string, unknown>) =>
      renderEmbedPage(template, { videoId: 'VFsunrise01', query, playerResponse: response('VFsunrise01') });
    expect(render(withOwnPlace, {})).not.toContain('installEarlyResponder');
    expect(render(withOwnPlace, { enablejsapi: '1', list: 'PLsamples' })).not.toContain('installEarlyResponder');
    expect(render(withOwnPlace, { enablejsapi: '1' })).toContain('installEarlyResponder');
    const older = render(readEmbedTemplate(page('<div id="player-root"><!--vidframe:shell--></div>')), { enablejsapi: '1' });
    expect(older.indexOf('installEarlyResponder')).toBeGreaterThan(0);
    expect(older.indexOf('installEarlyResponder')).toBeLessThan(older.indexOf('window.vidframeConfig='));
  });
});
