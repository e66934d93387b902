import { Observable, type Subscription } from 'rxjs';

/**
 * A turnstile for requests that share one link: each observable wrapped by the returned function is subscribed only
 * once every one wrapped before it has completed, failed or been unsubscribed, in the order they were subscribed.
 * Unsubscribing one that waits takes it out of the line without ever subscribing it.
 *
 * The adaptive stream's two tracks fetch through one turnstile, so each transfer has the link to itself and its
 * bandwidth sample measures the whole link, not the share left over by the other track.
 */
export function oneAtATime(): <T>(source: Observable<T>) => Observable<T> {
  const line: (() => void)[] = [];
  let busy = false;
  const release = () => {
    const next = line.shift();
    if (next) next();
    else busy = false;
  };
  return <T>(source: Observable<T>) =>
    // Hand-written: the turn is held from subscription to the end of the inner observable and handed on exactly once.
    new Observable<T>((subscriber) => {
      let inner: Subscription | undefined;
      let holding = false;
      const done = () => {
        if (!holding) return;
        holding = false;
        release();
      };
      const start = () => {
        holding = true;
        inner = source.subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            done();
            subscriber.error(error);
          },
          complete: () => {
            done();
            subscriber.complete();
          },
        });
      };
      if (busy) line.push(start);
      else {
        busy = true;
        start();
      }
      return () => {
        const waiting = line.indexOf(start);
        if (waiting >= 0) line.splice(waiting, 1);
        inner?.unsubscribe();
        done();
      };
    });
}
