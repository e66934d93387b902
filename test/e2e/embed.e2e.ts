import type { Browser, Frame } from 'playwright-core';
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, launchBrowser } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * Issue 2, end to end: the real server, real Chromium, the embed framed by a host page on another origin.
 * Every wait is on an event or a condition in the page, never a fixed sleep.
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;

withE2eEnvironment((env) => ({ server, host, browser } = env));

/** Opens a third-party host page framing `/embed/{id}?{query}` and returns the embed's frame. */
async function openFramed(videoId: string, query = '', b: Browser = browser): Promise<Frame> {
  const page = await b.newPage();
  const embedUrl = `${server.origin}/embed/${videoId}${query ? `?${query}` : ''}`;
  await page.goto(host.page(`/host-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, `/embed/`);
  await frame.waitForSelector('[data-readiness="ready"]');
  return frame;
}

const videoState = (frame: Frame) =>
  frame.evaluate(() => {
    const v = document.querySelector('video')!;
    return {
      currentTime: v.currentTime,
      paused: v.paused,
      src: v.getAttribute('src'),
      state: document.querySelector('.vf-player')!.getAttribute('data-state'),
    };
  });

describe('the embed page, framed by a host on another origin', () => {
  it('loads, is cross-origin to its host, and follows the title rule', async () => {
    const frame = await openFramed('VFsunrise01');
    expect(new URL(frame.url()).origin).toBe(server.origin);
    expect(new URL(frame.page().url()).origin).toBe(host.origin);
    expect(server.origin).not.toBe(host.origin);
    await frame.waitForFunction(() => document.title === 'Sunrise over the test pattern - VidFrame');
    // Framed: the loader URL is the referrer (the host page), as spec §3 says.
    const loaderUrl = await frame.evaluate(() => window.vidframePlayer!.config.args.loaderUrl);
    expect(loaderUrl).toContain(host.origin);
    await frame.page().close();
  });

  it('is just "VidFrame" when the video has no title (unknown id), and reports the error', async () => {
    const frame = await openFramed('VFunknown00');
    await frame.waitForSelector('.vf-error');
    expect(await frame.evaluate(() => document.title)).toBe('VidFrame');
    expect(await frame.getAttribute('.vf-error', 'data-error-code')).toBe('5');
    await frame.page().close();
  });

  it('autoplay=1 plays: the current time advances', async () => {
    const frame = await openFramed('VFcitylight', 'autoplay=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.5);
    const s = await videoState(frame);
    expect(s.paused).toBe(false);
    expect(s.state).toBe('1');
    await frame.page().close();
  });

  it('autoplay=0 stays cued: state 5, time 0, the big play button shown; pressing it plays', async () => {
    const frame = await openFramed('VFcitylight', 'autoplay=0');
    await frame.waitForSelector('.vf-player[data-state="5"]');
    await frame.waitForSelector('.vf-bigplay');
    const s = await videoState(frame);
    expect(s).toMatchObject({ currentTime: 0, paused: true, state: '5' });
    await frame.click('.vf-bigplay');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.2);
    await frame.waitForSelector('.vf-player[data-state="1"]');
    await frame.page().close();
  });

  it('when the browser refuses unmuted autoplay, the page stays cued and says so', async () => {
    const strict = await launchBrowser({ autoplay: 'gesture' });
    try {
      const frame = await openFramed('VFcitylight', 'autoplay=1', strict);
      await frame.waitForSelector('.vf-notice');
      expect(await frame.textContent('.vf-notice')).toContain('blocked autoplay');
      await frame.waitForSelector('.vf-player[data-state="5"]');
      expect((await videoState(frame)).paused).toBe(true);
    } finally {
      await strict.close();
    }
  });

  it('theme=dark and theme=light take effect', async () => {
    const dark = await openFramed('VFsunrise01', 'theme=dark');
    expect(await dark.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await dark.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(0, 0, 0)');
    const light = await openFramed('VFsunrise01', 'theme=light');
    expect(await light.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await light.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(244, 244, 244)');
    await dark.page().close();
    await light.page().close();
  });

  it('player style gvn makes the page background transparent', async () => {
    const frame = await openFramed('VFsunrise01', 'ps=gvn');
    const colors = await frame.evaluate(() =>
      [document.documentElement, document.body, document.querySelector('.vf-player')!].map((e) => getComputedStyle(e).backgroundColor),
    );
    expect(colors).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    await frame.page().close();
  });

  it('a malformed id gets the page, which reports error 2', async () => {
    const frame = await openFramed('bad!id');
    await frame.waitForSelector('.vf-error');
    expect(await frame.getAttribute('.vf-error', 'data-error-code')).toBe('2');
    expect(await frame.getAttribute('.vf-error', 'data-error-internal')).toBe('api.invalidparam');
    await frame.page().close();
  });

  it('a broken file is reported as unplayable (code 5) once', async () => {
    const frame = await openFramed('VFbrokenvid', 'autoplay=1');
    await frame.waitForSelector('.vf-error');
    expect(await frame.getAttribute('.vf-error', 'data-error-code')).toBe('5');
    expect(await frame.$$eval('.vf-error', (e) => e.length)).toBe(1);
    await frame.page().close();
  });

  it('a video that may not be embedded is reported with code 152', async () => {
    const frame = await openFramed('VFnoembed01');
    await frame.waitForSelector('.vf-error');
    expect(await frame.getAttribute('.vf-error', 'data-error-code')).toBe('152');
    await frame.page().close();
  });
});

describe('media over HTTP', () => {
  it('a range request from the page returns 206 with the right bytes', async () => {
    const frame = await openFramed('VFsunrise01');
    const src = (await videoState(frame)).src!;
    expect(src.startsWith('/media/')).toBe(true); // root-relative, never built from the server's host
    const got = await frame.evaluate(async (url) => {
      const r = await fetch(url, { headers: { Range: 'bytes=100-199' } });
      return {
        status: r.status,
        range: r.headers.get('content-range'),
        accept: r.headers.get('accept-ranges'),
        bytes: Array.from(new Uint8Array(await r.arrayBuffer())),
      };
    }, src);
    const file = readFileSync(resolve(__dirname, '../..', decodeURIComponent(src.slice(1))));
    expect(got.status).toBe(206);
    expect(got.accept).toBe('bytes');
    expect(got.range).toBe(`bytes 100-199/${file.length}`);
    expect(Buffer.from(got.bytes).equals(file.subarray(100, 200))).toBe(true);
    await frame.page().close();
  });

  it.each(['/media/../package.json', '/media/..%2f..%2fpackage.json', '/media/%2e%2e/package.json', '/media/videos/../../server/app.ts'])(
    'refuses the traversal attempt %s',
    async (path) => {
      const { status, body } = await new Promise<{ status: number; body: string }>((done, fail) => {
        const url = new URL(server.origin);
        const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', fail);
        req.end();
      });
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(body).not.toContain('"name": "vidframe"');
      expect(body).not.toContain('buildApp');
    },
  );
});
