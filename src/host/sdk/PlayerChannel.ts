import { fromEvent, type SchedulerLike, Subject, Subscription } from 'rxjs';
import { isTrustedMessage } from './isTrustedMessage';
import { listeningTicks } from './listeningTicks';
import { parseEmbedMessage } from './parseEmbedMessage';
import type { ApiInfo } from './types';

/** Commands that load or cue: the host wipes its cache when it sends one (host-protocol §5). */
const LOADING_COMMANDS = new Set(['loadVideoById', 'cueVideoById', 'loadVideoByUrl', 'cueVideoByUrl', 'loadPlaylist', 'cuePlaylist']);
/** Subscription commands are part of the protocol itself, not of `apiInterface`. */
const PROTOCOL_COMMANDS = new Set(['addEventListener', 'removeEventListener']);

interface QueuedCommand {
  func: string;
  args: unknown[];
}

/** What the channel hands on, in the order the embed sends it. */
export interface PlayerChannelReceiver {
  /** A load or cue command goes out: what the cache holds is about the video it replaces. */
  loading(): void;
  /** `initialDelivery`: the whole state of a new embed document (`apiInterface` taken out). */
  initialDelivery(snapshot: Record<string, unknown>): void;
  /** `infoDelivery`: the values that changed. */
  infoDelivery(info: unknown): void;
  /** `apiInfoDelivery`: the modules and their options. */
  apiInfoDelivery(info: ApiInfo): void;
  /** `onReady`, after the queued commands went out. */
  ready(): void;
  /** Any other `on…` event the embed forwards. */
  event(name: string, data: unknown): void;
}

export interface PlayerChannelOptions {
  /** The host page's window, where the embed's messages arrive. */
  win: Window;
  iframe: HTMLIFrameElement;
  embedOrigin: string;
  /** The widget id: sent with every message and echoed by the embed. */
  id: number;
  scheduler: SchedulerLike;
  receiver: PlayerChannelReceiver;
}

/**
 * One player's side of the host protocol (`shared/design/host-protocol.md`): the handshake, the command queue and
 * the messages in both directions.
 *
 * Once {@link PlayerChannel.open}ed it says `listening` on every start of the iframe's document and every
 * `HOST_LISTENING_INTERVAL_MS` until the embed answers; commands wait, in order, until the embed answered, and then go
 * out behind the `addEventListener` of every event asked for so far. Only messages from the iframe's own window and
 * the embed origin, carrying this widget id, are read. {@link PlayerChannel.close} stops every listener and timer
 * and drops what is queued.
 */
export class PlayerChannel {
  private readonly starts = new Subject<void>();
  private readonly answers = new Subject<void>();
  private readonly subscription = new Subscription();
  /** Event names the embed is asked to forward (`addEventListener` commands). */
  private readonly remoteEvents = new Set<string>();
  private queue: QueuedCommand[] = [];
  private functions: string[] | undefined;
  private connected = false;
  private closed = false;

  constructor(private readonly options: PlayerChannelOptions) {}

  /** The function names the embed exposes to this page (`apiInterface` of `initialDelivery`), until then `undefined`. */
  get apiInterface(): readonly string[] | undefined {
    return this.functions;
  }

  /** Starts reading the embed's messages and saying `listening`. */
  open(): void {
    const { win, iframe, scheduler } = this.options;
    this.subscription.add(fromEvent<MessageEvent>(win, 'message').subscribe((event) => this.receive(event)));
    this.subscription.add(listeningTicks(this.starts, this.answers, { scheduler }).subscribe(() => this.post({ event: 'listening' })));
    this.subscription.add(fromEvent(iframe, 'load').subscribe(() => this.starts.next()));
    this.starts.next();
  }

  /** Asks the embed to forward `name` events, once per name (at once if it answered, else when it does). */
  forward(name: string): void {
    // onReady only ever comes from the handshake (host-protocol §4).
    if (name === 'onReady' || this.remoteEvents.has(name)) return;
    this.remoteEvents.add(name);
    if (this.connected) this.post({ event: 'command', func: 'addEventListener', args: [name] });
  }

  /** Sends a command now if the embed has answered, otherwise queues it (in order) until it does. */
  command(func: string, args: unknown[] = []): void {
    if (this.closed) return;
    if (!this.connected) {
      this.queue.push({ func, args });
      return;
    }
    this.send({ func, args });
  }

  /** Stops the `listening` loop and every listener, and drops queued commands and forwarded events. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription.unsubscribe();
    this.queue = [];
    this.remoteEvents.clear();
    this.starts.complete();
    this.answers.complete();
  }

  private send({ func, args }: QueuedCommand): void {
    // A function missing from apiInterface does not exist for this page (host-protocol §5).
    if (this.functions && !PROTOCOL_COMMANDS.has(func) && !this.functions.includes(func)) return;
    if (LOADING_COMMANDS.has(func)) this.options.receiver.loading();
    this.post({ event: 'command', func, args });
  }

  private post(message: Record<string, unknown>): void {
    const { iframe, id, embedOrigin } = this.options;
    const target = iframe.contentWindow;
    if (!target) return;
    target.postMessage(JSON.stringify({ ...message, id, channel: 'widget' }), embedOrigin);
  }

  private forwardAll(): void {
    for (const name of this.remoteEvents) this.post({ event: 'command', func: 'addEventListener', args: [name] });
  }

  /** The embed answered: ask for every event listened to so far, then send the queued commands, in order. */
  private connect(): void {
    if (this.connected) return;
    this.connected = true;
    this.forwardAll();
    const queued = this.queue;
    this.queue = [];
    for (const command of queued) this.send(command);
  }

  private receive(event: MessageEvent): void {
    if (this.closed) return;
    const { iframe, id, embedOrigin, receiver } = this.options;
    if (!isTrustedMessage(event, { origin: embedOrigin, source: iframe.contentWindow })) return;
    const message = parseEmbedMessage(event.data);
    if (!message || String(message.id) !== String(id)) return;
    this.answers.next();
    switch (message.event) {
      case 'readyToListen':
        // The embed is ready before our next tick: answer at once.
        this.post({ event: 'listening' });
        return;
      case 'initialDelivery': {
        const { apiInterface, ...snapshot } = (message.info && typeof message.info === 'object' ? message.info : {}) as Record<string, unknown>;
        if (Array.isArray(apiInterface)) this.functions = apiInterface.filter((f): f is string => typeof f === 'string');
        // A new embed document (first handshake, or the iframe reloaded) knows none of our subscriptions yet.
        if (this.connected) this.forwardAll();
        receiver.initialDelivery(snapshot);
        this.connect();
        return;
      }
      case 'infoDelivery':
        receiver.infoDelivery(message.info);
        return;
      case 'apiInfoDelivery':
        if (message.info && typeof message.info === 'object' && !Array.isArray(message.info)) receiver.apiInfoDelivery(message.info as ApiInfo);
        return;
      case 'alreadyInitialized':
        this.connect();
        return;
      case 'onReady':
        this.connect();
        receiver.ready();
        return;
      default:
        if (/^on[A-Z]/.test(message.event)) receiver.event(message.event, message.info);
    }
  }
}
