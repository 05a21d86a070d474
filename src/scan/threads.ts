import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Config } from '../types.ts';
import type { FileFacts } from './scan-session.ts';
import type { MeterOp } from './tape.ts';

// History files read and replayed in worker threads, the results handed back in the files' order. A
// thread takes the next file when it is done with one, so a long file keeps one thread busy while the
// others go on; results wait here until those of every earlier file are in, and no thread runs further
// ahead than WINDOW files of the first one still awaited, so what waits stays small.

/** A file replayed in a thread: its facts and its meter's input, to be metered in order. */
export interface TapedFile {
  facts: FileFacts;
  ops: MeterOp[];
}

/** What a thread is asked: a file to read. */
export interface FileJob {
  id: number;
  file: string;
}

/**
 * What a thread says: bytes read so far in its file, or a file
 * done (its tape undefined when it was in no format scan reads).
 */
export type ThreadMessage = { bytes: number } | { id: number; taped: TapedFile | undefined };

const WINDOW_PER_THREAD = 4;

/**
 * Each thread has a heap of its own (tens of MB at its peak): past this many, more cores add memory more than speed.
 */
export const MAX_THREADS = 8;

/** One thread per core the process may use, up to MAX_THREADS. */
export function defaultThreads(): number {
  return Math.min(availableParallelism(), MAX_THREADS);
}

/** The thread's code: built beside the CLI's chunks (scripts/build.mjs), so threads run from dist/ only. */
const WORKER = new URL('./scan-worker.js', import.meta.url);

export async function* tapedInOrder(
  files: readonly string[],
  config: Config,
  threads: number,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<TapedFile | undefined> {
  const window = threads * WINDOW_PER_THREAD;
  const done = new Map<number, TapedFile | undefined>();
  const idle: Worker[] = [];
  let next = 0;
  let first = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const rouse = () => {
    wake?.();
    wake = undefined;
  };
  const dispatch = () => {
    while (idle.length > 0 && next < files.length && next < first + window) {
      const job: FileJob = { id: next, file: files[next]! };
      idle.pop()!.postMessage(job);
      next++;
    }
  };
  const workers: Worker[] = [];
  let closing = false;
  for (let i = 0; i < threads; i++) {
    const w = new Worker(WORKER, { workerData: { config } });
    w.on('message', (m: ThreadMessage) => {
      if ('bytes' in m) {
        onBytes?.(m.bytes);
        return;
      }
      done.set(m.id, m.taped);
      idle.push(w);
      dispatch();
      rouse();
    });
    w.on('error', (e) => {
      failure ??= e;
      rouse();
    });
    w.on('exit', (code) => {
      if (!closing) failure ??= new Error(`a scan thread stopped (exit code ${code})`);
      rouse();
    });
    workers.push(w);
    idle.push(w);
  }
  try {
    dispatch();
    while (first < files.length) {
      while (!done.has(first) && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      const taped = done.get(first);
      done.delete(first);
      first++;
      dispatch();
      yield taped;
    }
  } finally {
    closing = true;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
