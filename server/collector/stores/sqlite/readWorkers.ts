import { Worker } from 'node:worker_threads';
import { StoreBusyError, StoreQueryError } from '../../store';
import type { ReadMethod, ReadReply, ReadWorkerData, StoreReads } from './readProtocol';
import { workerEntry } from './workerEntry';

/** The SQLite store's reads, each answered by the read worker (`readWorker.ts`) within its time bound. */
export interface ReadWorkers {
  run<M extends ReadMethod>(method: M, ...args: Parameters<StoreReads[M]>): Promise<ReturnType<StoreReads[M]>>;
  /** Refuses what waits, stops the worker (and any still finishing a read past its bound) and resolves once they exit. */
  close(): Promise<void>;
}

export interface ReadWorkerOptions {
  /** Longest a read may run in the worker before the worker is stopped and the read refused. */
  timeoutMs: number;
  /** Most reads waiting for the worker; one more is refused at once. */
  queueMax: number;
}

interface PendingRead {
  id: number;
  method: ReadMethod;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface ReadThread {
  thread: Worker;
  /** The worker has opened its connection and takes reads. */
  ready: boolean;
}

const failure = ({ name, message }: { name: string; message: string }): Error =>
  name === 'StoreQueryError' ? new StoreQueryError(message) : new Error(message);

/**
 * One read worker for the store's file, started at the first read, with the reads waiting their turn in a bounded
 * queue. A read runs at most `timeoutMs` in the worker: past it, the read is refused with a {@link StoreBusyError}, the
 * worker is stopped and the next read gets a fresh one. A worker that dies fails the read it held, never the server.
 */
export function createReadWorkers(file: string, { timeoutMs, queueMax }: ReadWorkerOptions): ReadWorkers {
  const entry = workerEntry('readWorker');
  const queue: PendingRead[] = [];
  /** Workers told to stop that have not exited yet (one past its bound finishes its native query first). */
  const stopping = new Set<Promise<unknown>>();
  let current: ReadThread | undefined;
  let running: (PendingRead & { timer: NodeJS.Timeout }) | undefined;
  let nextId = 1;
  let closed = false;

  const retire = (worker: ReadThread) => {
    if (current === worker) current = undefined;
    const exited = worker.thread.terminate().catch(() => undefined);
    stopping.add(exited);
    void exited.finally(() => stopping.delete(exited));
  };

  /** The worker failed (it threw, or exited unasked): the read it held fails with it; one that never started fails what waits. */
  const fail = (worker: ReadThread, error: Error) => {
    if (current !== worker) return;
    retire(worker);
    const held = running;
    running = undefined;
    if (held) {
      clearTimeout(held.timer);
      held.reject(error);
    }
    if (!worker.ready) for (const waiting of queue.splice(0)) waiting.reject(error);
    next();
  };

  const spawn = () => {
    const data: ReadWorkerData = { file };
    const worker: ReadThread = { thread: new Worker(entry.entry, { workerData: data, eval: entry.eval }), ready: false };
    worker.thread.on('message', (message: ReadReply | { ready: true }) => {
      if (current !== worker) return;
      if ('ready' in message) {
        worker.ready = true;
        next();
      } else settle(message);
    });
    worker.thread.on('error', (error) => fail(worker, new Error(`The read worker failed: ${error.message}`)));
    worker.thread.on('exit', (code) => fail(worker, new Error(`The read worker stopped (exit code ${code})`)));
    current = worker;
    holdWhileBusy();
  };

  /**
   * The worker keeps the process alive while a read waits or runs (a script awaiting a read is not cut short), and
   * never when idle (a store left open does not hold the process). Set after the listeners, which ref its port.
   */
  const holdWhileBusy = () => {
    if (running || queue.length > 0) current?.thread.ref();
    else current?.thread.unref();
  };

  const settle = (reply: ReadReply) => {
    const held = running;
    if (!held || reply.id !== held.id) return;
    clearTimeout(held.timer);
    running = undefined;
    if (reply.error) held.reject(failure(reply.error));
    else held.resolve(reply.value);
    next();
  };

  const timedOut = () => {
    const held = running;
    if (!held) return;
    running = undefined;
    if (current) retire(current);
    held.reject(
      new StoreBusyError(
        `The ${held.method} read ran past its time bound of ${timeoutMs} ms and was stopped: narrow it (a shorter range, a filter) or try again later`,
      ),
    );
    next();
  };

  /** Starts the next waiting read once a worker is ready (starting one when there is none). */
  function next(): void {
    if (!closed && !running && queue.length > 0) {
      if (!current) return spawn();
      const read = current.ready ? queue.shift() : undefined;
      if (read) {
        running = { ...read, timer: setTimeout(timedOut, timeoutMs) };
        current.thread.postMessage({ id: read.id, method: read.method, args: read.args });
      }
    }
    holdWhileBusy();
  }

  return {
    run(method, ...args) {
      if (closed) return Promise.reject(new Error('The collector store is closed'));
      if (queue.length >= queueMax) {
        return Promise.reject(new StoreBusyError(`Too many reads are waiting (${queueMax}): try again later`));
      }
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, method, args, resolve: resolve as (value: unknown) => void, reject });
        next();
      });
    },
    async close() {
      closed = true;
      const refused = new Error('The collector store is closed');
      for (const waiting of queue.splice(0)) waiting.reject(refused);
      if (running) {
        clearTimeout(running.timer);
        running.reject(refused);
        running = undefined;
      }
      if (current) retire(current);
      await Promise.all(stopping);
    },
  };
}
