// Worker thread entry for the piscina pool: runs chunks with the engines from src/sim.
import { workerData } from 'node:worker_threads';
import { ChunkWorker, type BatchPayload, type ChunkTask, type PairedCounts, type PairedTask } from '../src/sim/worker.js';

const worker = new ChunkWorker(workerData as BatchPayload);

export default function runChunk(task: ChunkTask | PairedTask): number[] | PairedCounts {
  return 'paired' in task ? worker.runPaired(task) : worker.run(task);
}
