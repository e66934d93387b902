import type { FastifyInstance } from 'fastify';
import type { LoggerSetting } from '../http/logging';
import type { AdsHostSettings } from './adsHostSettings';
import { allowMainServerOrigins } from './allowMainServerOrigins';
import { createAdsHost } from './createAdsHost';

/** What `npm start` needs of the configuration (`readConfig`). */
export interface AdsHostStartConfig {
  host: string;
  ads: AdsHostSettings;
  app: { logger?: LoggerSetting; logRequests?: boolean; testHooks?: boolean };
}

/**
 * `npm start`'s ads host: created and listening on `config.ads.port` of the main server's host, answering the main
 * server's own origins (on `mainPort`, the port it really got) and `VIDFRAME_ADS_ALLOWED_ORIGINS`; its test routes
 * follow `VIDFRAME_TEST_HOOKS`. The port it gets is written back into `config.ads.port` (a free port for `0`), where
 * the embed page reads it. A failure to listen closes it and throws (`EADDRINUSE` as is).
 */
export async function startAdsHost(config: AdsHostStartConfig, mainPort: number): Promise<{ app: FastifyInstance; origin: string }> {
  const app = await createAdsHost({
    allowedOrigin: allowMainServerOrigins({ host: config.host, port: mainPort, extraOrigins: config.ads.allowedOrigins }),
    testHooks: config.app.testHooks,
    secureCookies: config.ads.secureCookies,
    logger: config.app.logger,
    logRequests: config.app.logRequests,
  });
  try {
    await app.listen({ port: config.ads.port, host: config.host });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  if (typeof address === 'object' && address) config.ads.port = address.port;
  const hostName = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return { app, origin: `http://${hostName}:${config.ads.port}` };
}
