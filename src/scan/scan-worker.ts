import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../types.ts';
import { replayFile } from './scan-session.ts';
import { MeterTape } from './tape.ts';
import type { FileJob, ThreadMessage } from './threads.ts';

// A scan thread: reads and replays the files it is given, one at a time, and hands back each one's
// facts and meter input (threads.ts). Everything that depends on other files is done by the main thread.

const config = (workerData as { config: Config }).config;
const port = parentPort!;
const say = (m: ThreadMessage) => port.postMessage(m);

port.on('message', ({ id, file }: FileJob) => {
  const tape = new MeterTape();
  const facts = replayFile(file, config, tape, (bytes) => say({ bytes }));
  say({ id, taped: facts && { facts, ops: tape.ops } });
});
