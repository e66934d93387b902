import { isValidVideoId } from '../../../streams/config/playerConfig';
import { PING_STATES } from '../../../streams/tracking/pingState';
import { PING_MAX_SEGMENTS, PLAYBACK_NONCE_CHARS } from '../../../streams/timing';
import { HttpError } from '../../http/errors';
import { PING_MAX_MEDIA_SECONDS, PING_MAX_SEQ } from '../limits';
import type { IncomingPing, PingKind } from '../store';

/** The parameters each ping takes (`docid` and `ei` come with the tracking URL, the rest from the embed). */
const PARAMETERS: Record<PingKind, readonly string[]> = {
  playback: ['docid', 'ei', 'cpn', 'seq', 'cmt', 'rt', 'len'],
  watchtime: ['docid', 'ei', 'cpn', 'seq', 'cmt', 'rt', 'len', 'state', 'st', 'et', 'final'],
};
const EI = /^[A-Za-z0-9_-]{1,64}$/;
const CPN = new RegExp(`^[A-Za-z0-9_-]{${PLAYBACK_NONCE_CHARS}}$`);
/** A decimal number of seconds as the embed writes it (no exponent, no sign, at most 3 decimals). */
const SECONDS = /^\d{1,9}(\.\d{1,3})?$/;

const bad = (name: string, what: string) => new HttpError(400, `Bad parameter "${name}": ${what}`);

/**
 * Reads the query of a ping beacon (spec §7) into what the store keeps, or refuses it with a 400 that names the
 * parameter: an unknown or repeated parameter, a missing one, a value of the wrong form. Segments (`st`/`et`) are
 * comma lists of the same length (both empty when nothing was played since the previous ping), each segment forwards
 * (`st[i] ≤ et[i]`), at most {@link PING_MAX_SEGMENTS}.
 */
export function parsePing(kind: PingKind, query: unknown, receivedAtMs: number): IncomingPing {
  const raw = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const allowed = PARAMETERS[kind];
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) throw bad(name.slice(0, 40), `not a parameter of the ${kind} ping (it takes ${allowed.join(', ')})`);
    if (typeof value !== 'string') throw bad(name, 'given more than once');
  }
  const text = raw as Record<string, string | undefined>;
  const required = (name: string): string => {
    const value = text[name];
    if (value === undefined || value === '') throw bad(name, 'missing');
    return value;
  };
  const seconds = (name: string, value: string): number => {
    if (!SECONDS.test(value) || Number(value) > PING_MAX_MEDIA_SECONDS)
      throw bad(name, `not a number of seconds (0 to ${PING_MAX_MEDIA_SECONDS}, at most 3 decimals)`);
    return Number(value);
  };

  const docid = required('docid');
  if (!isValidVideoId(docid)) throw bad('docid', 'not a video id (11 characters of A-Z, a-z, 0-9, _ and -)');
  const ei = required('ei');
  if (!EI.test(ei)) throw bad('ei', 'not a response id (1 to 64 characters of A-Z, a-z, 0-9, _ and -)');
  const cpn = required('cpn');
  if (!CPN.test(cpn)) throw bad('cpn', `not a client playback nonce (${PLAYBACK_NONCE_CHARS} characters of A-Z, a-z, 0-9, _ and -)`);
  const seqText = required('seq');
  if (!/^\d{1,9}$/.test(seqText) || Number(seqText) > PING_MAX_SEQ) throw bad('seq', `not a ping number (0 to ${PING_MAX_SEQ})`);
  const seq = Number(seqText);
  if (kind === 'playback' && seq !== 0) throw bad('seq', 'the playback ping is ping 0 of its playback');
  if (kind === 'watchtime' && seq === 0) throw bad('seq', 'watchtime pings are numbered from 1 (0 is the playback ping)');
  const cmt = seconds('cmt', required('cmt'));
  const rt = seconds('rt', required('rt'));
  const len = text.len === undefined ? undefined : seconds('len', text.len);
  const common = { kind, docid, ei, cpn, seq, receivedAtMs, cmt, rt, ...(len !== undefined ? { len } : {}) };
  if (kind === 'playback') return { ...common, st: [], et: [], final: false };

  const state = required('state');
  if (!(PING_STATES as readonly string[]).includes(state)) throw bad('state', `one of ${PING_STATES.join(', ')}`);
  const list = (name: 'st' | 'et'): number[] => {
    const value = text[name];
    if (value === undefined) throw bad(name, 'missing');
    if (value === '') return []; // a ping of a state change only (the end, after the pause ping took the last segment)
    const parts = value.split(',');
    if (parts.length > PING_MAX_SEGMENTS) throw bad(name, `at most ${PING_MAX_SEGMENTS} segments`);
    return parts.map((part) => seconds(name, part));
  };
  const st = list('st');
  const et = list('et');
  if (st.length !== et.length) throw bad('et', `${et.length} ends for ${st.length} starts`);
  for (const [i, start] of st.entries()) {
    const end = et[i];
    if (end !== undefined && start > end) throw bad('et', `segment ${i + 1} ends (${end}) before it starts (${start})`);
  }
  const final = text.final;
  if (final !== undefined && final !== '0' && final !== '1') throw bad('final', '0 or 1');
  return { ...common, state, st, et, final: final === '1' };
}
