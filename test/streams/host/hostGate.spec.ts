import { earlyHandshakeOf } from '../../../streams/host/earlyHandshake';
import { hostGate, type HostLock } from '../../../streams/host/hostGate';
import { configFor } from '../player/fixtures';
import { fakeWindow, HOST, runScript } from './earlyWindow';

/**
 * The gate (spec §5: expected origin, registered window, JSON string) decides for the page script, and the inline
 * responder runs it from its own text in the page's HTML. One table of cases, run through the gate called as a
 * function and through the responder's script text alone: the same decisions, and the same lock.
 */

const EVIL = 'https://evil.example';
/** A small text limit, so that the limit itself is in the table. */
const MAX_CHARS = 100;

const host = { name: 'the host window' };
const other = { name: 'another window' };
const windows = { host, other, null: null, undefined: undefined };

const listening = (id?: number) => JSON.stringify({ event: 'listening', ...(id !== undefined && { id }), channel: 'widget' });
const command = JSON.stringify({ event: 'command', func: 'playVideo', args: [], id: 1, channel: 'widget' });

interface GateCase {
  name: string;
  /** The `origin` parameter, or null for none. */
  originParam: string | null;
  /** The lock before the message: none, the host window on HOST, or the host window on an opaque origin ("null"). */
  lockedBy: 'none' | 'host' | 'opaque host';
  data: unknown;
  origin: unknown;
  source: keyof typeof windows;
  accepted: boolean;
  /** An accepted message before the lock: the lock it takes (undefined: none). */
  takes?: { origin: string | null };
}

const CASES: GateCase[] = [
  // Before the lock, without an origin parameter: any origin may open the channel.
  {
    name: 'listening, any origin',
    originParam: null,
    lockedBy: 'none',
    data: listening(3),
    origin: EVIL,
    source: 'host',
    accepted: true,
    takes: { origin: EVIL },
  },
  {
    name: 'listening from an opaque origin',
    originParam: null,
    lockedBy: 'none',
    data: listening(),
    origin: 'null',
    source: 'host',
    accepted: true,
    takes: { origin: null },
  },
  { name: 'a command before any listening', originParam: null, lockedBy: 'none', data: command, origin: HOST, source: 'host', accepted: true },
  { name: 'JSON that is not an object', originParam: null, lockedBy: 'none', data: '"listening"', origin: HOST, source: 'host', accepted: true },
  { name: 'an array holding a listening', originParam: null, lockedBy: 'none', data: `[${listening()}]`, origin: HOST, source: 'host', accepted: true },
  {
    name: '"event" only inherited',
    originParam: null,
    lockedBy: 'none',
    data: '{"__proto__":{"event":"listening"}}',
    origin: HOST,
    source: 'host',
    accepted: true,
  },
  {
    name: 'data at the text limit',
    originParam: null,
    lockedBy: 'none',
    data: listening().padEnd(MAX_CHARS),
    origin: HOST,
    source: 'host',
    accepted: true,
    takes: { origin: HOST },
  },
  {
    name: 'data over the text limit',
    originParam: null,
    lockedBy: 'none',
    data: listening().padEnd(MAX_CHARS + 1),
    origin: HOST,
    source: 'host',
    accepted: false,
  },
  { name: 'non-string data (an object)', originParam: null, lockedBy: 'none', data: { event: 'listening' }, origin: HOST, source: 'host', accepted: false },
  { name: 'non-string data (a number)', originParam: null, lockedBy: 'none', data: 42, origin: HOST, source: 'host', accepted: false },
  { name: 'empty text', originParam: null, lockedBy: 'none', data: '', origin: HOST, source: 'host', accepted: false },
  { name: 'non-JSON text', originParam: null, lockedBy: 'none', data: '{not json', origin: HOST, source: 'host', accepted: false },
  { name: 'no sending window (null)', originParam: null, lockedBy: 'none', data: listening(), origin: HOST, source: 'null', accepted: false },
  { name: 'no sending window (undefined)', originParam: null, lockedBy: 'none', data: listening(), origin: HOST, source: 'undefined', accepted: false },
  { name: 'an origin that is not a string', originParam: null, lockedBy: 'none', data: listening(), origin: undefined, source: 'host', accepted: false },
  // Before the lock, with an origin parameter: that exact origin only (host-protocol §3.3, §6).
  {
    name: 'the origin parameter matched',
    originParam: HOST,
    lockedBy: 'none',
    data: listening(),
    origin: HOST,
    source: 'host',
    accepted: true,
    takes: { origin: HOST },
  },
  {
    name: 'the origin without its port',
    originParam: HOST,
    lockedBy: 'none',
    data: listening(),
    origin: 'https://host.example',
    source: 'host',
    accepted: false,
  },
  {
    name: 'the origin with another scheme',
    originParam: HOST,
    lockedBy: 'none',
    data: listening(),
    origin: 'http://host.example:8443',
    source: 'host',
    accepted: false,
  },
  { name: 'an opaque origin against the parameter', originParam: HOST, lockedBy: 'none', data: listening(), origin: 'null', source: 'host', accepted: false },
  { name: 'a command from the parameter', originParam: HOST, lockedBy: 'none', data: command, origin: HOST, source: 'host', accepted: true },
  { name: 'a command from another origin', originParam: HOST, lockedBy: 'none', data: command, origin: EVIL, source: 'host', accepted: false },
  // Locked: the locked window, from the locked origin (host-protocol §3.2).
  { name: 'locked: the host', originParam: HOST, lockedBy: 'host', data: command, origin: HOST, source: 'host', accepted: true },
  { name: 'locked: a repeated listening', originParam: HOST, lockedBy: 'host', data: listening(2), origin: HOST, source: 'host', accepted: true },
  { name: 'locked: another window, same origin', originParam: HOST, lockedBy: 'host', data: command, origin: HOST, source: 'other', accepted: false },
  { name: 'locked: listening from another window', originParam: HOST, lockedBy: 'host', data: listening(), origin: HOST, source: 'other', accepted: false },
  { name: 'locked: the host window, another origin', originParam: HOST, lockedBy: 'host', data: command, origin: EVIL, source: 'host', accepted: false },
  { name: 'locked: non-JSON text from the host', originParam: HOST, lockedBy: 'host', data: '{not json', origin: HOST, source: 'host', accepted: false },
  {
    name: 'locked: non-string data from the host',
    originParam: HOST,
    lockedBy: 'host',
    data: { event: 'command' },
    origin: HOST,
    source: 'host',
    accepted: false,
  },
  { name: 'locked without parameter: another window', originParam: null, lockedBy: 'host', data: listening(), origin: EVIL, source: 'other', accepted: false },
  // Locked to an opaque origin: the window alone identifies the host.
  { name: 'opaque lock: the host', originParam: null, lockedBy: 'opaque host', data: command, origin: 'null', source: 'host', accepted: true },
  { name: 'opaque lock: the host window, any origin', originParam: null, lockedBy: 'opaque host', data: command, origin: EVIL, source: 'host', accepted: true },
  { name: 'opaque lock: another window', originParam: null, lockedBy: 'opaque host', data: command, origin: 'null', source: 'other', accepted: false },
  {
    name: 'opaque lock: listening from another window',
    originParam: null,
    lockedBy: 'opaque host',
    data: listening(),
    origin: 'null',
    source: 'other',
    accepted: false,
  },
];

/** A lock as the table says it: its origin, and which window. */
const described = (lock: HostLock | null) =>
  lock && { origin: lock.origin, source: lock.source === host ? 'host' : lock.source === other ? 'other' : lock.source };

/** The lock a case starts from, as the gate holds it. */
const lockBefore = (c: GateCase): HostLock | null => (c.lockedBy === 'none' ? null : { origin: c.lockedBy === 'host' ? HOST : null, source: host });

/** The gate called as a function: accepted, and the lock after the message. */
function throughGate(c: GateCase) {
  const before = lockBefore(c);
  const decision = hostGate({ data: c.data, origin: c.origin as string, source: windows[c.source] }, before, {
    originParam: c.originParam,
    maxChars: MAX_CHARS,
  });
  return { accepted: decision.accepted, lock: described(decision.accepted ? decision.lock : before) };
}

/** The inline responder run from its script text: the lock taken first as a host would, then the case's message. */
function throughResponder(c: GateCase) {
  const { win, deliver } = fakeWindow();
  const data = earlyHandshakeOf(configFor({ enablejsapi: '1' }), { nowMs: 0 })!;
  runScript(win, { ...data, originParam: c.originParam, maxChars: MAX_CHARS });
  if (c.lockedBy !== 'none') deliver(listening(1), c.lockedBy === 'host' ? HOST : 'null', host);
  deliver(c.data, c.origin as string, windows[c.source]);
  const handoff = win.vidframeEarlyHost!.take()!;
  const tookLock = c.lockedBy === 'none' && handoff.lock !== null;
  return { accepted: handoff.held.length === 1 || tookLock, lock: described(handoff.lock) };
}

describe('hostGate and the inline responder: one table of host messages, the same decisions', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const expected = {
      accepted: c.accepted,
      lock: c.takes ? { origin: c.takes.origin, source: 'host' } : described(lockBefore(c)),
    };
    expect(throughGate(c)).toEqual(expected);
    expect(throughResponder(c)).toEqual(expected);
  });

  it('an accepted message carries its parsed value; a listening before the lock takes it, the string "null" as the opaque origin', () => {
    const decision = hostGate({ data: listening(5), origin: 'null', source: host }, null, { maxChars: MAX_CHARS });
    expect(decision).toEqual({ accepted: true, value: { event: 'listening', id: 5, channel: 'widget' }, lock: { origin: null, source: host } });
    const locked: HostLock = { origin: HOST, source: host };
    const later = hostGate({ data: listening(6), origin: HOST, source: host }, locked, { maxChars: MAX_CHARS });
    expect(later.accepted && later.lock).toBe(locked);
  });
});
