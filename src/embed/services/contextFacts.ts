import { Subscription, type Observable } from 'rxjs';
import type { AdStatusValue } from '../../../streams/adStatus/adStatusCheck';
import type { ClientContext } from '../../../streams/transport/buildClientContext';

/** The client-context facts (spec §3) that services of the page learn after start-up, as a request reads them. */
export interface ContextFacts {
  /** `configInfo` from the stored hot/cold config. */
  configInfo?: ClientContext['client']['configInfo'];
  /** The location info of an allowed geolocation (spec §8/§9). */
  locationInfo?: Record<string, unknown>;
  /** The consent-gated anonymous id (spec §5/§7), while there is consent. */
  anonymousId?: string;
  /** The ad-status value (spec §4: 1 loaded, 2 present, 3 timed out), sent as `adst` (AD_STATUS_SIGNAL_KEY). */
  adStatus?: AdStatusValue;
}

/**
 * Where each fact comes from: the state stream of the one service that owns it (telemetry's `configInfo$`, the
 * location's `locationInfo$`, consent's `currentAnonymousId$`, attestation's `adStatusSignal$`).
 */
export interface ContextSources {
  configInfo$?: Observable<ContextFacts['configInfo']>;
  locationInfo$?: Observable<ContextFacts['locationInfo']>;
  anonymousId$?: Observable<ContextFacts['anonymousId']>;
  adStatus$?: Observable<ContextFacts['adStatus']>;
}

/** The latest value of every fact, and the one place that follows their sources. */
export interface ContextFactsReader {
  /** The facts as their sources last said (a source that emits at once is read at once). */
  latest(): Readonly<ContextFacts>;
  /**
   * Follows the given sources until the returned subscription ends. Each fact has exactly one source at a time: a
   * second source for a fact that has one throws, so no two services can overwrite each other's state.
   */
  follow(sources: ContextSources): Subscription;
}

const KEYS = {
  configInfo$: 'configInfo',
  locationInfo$: 'locationInfo',
  anonymousId$: 'anonymousId',
  adStatus$: 'adStatus',
} as const satisfies Record<keyof ContextSources, keyof ContextFacts>;

/** The facts of the page's API client: each written only by the subscription to its one source. */
export function createContextFacts(): ContextFactsReader {
  const latest: ContextFacts = {};
  const followed = new Set<keyof ContextFacts>();
  const followOne = <K extends keyof ContextSources>(name: K, source$: Observable<ContextFacts[(typeof KEYS)[K]]>): Subscription => {
    const key = KEYS[name];
    if (followed.has(key)) throw new Error(`The context fact ${key} already has a source`);
    followed.add(key);
    // A source that fails leaves its fact unset rather than frozen: a request then goes without it, as before its
    // service started (an anonymous id must never outlive the consent stream that gates it).
    const subscription = source$.subscribe({
      next: (value) => {
        (latest as Record<string, unknown>)[key] = value;
      },
      error: (error: unknown) => {
        delete (latest as Record<string, unknown>)[key];
        console.error(`[vidframe] the source of the context fact ${key} failed`, error);
      },
    });
    subscription.add(() => followed.delete(key));
    return subscription;
  };
  return {
    latest: () => latest,
    follow(sources) {
      const names = (Object.keys(sources) as (keyof ContextSources)[]).filter((name) => name in KEYS && sources[name] !== undefined);
      // Every name is checked before any is followed: a refused call follows nothing.
      const taken = names.find((name) => followed.has(KEYS[name]));
      if (taken) throw new Error(`The context fact ${KEYS[taken]} already has a source`);
      const subscriptions = new Subscription();
      for (const name of names) subscriptions.add(followOne(name, sources[name] as Observable<never>));
      return subscriptions;
    },
  };
}
