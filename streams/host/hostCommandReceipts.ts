import { EMPTY, map, merge, mergeMap, type Observable, of, scan } from 'rxjs';
import type { PlayerReadiness } from '../player/playerReadiness';
import { isHostMethodExposed, isTrustedOrigin } from './hostApiInterface';
import { FORWARDABLE_HOST_EVENTS } from './hostEvents';
import { HOST_MESSAGE_MAX_CHARS, hostGate, type HostLock } from './hostGate';
import { hostInboundOf } from './hostInboundOf';
import type { HostMessageEvent } from './hostTypes';
import { toPlayerCommand } from './toPlayerCommand';

/** One host command as the embed received it (the `hostCommandReceived` log event). */
export interface HostCommandReceipt {
  /** The command's `func` (`playVideo`, `loadVideoById`, `addEventListener`, …). */
  command: string;
  hostOrigin: string;
  /** False when the player was not ready, the method is not exposed to that origin, or its arguments were refused. */
  accepted: boolean;
}

export interface HostCommandReceiptsOptions {
  /** The `origin` player variable: messages from any other origin are ignored by the protocol, and here. */
  originParam?: string;
  trustedOrigins?: readonly string[];
  /** Longest message text read (`HOST_MESSAGE_MAX_CHARS` by default). */
  maxMessageChars?: number;
  /** The host window and origin the channel is already locked to: the page's inline responder took the first `listening`. */
  lock?: HostLock | null;
}

interface ReceiptState {
  ready: boolean;
  /** The host window the first `listening` locked the channel to (host-protocol §3), as the protocol does. */
  lock: HostLock | null;
  receipt: HostCommandReceipt | null;
}

/**
 * Every host command the protocol takes in, one receipt each, for the player's logging (each kind of host command is
 * logged when received). It reads the same `message` events as `hostProtocol$` through the same gate (`hostGate`) — a
 * message that comes from another origin than `originParam`, or from another window than the locked host, or is not
 * a well-formed command, is no command of this host and gives nothing. `accepted` is false when the player was not yet
 * ready (the protocol holds it), the function is not exposed to the origin (an unknown name, a getter, a privileged
 * command from an untrusted origin), or its arguments are malformed (the host gets `onError` 2).
 *
 * ```
 * readiness$: l--------r-------
 * messages$:  -L--C--------C---   L listening, C playVideo
 * result:     ----f--------t---   f accepted false (not ready), t accepted true
 * ```
 */
export function hostCommandReceipts(
  messages$: Observable<HostMessageEvent>,
  readiness$: Observable<PlayerReadiness>,
  { originParam, trustedOrigins = [], maxMessageChars = HOST_MESSAGE_MAX_CHARS, lock = null }: HostCommandReceiptsOptions = {},
): Observable<HostCommandReceipt> {
  type Input = { kind: 'ready' } | { kind: 'message'; message: HostMessageEvent };
  return merge(
    readiness$.pipe(mergeMap((r) => (r === 'ready' ? of<Input>({ kind: 'ready' }) : EMPTY))),
    messages$.pipe(map((message): Input => ({ kind: 'message', message }))),
  ).pipe(
    scan(
      (state: ReceiptState, input: Input): ReceiptState => {
        if (input.kind === 'ready') return { ...state, ready: true, receipt: null };
        const m = input.message;
        const none = { ...state, receipt: null };
        const gate = hostGate(m, state.lock, { originParam, maxChars: maxMessageChars });
        if (!gate.accepted) return none;
        const msg = hostInboundOf(gate.value);
        if (!msg) return none;
        if (msg.event === 'listening') return { ...none, lock: gate.lock };
        const exposed = isHostMethodExposed(msg.func, isTrustedOrigin(m.origin, trustedOrigins));
        const valid =
          msg.func === 'addEventListener' || msg.func === 'removeEventListener'
            ? typeof msg.args[0] === 'string' && (FORWARDABLE_HOST_EVENTS as readonly string[]).includes(msg.args[0])
            : toPlayerCommand(msg.func, msg.args)?.ok !== false; // null: an exposed no-op (`loadModule`)
        return { ...state, receipt: { command: msg.func, hostOrigin: m.origin, accepted: state.ready && exposed && valid } };
      },
      { ready: false, lock, receipt: null },
    ),
    mergeMap((state) => (state.receipt ? of(state.receipt) : EMPTY)),
  );
}
