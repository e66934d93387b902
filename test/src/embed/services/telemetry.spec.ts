import { waitFor } from '@testing-library/react';
import { startTelemetry, type StartedTelemetry } from '../../../../src/embed/services/telemetry';
import { createEmbedApi } from '../../../../src/embed/services/api';
import { playerFeed } from '../../../../src/embed/player/playerFeed';
import type { PlayerConfig } from '../../../../streams/config/playerConfig';
import { createRetryQueue } from '../../../../streams/retry/createRetryQueue';
import { logsDatabase } from '../../../../streams/retry/logsDatabase';
import { createDatabase } from '../../../../streams/storage/createDatabase';
import { STREAM_TOKEN_HEADER } from '../../../../streams/transport/buildApiRequest';
import { WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID } from '../../../../streams/transport/clientIdentity';
import { configFor } from '../../../streams/player/fixtures';
import { anonymousIdentity, fakeFeedPlayer } from '../fakes';

const TOKEN = 'v1.c3RyZWFtLWlk.c2lnbmF0dXJl';

/** The page's telemetry over the page's API client, as `main.ts` starts it. */
const start = (config: PlayerConfig) => startTelemetry(playerFeed(fakePlayer(config)), createEmbedApi(window, config, anonymousIdentity()), window);

/** What the page's telemetry reads from the player; nothing else is needed here. */
const fakePlayer = (config: PlayerConfig) => fakeFeedPlayer(config);

type Answer = { status: number; retryAfter?: string };

/** `window.fetch`: 204 for the connectivity probe; log requests answered from `answers` (the last repeats). */
function installFetch(...answers: Answer[]) {
  const logCalls: { url: string; init: RequestInit & { headers: Record<string, string> } }[] = [];
  const fetch = jest.fn(async (url: string, init: RequestInit & { headers: Record<string, string> }) => {
    if (url.startsWith('/generate_204')) return { status: 204, headers: { get: () => null }, text: async (): Promise<string> => '' };
    logCalls.push({ url, init });
    const { status, retryAfter } = answers[Math.min(logCalls.length - 1, answers.length - 1)];
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(retryAfter !== undefined && { 'retry-after': retryAfter }) };
    return { status, headers: { get: (name: string) => headers[name.toLowerCase()] ?? null }, text: async (): Promise<string> => '{}' };
  });
  Object.defineProperty(window, 'fetch', { value: fetch, configurable: true, writable: true });
  return { logCalls };
}

const withToken = (token?: string): PlayerConfig => {
  const config = configFor();
  return token === undefined ? config : { ...config, args: { ...config.args, stream_token: token } };
};

/** The page closes: `pagehide` flushes everything through keepalive. */
const closePage = () => window.dispatchEvent(new Event('pagehide'));

const storedRequests = () => createRetryQueue(createDatabase(logsDatabase(), {}), { interfaceNumber: WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID }).list();

describe('startTelemetry: stream token and Retry-After', () => {
  let telemetry: StartedTelemetry | undefined;
  beforeEach(() => {
    // A fresh IndexedDB per test, so no stored request leaks from one test into the next.
    globalThis.indexedDB = new IDBFactory();
  });
  afterEach(() => {
    telemetry?.stop();
    telemetry = undefined;
    jest.useRealTimers();
  });

  it(`the log requests of a closing page (keepalive) carry the configuration's stream token as ${STREAM_TOKEN_HEADER}`, async () => {
    const { logCalls } = installFetch({ status: 200 });
    telemetry = start(withToken(TOKEN));
    closePage();
    await waitFor(() => expect(logCalls.length).toBeGreaterThan(0));
    for (const call of logCalls) {
      expect(call.url).toMatch(/^\/youtubei\/v1\/(log_event|video_stats)/);
      expect(call.init.keepalive).toBe(true);
      expect(call.init.headers[STREAM_TOKEN_HEADER]).toBe(TOKEN);
    }
  });

  it('a configuration without a token sends no token header', async () => {
    const { logCalls } = installFetch({ status: 200 });
    telemetry = start(withToken(undefined));
    closePage();
    await waitFor(() => expect(logCalls.length).toBeGreaterThan(0));
    expect(logCalls.every((call) => !(STREAM_TOKEN_HEADER in call.init.headers))).toBe(true);
  });

  it('a 429 with Retry-After: 30 is stored with its token (nothing lost) and resent, token and all, only after 30 s', async () => {
    // Date and setInterval (what the RxJS async scheduler runs on) are faked; IndexedDB (fake-indexeddb runs on the
    // outer realm's setImmediate) and setTimeout stay real, so the queue's transactions finish between clock steps.
    const T0 = 1_700_000_000_000;
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask'], now: T0 });
    const step = async () => {
      await jest.advanceTimersByTimeAsync(250);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    };
    const advance = async (ms: number) => {
      for (let t = 0; t < ms; t += 250) await step();
    };
    const { logCalls } = installFetch({ status: 429, retryAfter: '30' }, { status: 200 });
    telemetry = start(withToken(TOKEN));
    closePage();
    while (telemetry.diagnostics.counts.stored === 0 && Date.now() < T0 + 2_000) await step();
    const storedAtMs = Date.now() - T0;
    expect(telemetry.diagnostics.counts.stored).toBeGreaterThan(0);
    const firstSends = logCalls.length;
    const stored = await storedRequests();
    expect(stored).toHaveLength(firstSends);
    expect(stored.every((r) => r.options.headers[STREAM_TOKEN_HEADER] === TOKEN)).toBe(true);

    // The store alone would trigger a resend after 5 s (RETRY_QUEUE_RETRY_DELAY_MS); the collector asked for 30 s.
    await advance(29_500 - storedAtMs);
    expect(logCalls).toHaveLength(firstSends);
    expect(telemetry.diagnostics.counts.resent).toBe(0);

    await advance(1_000 + 100 * firstSends);
    expect(telemetry.diagnostics.counts.resent).toBe(firstSends);
    const resends = logCalls.slice(firstSends);
    expect(resends).toHaveLength(firstSends);
    expect(resends.every((call) => call.init.headers[STREAM_TOKEN_HEADER] === TOKEN && !call.init.keepalive)).toBe(true);
    expect(await storedRequests()).toEqual([]);
  });
});
