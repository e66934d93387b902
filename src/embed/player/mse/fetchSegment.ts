import { Observable } from 'rxjs';
import type { FetchEvent } from '../../../../streams/mse/trackLoader';
import { numberText } from '../../../../streams/shared/numberText';

/**
 * GETs a segment: progress as its body arrives (with each chunk), then the whole body with its timing (`firstByteMs` when the answer's
 * headers came, so time to first byte never counts as transfer). A status other than 2xx or a network failure is an
 * error naming the URL; unsubscribing aborts the request. Times are `performance.now()` milliseconds.
 */
export function fetchSegment(url: string, now: () => number = () => performance.now()): Observable<FetchEvent> {
  // Hand-written: an edge to fetch, with the abort on unsubscription and the body read chunk by chunk for progress.
  return new Observable<FetchEvent>((subscriber) => {
    const abort = new AbortController();
    const requestMs = now();
    const read = async () => {
      const response = await fetch(url, { signal: abort.signal });
      if (!response.ok || !response.body) throw new Error(`Segment ${url}: HTTP ${numberText(response.status)}`);
      const firstByteMs = now();
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let loaded = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.byteLength;
        subscriber.next({ type: 'progress', loaded, requestMs, firstByteMs, atMs: now(), chunk: value });
      }
      const data = new Uint8Array(loaded);
      let at = 0;
      for (const chunk of chunks) {
        data.set(chunk, at);
        at += chunk.byteLength;
      }
      subscriber.next({ type: 'done', data: data.buffer, requestMs, firstByteMs, endMs: now() });
      subscriber.complete();
    };
    read().catch((error: unknown) => {
      if (!abort.signal.aborted) subscriber.error(error instanceof Error ? error : new Error(`Segment ${url}: ${String(error)}`));
    });
    return () => abort.abort();
  });
}
