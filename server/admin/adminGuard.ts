import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors';

export interface AdminGuardOptions {
  /** The admin token (`Authorization: Bearer …`). */
  token: string;
  /**
   * Host names (without port) the admin routes answer to; anything else is refused, so a DNS-rebinding page cannot
   * read the collector through a viewer's browser. Default: `localhost`, `127.0.0.1`, `[::1]`; behind a proxy, list the
   * public host name (`VIDFRAME_ADMIN_HOSTS`).
   */
  allowedHosts?: readonly string[];
}

export const DEFAULT_ADMIN_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The host name of a `Host` header, without its port (`[::1]:8080` → `[::1]`). */
export function hostNameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const match = /^(\[[0-9a-f:.]+\]|[^:\s]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase();
}

/**
 * The `onRequest` hook of every admin route: a foreign `Host` is 403 (checked first: nothing about the token leaks to a
 * rebinding page), a missing or wrong bearer token is 401 with `WWW-Authenticate: Bearer`. The token is compared in
 * constant time. It runs before the body is read and the query string validated, so a caller without the token
 * learns nothing of a route's parameters (never a schema's 400) and costs no body parsing.
 */
export function createAdminGuard({ token, allowedHosts = DEFAULT_ADMIN_HOSTS }: AdminGuardOptions) {
  const expected = digest(token);
  const hosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return async function adminGuard(request: FastifyRequest, reply: FastifyReply) {
    const host = hostNameOf(request.headers.host);
    if (!host || !hosts.has(host)) {
      return reply
        .code(403)
        .send(
          errorBody(403, `Admin routes do not answer to the host "${String(request.headers.host ?? '').slice(0, 100)}"; allow it with VIDFRAME_ADMIN_HOSTS`),
        );
    }
    const header = request.headers.authorization ?? '';
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="vidframe-admin"')
        .send(
          errorBody(
            401,
            presented !== undefined
              ? 'The admin token is wrong'
              : "Admin routes need Authorization: Bearer <admin token> (the data folder's secrets/admin-token, or VIDFRAME_ADMIN_TOKEN)",
          ),
        );
    }
  };
}
