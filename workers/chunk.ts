// Worker thread entry for the piscina pool: runs chunks with the engines from src/sim.
import { workerData } from 'node:worker_threads';
import { ChunkWorker, type BatchPayload, type ChunkTask, type PairedCounts, type PairedTask } from '../src/sim/worker.js';

// Built at the first task, not while the module loads: an error then reaches the caller as the
// task's error with its own message (the pool swallows errors thrown while loading a worker
// module and retries the load, which on Node 20 can end in an unrelated loader error).
let worker: ChunkWorker | null = null;

export default function runChunk(task: ChunkTask | PairedTask): number[] | PairedCounts {
  worker ??= new ChunkWorker(workerData as BatchPayload);
  return 'paired' in task ? worker.runPaired(task) : worker.run(task);
}
