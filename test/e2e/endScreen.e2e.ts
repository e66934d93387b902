import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { framingPage, type HostServer, type RunningServer } from './helpers/servers';
import { frameWith, reachForPlayer } from './helpers/browser';
import { withE2eEnvironment } from './helpers/environment';

/**
 * The end screen and the pause screen suggest more videos, as YouTube's embed does: at the end a row of links (a list
 * of links, reachable with Tab), on pause after the start a "More videos" strip that opens and collapses. `rel=0` keeps
 * them to the video's own channel, `rel=1` (or none) takes any channel; the video itself is never among them. A
 * suggestion plays in the same embed, through the player's own load command (the frame does not navigate).
 */
let server: RunningServer;
let host: HostServer;
let browser: Browser;
withE2eEnvironment((env) => ({ server, host, browser } = env));

const CATALOG = JSON.parse(readFileSync(resolve(__dirname, '../../media/catalog.json'), 'utf8')) as {
  videos: { id: string; title: string; channelId: string }[];
};
const channelOf = (id: string) => CATALOG.videos.find((v) => v.id === id)?.channelId;

async function open(query: string, videoId = 'VFsunrise01'): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage({ viewport: { width: 680, height: 400 } });
  const embedUrl = `${server.origin}/embed/${videoId}?${query}`;
  await page.goto(host.page(`/end-${Math.random().toString(36).slice(2)}.html`, framingPage(embedUrl)));
  const frame = await frameWith(page, '/embed/');
  await frame.waitForSelector('.vf-player[data-state="1"]');
  await reachForPlayer(frame);
  return { page, frame };
}

/** Plays the video to its end (from just before it) and waits for the end screen's suggestions. */
async function playToEnd(frame: Frame): Promise<string[]> {
  await frame.evaluate(() => {
    const video = document.querySelector('video')!;
    video.currentTime = Math.max(0, video.duration - 0.3);
  });
  await frame.waitForSelector('.vf-player[data-state="0"]');
  await frame.waitForSelector('.vf-endscreen .vf-end-suggestions a.vf-suggestion');
  return suggestedIds(frame, '.vf-end-suggestions');
}

const suggestedIds = (frame: Frame, list: string) =>
  frame.$$eval(`${list} a.vf-suggestion`, (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname.split('/').pop()!));

describe('end screen and pause screen suggestions', () => {
  it('rel=0: only videos of the same channel, never the video itself', async () => {
    const { page, frame } = await open('autoplay=1&mute=1&rel=0');
    const ids = await playToEnd(frame);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain('VFsunrise01');
    for (const id of ids) expect(channelOf(id)).toBe(channelOf('VFsunrise01'));
    await page.close();
  });

  it('rel=1 and no rel: other channels too; a list of named links that Tab reaches; a suggestion plays in the embed', async () => {
    for (const query of ['autoplay=1&mute=1&rel=1', 'autoplay=1&mute=1']) {
      const { page, frame } = await open(query);
      const ids = await playToEnd(frame);
      expect(ids).not.toContain('VFsunrise01');
      expect(ids.some((id) => channelOf(id) !== channelOf('VFsunrise01'))).toBe(true);
      // A list of links, each named by its title, channel and length.
      const list = await frame.$eval('.vf-end-suggestions', (ul) => ({
        tag: ul.tagName,
        items: [...ul.children].map((li) => `${li.tagName}>${li.firstElementChild?.tagName}`),
        names: [...ul.querySelectorAll('a')].map((a) => a.getAttribute('aria-label')),
      }));
      expect(list.tag).toBe('UL');
      expect(new Set(list.items)).toEqual(new Set(['LI>A']));
      expect(list.names[0]).toMatch(/^.+, VidFrame .+, \d+:\d\d$/);
      if (query.includes('rel=1')) {
        await page.close();
        continue;
      }
      // Tab from the player reaches the first suggestion.
      await frame.focus('.vf-player');
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await frame.evaluate(() => document.activeElement?.classList.contains('vf-suggestion') ?? false);
      }
      expect(reached).toBe(true);
      // Enter on it plays that video here, through the player (the frame keeps its URL).
      const target = CATALOG.videos.find((v) => v.id === ids[0])!;
      const focusedId = await frame.evaluate(() => new URL((document.activeElement as HTMLAnchorElement).href).pathname.split('/').pop());
      expect(focusedId).toBe(target.id);
      const frameUrl = frame.url();
      await page.keyboard.press('Enter');
      await frame.waitForFunction((title) => document.title.includes(title), target.title);
      await frame.waitForSelector('.vf-player[data-state="1"]');
      await frame.waitForSelector('.vf-endscreen', { state: 'detached' });
      expect(frame.url()).toBe(frameUrl);
      await page.close();
    }
  });

  it('paused after the start: the "More videos" strip, which collapses and opens again', async () => {
    const { page, frame } = await open('autoplay=1&mute=1');
    await frame.waitForFunction(() => document.querySelector('video')!.currentTime > 0.5);
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-player[data-state="2"]');
    await frame.waitForSelector('.vf-morevideos .vf-morevideos-list a.vf-suggestion');
    const ids = await suggestedIds(frame, '.vf-morevideos-list');
    expect(ids).not.toContain('VFsunrise01');
    expect(await frame.getAttribute('.vf-morevideos-toggle', 'aria-expanded')).toBe('true');
    await frame.click('.vf-morevideos-toggle');
    await frame.waitForSelector('.vf-morevideos-list', { state: 'hidden' });
    expect(await frame.getAttribute('.vf-morevideos-toggle', 'aria-expanded')).toBe('false');
    await frame.click('.vf-morevideos-toggle');
    await frame.waitForSelector('.vf-morevideos-list a.vf-suggestion', { state: 'visible' });
    // Playing again: the strip goes.
    await frame.click('.vf-playpause');
    await frame.waitForSelector('.vf-morevideos', { state: 'detached' });
    await page.close();
  });
});
