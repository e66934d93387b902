import type { Browser } from 'playwright-core';
import { startHostServer, startServer, type HostServer, type RunningServer } from './servers';
import { launchBrowser } from './browser';

/** What a browser test file runs against: the real server, a third-party host on another origin, and a browser. */
export interface E2eEnvironment<B = Browser> {
  server: RunningServer;
  host: HostServer;
  browser: B;
}

/**
 * Starts the environment before the file's tests (in parallel) and stops it after them, handing it to `use` once
 * it runs: `withE2eEnvironment((env) => ({ server, host, browser } = env));`. `launch` picks the browser
 * (`launchProfileBrowser` for the suites that need real storage, keepalive on close and real tab visibility).
 */
export function withE2eEnvironment<B extends { close(): Promise<void> } = Browser>(
  use: (env: E2eEnvironment<B>) => void,
  launch: () => Promise<B> = launchBrowser as unknown as () => Promise<B>,
): void {
  let env: Partial<E2eEnvironment<B>> = {};
  beforeAll(async () => {
    const [server, host, browser] = await Promise.all([startServer(), startHostServer(), launch()]);
    env = { server, host, browser };
    use(env as E2eEnvironment<B>);
  });
  afterAll(async () => {
    await env.browser?.close();
    await Promise.all([env.server?.close(), env.host?.close()]);
  });
}
