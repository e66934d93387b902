import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { startServerProcess, type ServerProcess } from '../../helpers/serverProcess';
import { CLIENT_ADDRESS_HEADER, SERVED_BY_HEADER, startRoundRobinProxy, type RoundRobinProxy } from './roundRobinProxy';

/** One answer through the proxy: its status, the backend that gave it, and the response to read the rest from. */
export interface ProxiedAnswer {
  status: number;
  servedBy: string;
  response: Response;
}

/**
 * Several server processes behind one {@link RoundRobinProxy}, each started with `envOf(its own data folder)`, and
 * what the suite needs of them: requests through the proxy as one client address, a server killed and another
 * started in its place, and everything stopped and removed at the end, however the tests went.
 */
export class Cluster {
  readonly servers: ServerProcess[] = [];
  private readonly dataDirs: string[] = [];
  private readonly dataDirOf = new Map<ServerProcess, string>();
  private readonly everyProcess: ServerProcess[] = [];

  private constructor(
    readonly proxy: RoundRobinProxy,
    private readonly envOf: (dataDir: string) => Record<string, string>,
  ) {}

  /** Starts `count` servers at the same moment (the first start on an empty database) and the proxy in front. */
  static async start(count: number, envOf: (dataDir: string) => Record<string, string>): Promise<Cluster> {
    const cluster = new Cluster(await startRoundRobinProxy([]), envOf);
    const dirs = Array.from({ length: count }, () => mkdtempSync(join(tmpdir(), 'vidframe-cluster-')));
    cluster.dataDirs.push(...dirs);
    const started = await Promise.allSettled(dirs.map((dir) => startServerProcess(envOf(dir))));
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') cluster.everyProcess.push(result.value);
      if (result.status === 'fulfilled') cluster.dataDirOf.set(result.value, dirs[i]);
    });
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      await cluster.close();
      throw failed.reason;
    }
    for (const server of cluster.everyProcess) cluster.add(server);
    return cluster;
  }

  private add(server: ServerProcess): void {
    this.servers.push(server);
    this.proxy.add(server.origin);
  }

  /** SIGKILL one server, then take it out of the proxy's rotation, as a health check would. */
  async kill9(server: ServerProcess): Promise<void> {
    await server.kill9();
    this.proxy.remove(server.origin);
    this.servers.splice(this.servers.indexOf(server), 1);
  }

  /** Starts a server again on the data folder of one that was killed, and puts it in the rotation. */
  async restart(dead: ServerProcess): Promise<ServerProcess> {
    const dataDir = this.dataDirOf.get(dead);
    if (!dataDir) throw new Error('not a server of this cluster');
    const server = await startServerProcess(this.envOf(dataDir));
    this.everyProcess.push(server);
    this.dataDirOf.set(server, dataDir);
    this.add(server);
    return server;
  }

  /** A request through the proxy as the client at `client` (its `X-Forwarded-For`); redirects are answers, not followed. */
  async call(path: string, { client = '127.0.0.1', ...init }: RequestInit & { client?: string } = {}): Promise<ProxiedAnswer> {
    const response = await fetch(this.proxy.origin + path, {
      redirect: 'manual',
      ...init,
      headers: { ...(init.headers as Record<string, string>), [CLIENT_ADDRESS_HEADER]: client },
    });
    return { status: response.status, servedBy: response.headers.get(SERVED_BY_HEADER) ?? '', response };
  }

  /**
   * The same request once per backend in the rotation, one after the other: the round robin hands each to the next
   * backend, so every one of them answers it (the caller checks `servedBy` to be sure).
   */
  async callEach(path: string, init: () => RequestInit & { client?: string } = () => ({})): Promise<ProxiedAnswer[]> {
    const answers: ProxiedAnswer[] = [];
    for (let i = 0; i < this.proxy.backends().length; i++) answers.push(await this.call(path, init()));
    return answers;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.everyProcess.map((server) => server.kill9()));
    await this.proxy.close();
    for (const dir of this.dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** The headers that make fetch send a client's X-Forwarded-For through the proxy (for {@link ChaosClient}). */
export const asClient = (address: string): Record<string, string> => ({ [CLIENT_ADDRESS_HEADER]: address });

/** The `vf_session` secret a sign-in answer sets. */
export function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('vf_session='));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(response.headers.getSetCookie())}`);
  return cookie.split(';')[0].slice('vf_session='.length);
}

/** The player configuration an embed page inlines (its stream token and anti-forgery token among the args). */
export function inlinedConfig(html: string): PlayerConfig {
  const match = /<script nonce="[^"]+">window\.vidframeConfig=(.*?);<\/script>/.exec(html);
  if (!match) throw new Error(`no inlined configuration in the page:\n${html.slice(0, 500)}`);
  return JSON.parse(match[1]) as PlayerConfig;
}
