/**
 * What the ClickHouse store checks before it writes: every value that reaches a row or a query's text has the type
 * and range its column takes, so a bad value is refused with a `TypeError` that names it, before anything is written.
 */
import {
  COLLECTOR_ENDPOINTS,
  type CollectorEndpoint,
  type IncomingErrorReport,
  type IncomingEvent,
  type IncomingPing,
  type IncomingRequest,
  PING_KINDS,
} from '../../store';
import { MAX_RECEIVED_AT_MS } from './schema';
import { wellFormed } from './sql';

export const isStr = (v: unknown): v is string => typeof v === 'string';
export const need = (ok: boolean, what: string): void => {
  if (!ok) throw new TypeError(`ClickHouse store: ${what}`);
};
const optionalStr = (v: unknown, what: string): void => need(v === undefined || isStr(v), `${what} must be a string when given`);
const uint = (v: unknown, what: string, max = 0xffff_ffff): void =>
  need(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max, `${what} must be a whole number in [0, ${max}]`);
const stringRecord = (v: unknown, what: string): void =>
  need(!!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every(isStr), `${what} must be an object of strings`);
export const endpointOk = (v: unknown): v is CollectorEndpoint => (COLLECTOR_ENDPOINTS as readonly unknown[]).includes(v);
const receivedAt = (v: unknown, what: string): void => uint(v, what, MAX_RECEIVED_AT_MS);

export function validateRequest(r: IncomingRequest): void {
  need(!!r && typeof r === 'object', 'request must be an object');
  need(isStr(r.requestId) && r.requestId !== '', 'requestId must be a non-empty string');
  need(isStr(r.stream), 'request stream must be a string');
  need(endpointOk(r.endpoint), `request endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
  receivedAt(r.receivedAtMs, 'receivedAtMs');
  need(typeof r.compressed === 'boolean', 'compressed must be a boolean');
  need(isStr(r.contentType), 'contentType must be a string');
  uint(r.bodyBytes, 'bodyBytes', Number.MAX_SAFE_INTEGER);
  uint(r.decodedBytes, 'decodedBytes', Number.MAX_SAFE_INTEGER);
  stringRecord(r.headers, 'headers');
  optionalStr(r.contextJson, 'contextJson');
  if (r.contextJson !== undefined) {
    try {
      JSON.parse(r.contextJson);
    } catch {
      need(false, 'contextJson must be JSON');
    }
  }
  uint(r.eventCount, 'eventCount');
  uint(r.refused, 'refused');
  if (r.viewer !== undefined) {
    need(!!r.viewer && typeof r.viewer === 'object', 'viewer must be an object when given');
    need(isStr(r.viewer.accountId) && r.viewer.accountId !== '', 'viewer.accountId must be a non-empty string');
    optionalStr(r.viewer.channelId, 'viewer.channelId');
  }
}

export function validateEvent(e: IncomingEvent, i: number): void {
  const at = `event ${i}`;
  need(!!e && typeof e === 'object', `${at} must be an object`);
  need(isStr(e.stream) && e.stream !== '', `${at}: stream must be a non-empty string`);
  need(isStr(e.dedupeKey) && e.dedupeKey !== '', `${at}: dedupeKey must be a non-empty string`);
  optionalStr(e.clientEventId, `${at}: clientEventId`);
  need(isStr(e.name) && e.name !== '', `${at}: name must be a non-empty string`);
  need(endpointOk(e.endpoint), `${at}: endpoint must be one of ${COLLECTOR_ENDPOINTS.join(', ')}`);
  need(e.eventTimeMs === undefined || Number.isFinite(e.eventTimeMs), `${at}: eventTimeMs must be a finite number when given`);
  need(e.value === undefined || Number.isFinite(e.value), `${at}: value must be a finite number when given`);
  need(isStr(e.json), `${at}: json must be a string`);
}

const finiteSeconds = (v: unknown, what: string): void => need(typeof v === 'number' && Number.isFinite(v) && v >= 0, `${what} must be a finite number ≥ 0`);

export function validatePing(p: IncomingPing): void {
  need(!!p && typeof p === 'object', 'ping must be an object');
  need((PING_KINDS as readonly unknown[]).includes(p.kind), `ping kind must be one of ${PING_KINDS.join(', ')}`);
  for (const key of ['docid', 'ei', 'cpn'] as const) need(isStr(p[key]) && p[key] !== '', `ping ${key} must be a non-empty string`);
  uint(p.seq, 'ping seq');
  receivedAt(p.receivedAtMs, 'receivedAtMs');
  finiteSeconds(p.cmt, 'cmt');
  finiteSeconds(p.rt, 'rt');
  if (p.len !== undefined) finiteSeconds(p.len, 'len');
  optionalStr(p.state, 'state');
  need(Array.isArray(p.st) && Array.isArray(p.et) && p.st.length === p.et.length, 'st and et must be arrays of the same length');
  [...p.st, ...p.et].forEach((v, i) => finiteSeconds(v, `segment time ${i}`));
  need(typeof p.final === 'boolean', 'final must be a boolean');
}

export function validateErrorReport(r: IncomingErrorReport): void {
  need(!!r && typeof r === 'object', 'error report must be an object');
  receivedAt(r.receivedAtMs, 'receivedAtMs');
  need(isStr(r.message), 'message must be a string');
  need(typeof r.messageTruncated === 'boolean', 'messageTruncated must be a boolean');
  for (const key of ['url', 'file', 'line', 'stack', 'type'] as const) optionalStr(r[key], key);
  stringRecord(r.extra, 'extra');
}

/** JSON for a column, or null; refuses what JSON cannot carry (a cycle, a BigInt). */
export function jsonOrNull(value: unknown, what: string): string | null {
  if (value === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`ClickHouse store: ${what} cannot be serialised: ${(error as Error).message}`, { cause: error });
  }
  return text === undefined ? null : wellFormed(text);
}

export const nullable = (v: string | undefined): string | null => (v === undefined ? null : wellFormed(v));
