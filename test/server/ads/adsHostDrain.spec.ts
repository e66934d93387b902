import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdsHost } from '../../../server/ads/createAdsHost';
import { drainAndClose } from '../../../server/http/drain';

const EMBED = 'http://localhost:8080';

/** A GET of the ads id on `agent` (one keep-alive connection), with its status and `Retry-After`. */
function getId(port: number, agent: Agent): Promise<{ status?: number; retryAfter?: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/pagead/id', agent, headers: { origin: EMBED } }, (res) => {
      res.resume();
      res.once('end', () => done({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.once('error', fail);
    req.end();
  });
}

describe('the ads host on stop', () => {
  it('answers a request arriving on an open connection while it drains with 503 and Retry-After, as the server does', async () => {
    const host = await createAdsHost({ allowedOrigin: (origin) => origin === EMBED });
    await host.listen({ port: 0, host: '127.0.0.1' });
    const { port } = host.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await getId(port, agent)).status).toBe(200);
      const stopped = drainAndClose(host, { graceMs: 2_000 });
      expect(await getId(port, agent)).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
      await stopped;
    } finally {
      agent.destroy();
      await host.close();
    }
  });
});
