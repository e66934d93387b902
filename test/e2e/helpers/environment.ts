import type { Browser } from 'playwright-core';
import { startHostServer, startServer, type HostServer, type RunningServer } from './servers';
import { launchBrowser } from './browser';

/** What a browser test file runs against: the real server, a third-party host on another origin, and Chromium. */
export interface E2eEnvironment {
  server: RunningServer;
  host: HostServer;
  browser: Browser;
}

/**
 * Starts the environment before the file's tests (in parallel) and stops it after them, handing it to `use` once
 * it runs: `withE2eEnvironment((env) => ({ server, host, browser } = env));`
 */
export function withE2eEnvironment(use: (env: E2eEnvironment) => void): void {
  let env: Partial<E2eEnvironment> = {};
  beforeAll(async () => {
    const [server, host, browser] = await Promise.all([startServer(), startHostServer(), launchBrowser()]);
    env = { server, host, browser };
    use(env as E2eEnvironment);
  });
  afterAll(async () => {
    await env.browser?.close();
    await Promise.all([env.server?.close(), env.host?.close()]);
  });
}
