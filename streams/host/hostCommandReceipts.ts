import { map, merge, mergeMap, Observable, of, EMPTY, scan } from 'rxjs';
import type { PlayerReadiness } from '../player/playerReadiness';
import { FORWARDABLE_HOST_EVENTS } from './hostProtocol';
import { isHostMethodExposed, isTrustedOrigin } from './hostApiInterface';
import type { HostMessageEvent } from './hostTypes';
import { parseHostMessage } from './parseHostMessage';
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
  maxMessageChars?: number;
  /** The host window the channel is already locked to: the page's inline responder took the first `listening` (issue 15). */
  lock?: { source: unknown; origin: string } | null;
}

interface ReceiptState {
  ready: boolean;
  /** The host window the first `listening` locked the channel to (host-protocol §3), as the protocol does. */
  lock: { source: unknown; origin: string } | null;
  receipt: HostCommandReceipt | null;
}

/**
 * Every host command the protocol takes in, one receipt each, for the player's logging (issue 17: each kind of host
 * command is logged when received). It reads the same `message` events as `hostProtocol$`, with the same filters —
 * a message that is not a well-formed command, comes from another origin than `originParam`, or from another window
 * than the locked host, is no command of this host and gives nothing. `accepted` is false when the player was not yet
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
  { originParam, trustedOrigins = [], maxMessageChars, lock = null }: HostCommandReceiptsOptions = {},
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
        if (m.source === null || m.source === undefined || typeof m.origin !== 'string') return none;
        const msg = parseHostMessage(m.data, { maxChars: maxMessageChars });
        if (!msg) return none;
        if (state.lock) {
          if (m.source !== state.lock.source || (state.lock.origin !== 'null' && m.origin !== state.lock.origin)) return none;
        } else if (originParam && m.origin !== originParam) return none;
        if (msg.event === 'listening') return state.lock ? none : { ...state, lock: { source: m.source, origin: m.origin }, receipt: null };
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
