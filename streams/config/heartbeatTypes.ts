/** The wire shapes of the player heartbeat (the public player's `heartbeatParams` and `player/heartbeat`). */

/** How the player's heartbeat runs for one playback (the public player response's `heartbeatParams`). */
export interface HeartbeatParams {
  /** Between two heartbeats while playing, as text; the player's own default when absent or too short. */
  intervalMilliseconds?: string;
  /** Opaque, sent back with every heartbeat of this playback. */
  heartbeatToken?: string;
  /** Retries of a failed heartbeat before the failure counts, as text. */
  maxRetries?: string;
  /** `true`: a heartbeat that keeps failing ends the heartbeat, not the playback. */
  softFailOnError?: boolean;
}

/** `POST /youtubei/v1/player/heartbeat`: the payload besides the client context. */
export interface HeartbeatRequest {
  videoId: string;
  heartbeatToken?: string;
  /** What the previous answer of this playback carried, sent back as it came. */
  heartbeatServerData?: string;
}

/** The answer of `player/heartbeat`: `playabilityStatus` other than OK stops the playback. */
export interface HeartbeatResponse {
  playabilityStatus: { status: string; reason?: string };
  /** Opaque, sent back with the next heartbeat. */
  heartbeatServerData?: string;
  /** `true`: no further heartbeats are needed for this playback, which goes on. */
  stopHeartbeat?: boolean;
}
