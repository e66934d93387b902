import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HeartbeatResponse } from '../../streams/config/heartbeatTypes';
import { PLAYER_HEARTBEAT_INTERVAL_MS } from '../../streams/timing';
import { HttpError } from '../http/errors';
import { findVideo, isValidVideoId } from '../media/catalog';
import type { CurrentCatalog } from '../media/catalogSource';
import { playerResponseFor, type PlayerViewer } from '../media/playerResponse';
import { readClaims, signClaims } from '../tokens/signing';
import type { ApiViewer } from './verifyApiRequest';

/** The prefix of the server data a heartbeat answer carries (signed claims, `tokens/signing.ts`). */
const SERVER_DATA_PREFIX = 'vfhb1';
/** Longest server data read: the claims are a few short fields. */
const SERVER_DATA_MAX_CHARS = 512;
/** Longest heartbeat token read (the player answer's `ei`, 22 characters). */
const TOKEN_MAX_CHARS = 64;
/**
 * The time between two heartbeats counts as played up to twice the interval: a pause (no heartbeats) between two
 * of them counts at most that much, and a heartbeat delayed by a busy page or network counts in full.
 */
const MAX_COUNTED_GAP_MS = 2 * PLAYER_HEARTBEAT_INTERVAL_MS;

/** What the server data says: the playback (video and heartbeat token), its played time and its last heartbeat. */
interface PlaybackClaims {
  v: string;
  t: string;
  played: number;
  last: number;
}

const isClaims = (c: unknown): c is PlaybackClaims => {
  const x = c as Partial<PlaybackClaims> | null;
  return !!x && typeof x.v === 'string' && typeof x.t === 'string' && Number.isFinite(x.played) && Number.isFinite(x.last);
};

export interface HeartbeatRouteOptions {
  catalog: CurrentCatalog;
  verify: (request: FastifyRequest) => Promise<{ viewer: ApiViewer; responseContext: Record<string, unknown> }>;
  viewerOf: (viewer: ApiViewer, body: unknown) => PlayerViewer;
  /** Signs the server data; a shared secret lets several servers read each other's. Default: a key of this process. */
  secret?: string;
  now?: () => number;
}

/**
 * `POST /youtubei/v1/player/heartbeat {videoId, heartbeatToken?, heartbeatServerData?}` (the public player heartbeat):
 * asked while a video whose answer carried `heartbeatParams` plays. The answer is `{playabilityStatus,
 * heartbeatServerData}`; a `playabilityStatus` other than OK stops the playback (`heartbeat.stop` in the player):
 *
 * - the video may no longer play for this viewer (signed out, another region: the player answer's own rules);
 * - the playback has played the video's `heartbeatStopAfterSeconds`, counted from the heartbeats: the time between two
 *   of them (at most {@link MAX_COUNTED_GAP_MS}), carried from answer to answer in the signed server data.
 *
 * A video without a heartbeat answers `stopHeartbeat: true`. Server data that is not this server's, or another
 * playback's, starts the count again; a client that drops it does too — the heartbeat tells a player that follows it
 * when to stop, it does not guard the media. 400 for a body without a valid `videoId`.
 */
export function registerHeartbeatRoute(app: FastifyInstance, { catalog, verify, viewerOf, secret, now = Date.now }: HeartbeatRouteOptions): void {
  const key = secret ?? randomBytes(32).toString('base64url');
  app.post<{ Body: unknown }>('/youtubei/v1/player/heartbeat', async (request): Promise<HeartbeatResponse & { responseContext: Record<string, unknown> }> => {
    const { viewer, responseContext } = await verify(request);
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    if (!isValidVideoId(body.videoId)) throw new HttpError(400, 'The request body must be a JSON object with a valid videoId.');
    const current = catalog.current(body.videoId);
    const video = findVideo(current, body.videoId);
    const status = playerResponseFor(current, body.videoId, { viewer: viewerOf(viewer, body), ei: '' }).playabilityStatus;
    if (!video || status.status !== 'OK')
      return { responseContext, playabilityStatus: { status: status.status, ...(status.reason && { reason: status.reason }) } };
    if (video.heartbeatStopAfterSeconds === undefined) return { responseContext, playabilityStatus: { status: 'OK' }, stopHeartbeat: true };

    const token = typeof body.heartbeatToken === 'string' ? body.heartbeatToken.slice(0, TOKEN_MAX_CHARS) : '';
    const read = readClaims(key, SERVER_DATA_PREFIX, body.heartbeatServerData, SERVER_DATA_MAX_CHARS);
    const earlier = read.ok && isClaims(read.claims) && read.claims.v === video.id && read.claims.t === token ? read.claims : undefined;
    const at = now();
    const played = earlier ? earlier.played + Math.min(Math.max(0, at - earlier.last), MAX_COUNTED_GAP_MS) : 0;
    if (played >= video.heartbeatStopAfterSeconds * 1000) {
      return { responseContext, playabilityStatus: { status: 'UNPLAYABLE', reason: 'Playback of this video has ended here.' } };
    }
    const claims: PlaybackClaims = { v: video.id, t: token, played, last: at };
    return { responseContext, playabilityStatus: { status: 'OK' }, heartbeatServerData: signClaims(key, SERVER_DATA_PREFIX, { ...claims }) };
  });
}
