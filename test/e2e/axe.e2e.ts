import type { Browser, Frame } from 'playwright-core';
import { readFileSync } from 'node:fs';
import type { HostServer, RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * axe-core's audit of the framed embed in each state a viewer can bring it to: every rule axe runs by default
 * (WCAG 2.x A and AA, best practices) finds nothing. The audit runs as a site owner's would: from the host page, which
 * has its landmarks and heading, into the frame (axe talks to its copy in the frame by `postMessage`, allowed across
 * the two origins). The engine is injected through the DevTools protocol, which the embed's Content-Security-Policy
 * does not govern, so the embed is audited as it is served.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  rule: string;
  impact: string | null;
  targets: string[];
}

/** A host page as a site has it: language, title, a main landmark with a heading, the titled frame in it. */
const hostPage = (embedUrl: string, { width, height }: { width: number; height: number }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A site with a video</title></head>
<body><main><h1>A site with a video</h1>
<iframe title="Video player" width="${width}" height="${height}" src="${embedUrl}" allow="autoplay; fullscreen; picture-in-picture"></iframe>
</main></body></html>`;

/** The embed of `videoId` with `query`, framed at 640×360 by a host page on another origin, ready. */
async function openFramed(videoId: string, query: string, size = { width: 640, height: 360 }): Promise<Frame> {
  const page = await browser.newPage({ viewport: { width: size.width + 40, height: size.height + 40 } });
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/axe-${Math.random().toString(36).slice(2)}.html`, hostPage(embedUrl, size)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('[data-readiness="ready"], .vf-error');
  return frame;
}

interface Axe {
  configure(spec: { allowedOrigins: string[] }): void;
  run(ctx: Document): Promise<Record<'violations' | 'incomplete', { id: string; impact: string | null; nodes: { target: string[] }[] }[]>>;
}

/**
 * axe-core's violations in the host page and the embed's frame as they are now, and a frame axe could not reach
 * (`frame-tested` incomplete: the frame's rules would not have run at all).
 */
async function audit(frame: Frame): Promise<Finding[]> {
  const page = frame.page();
  for (const target of [page.mainFrame(), frame]) {
    await target.evaluate(AXE_SOURCE);
    await target.evaluate(() => (window as unknown as { axe: Axe }).axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] }));
  }
  return page.evaluate(async () => {
    const { violations, incomplete } = await (window as unknown as { axe: Axe }).axe.run(document);
    return [...violations, ...incomplete.filter((r) => r.id === 'frame-tested')].map((v) => ({
      rule: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

afterEach(async () => {
  for (const page of browser.contexts().flatMap((c) => c.pages())) await page.close();
});

describe('axe-core finds no violation in any state of the embed', () => {
  it.each([
    ['dark theme', 'autoplay=0&list=PLvfDemoPlaylist01'],
    ['light theme', 'autoplay=0&list=PLvfDemoPlaylist01&theme=light'],
    // The translated interface: lang and dir on the page, every name in the language.
    ['Arabic, right to left', 'autoplay=0&list=PLvfDemoPlaylist01&hl=ar'],
    ['Japanese', 'autoplay=0&list=PLvfDemoPlaylist01&hl=ja'],
  ])('%s: cued, with the controls, the settings menu, the playlist, the share panel and the shortcut list', async (_variant, query) => {
    const frame = await openFramed('VFsunrise01', query);
    await frame.waitForSelector('.vf-player[data-state="5"]');
    expect(await audit(frame)).toEqual([]);

    await reachForPlayer(frame);
    await frame.waitForSelector('.vf-cc');
    expect(await audit(frame)).toEqual([]);

    await frame.click('.vf-settings');
    await frame.waitForSelector('.vf-menu [role="menuitem"]');
    expect(await audit(frame)).toEqual([]);
    await frame.press('.vf-menu [role="menuitem"]', 'Escape');
    await frame.waitForSelector('.vf-menu', { state: 'detached' });

    await frame.click('.vf-playlist-toggle');
    await frame.waitForSelector('.vf-playlist');
    expect(await audit(frame)).toEqual([]);
    await frame.click('.vf-playlist-close');
    await frame.waitForSelector('.vf-playlist', { state: 'detached' });

    await frame.click('.vf-share-button');
    await frame.waitForSelector('.vf-share');
    expect(await audit(frame)).toEqual([]);
    await frame.press('.vf-share', 'Escape');
    await frame.waitForSelector('.vf-share', { state: 'detached' });

    await frame.focus('.vf-playpause');
    await frame.page().keyboard.press('Shift+Slash');
    await frame.waitForSelector('[role="dialog"].vf-shortcuts');
    expect(await audit(frame)).toEqual([]);
  });

  it('playing, with chapters on the seek bar', async () => {
    const frame = await openFramed('VFsunrise01', 'autoplay=1&mute=1');
    await frame.waitForSelector('.vf-player[data-state="1"]');
    await reachForPlayer(frame);
    await frame.waitForSelector('.vf-cc');
    expect(await audit(frame)).toEqual([]);
  });

  it.each([
    ['dark theme', ''],
    ['light theme', '&theme=light'],
    ['Arabic, right to left', '&hl=ar'],
    ['Japanese', '&hl=ja'],
  ])('%s: paused with the "More videos" strip, then the end screen with suggestions', async (_variant, query) => {
    const frame = await openFramed('VFsunrise01', `autoplay=1&mute=1${query}`);
    await frame.waitForSelector('.vf-player[data-state="1"]');
    await reachForPlayer(frame);
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-morevideos .vf-morevideos-list a.vf-suggestion');
    expect(await audit(frame)).toEqual([]);

    await frame.evaluate(() => {
      const video = document.querySelector('video')!;
      video.currentTime = Math.max(0, video.duration - 0.3);
      void video.play();
    });
    await frame.waitForSelector('.vf-player[data-state="0"]');
    await frame.waitForSelector('.vf-endscreen .vf-end-suggestions a.vf-suggestion');
    expect(await audit(frame)).toEqual([]);
  });

  it.each([
    ['that cannot be decoded', 'VFbrokenvid', ''],
    ['its owner keeps off other sites', 'VFnoembed01', ''],
    ['its owner keeps off other sites, in Arabic', 'VFnoembed01', '&hl=ar'],
  ])('a video %s: the error screen', async (_why, videoId, hl) => {
    const frame = await openFramed(videoId, `autoplay=1&mute=1${hl}`);
    await frame.waitForSelector('.vf-error[data-error-code]');
    expect(await audit(frame)).toEqual([]);
  });
});
