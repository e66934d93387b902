import type { LoggedPlayerState } from '../logging/playerEvents';

/**
 * The player state a watchtime ping names (`state=`), shared by the embed that sends it and the collector that
 * validates it: the words of the host protocol's numbered states (-1, 0, 1, 2, 3, 5).
 */
export const PING_STATES = ['unstarted', 'ended', 'playing', 'paused', 'buffering', 'cued'] as const;
export type PingState = (typeof PING_STATES)[number];

const BY_NUMBER: Record<LoggedPlayerState, PingState> = { [-1]: 'unstarted', 0: 'ended', 1: 'playing', 2: 'paused', 3: 'buffering', 5: 'cued' };

/** The word for a numbered player state. */
export const pingStateOf = (state: LoggedPlayerState): PingState => BY_NUMBER[state] ?? 'unstarted';
