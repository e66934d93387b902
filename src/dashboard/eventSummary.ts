import { formatMs, formatRate } from './format';
import type { DashboardEvent } from './types';

/** The player states as the host protocol numbers them. */
export const PLAYER_STATE_NAMES: Record<number, string> = { [-1]: 'unstarted', 0: 'ended', 1: 'playing', 2: 'paused', 3: 'buffering', 5: 'cued' };

/** The colour family of an event name in the table and the name list. */
export type EventCategory = 'playback' | 'watch' | 'error' | 'latency' | 'lifecycle' | 'other';

export function categoryOf(name: string): EventCategory {
  if (/error/i.test(name)) return 'error';
  if (name === 'watchTimeSegment') return 'watch';
  if (name === 'latencyReport') return 'latency';
  if (name === 'playerLoad' || name === 'playerReady') return 'lifecycle';
  if (/state|seek|quality|rate|volume/i.test(name)) return 'playback';
  return 'other';
}

type Fields = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const stateName = (v: unknown) => (num(v) === undefined ? '?' : (PLAYER_STATE_NAMES[v as number] ?? String(v)));
const sec = (v: unknown) => (num(v) === undefined ? '?' : `${formatRate(v as number, 'en-US')} s`);
const join = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join(' · ');

/** A short, readable line for the known events of the player's catalogue. */
const KNOWN: Record<string, (p: Fields) => string> = {
  playerLoad: (p) => join(str(p.videoId), p.autoplay === true && 'autoplay', str(p.hostOrigin) && `on ${p.hostOrigin}`),
  playerReady: (p) => join(str(p.videoId), num(p.latencyMs) !== undefined && `ready in ${formatMs(p.latencyMs as number)}`),
  playerStateChange: (p) =>
    join(`${stateName(p.previousState)} → ${stateName(p.state)}`, num(p.mediaTimeSec) !== undefined && `at ${sec(p.mediaTimeSec)}`, str(p.videoId)),
  watchTimeSegment: (p) => {
    const watched = (num(p.endSec) ?? 0) - (num(p.startSec) ?? 0);
    return join(
      `watched ${sec(watched)}`,
      `${sec(p.startSec)} → ${sec(p.endSec)}`,
      num(p.playbackRate) !== undefined && p.playbackRate !== 1 && `${p.playbackRate}×`,
      str(p.videoId),
    );
  },
  latencyReport: (p) => join(`${str(p.from) ?? '?'} → ${str(p.to) ?? '?'}`, num(p.durationMs) !== undefined && formatMs(p.durationMs as number), str(p.action)),
  playerError: (p) => join(str(p.internalError), num(p.hostErrorCode) !== undefined && `code ${p.hostErrorCode}`, str(p.message), str(p.videoId)),
  playerSeek: (p) => join(`${sec(p.fromSec)} → ${sec(p.toSec)}`, str(p.videoId)),
  qualityChange: (p) => join(`${str(p.previousQuality) ?? '?'} → ${str(p.quality) ?? '?'}`, str(p.videoId)),
  playbackRateChange: (p) => join(`${p.previousRate}× → ${p.rate}×`, str(p.videoId)),
  volumeChange: (p) => join(p.muted === true ? 'muted' : `volume ${p.volume}`, str(p.videoId)),
  hostCommandReceived: (p) => join(str(p.command), p.accepted === false && 'refused', str(p.hostOrigin) && `from ${p.hostOrigin}`),
  visibilityChange: (p) => join(str(p.state)),
  networkChange: (p) => join(p.online === false ? 'offline' : 'online', str(p.effectiveConnectionType)),
};

/** Any other payload: its plain fields as `key value`, the first few. */
function generic(payload: Fields): string {
  return Object.entries(payload)
    .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    .slice(0, 6)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(' · ');
}

/** The event's payload (the wire event holds it under its name). */
export function payloadOf(event: DashboardEvent): Fields {
  const payload = event.event[event.name];
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Fields) : {};
}

/** One line about the event for the table, at most 200 characters. */
export function summarizeEvent(event: DashboardEvent): string {
  const payload = payloadOf(event);
  let text: string;
  try {
    text = (KNOWN[event.name] ?? generic)(payload);
  } catch {
    text = generic(payload);
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
