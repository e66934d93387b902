import type { PlayerViewer } from '../media/playerResponse';
import type { ApiViewer } from './verifyApiRequest';

const REGION = /^[A-Za-z]{2}$/;

/**
 * Who asks the player endpoint: signed in when the request carries an account's token; the region from the client
 * context's `gl` (spec §7), when it names one.
 */
export function playerViewerOf(viewer: ApiViewer, body: unknown): PlayerViewer {
  const gl = (body as { context?: { client?: { gl?: unknown } } } | undefined)?.context?.client?.gl;
  return { signedIn: viewer.accountId !== undefined, ...(typeof gl === 'string' && REGION.test(gl) && { gl: gl.toUpperCase() }) };
}
