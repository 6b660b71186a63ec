// Running a batch: chunks go to a pool of workers (or run in this thread), results come
// back in any order and are committed per slot in chunk order. Finished chunks are also
// appended to a checkpoint, so an interrupted run resumes where it stopped.
import { Piscina } from 'piscina';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';
import type { Batch } from '../scenarios/batch.js';
import { buildEngines, type CellEngine } from './cells.js';
import type { Checkpoint, SavedChunk } from './checkpoint.js';
import { dispatch } from './dispatch.js';
import { ChunkPicker } from './picker.js';
import { trialsIn } from './counts.js';
import { UserError } from '../errors.js';
import { Slot, chunksOf, makeSlots } from './slots.js';
import { ChunkWorker, batchPayload, type ChunkTask, type PairedCounts, type PairedTask } from './worker.js';

export interface RunOptions {
  /** Worker threads; 0 runs every chunk in this thread. */
  threads: number;
  /** Run only the chunks k with k % count === index (shards keep all their chunks). */
  shard: { index: number; count: number } | null;
  checkpoint: Checkpoint | null;
  /** Aborting stops dispatching; finished chunks are saved; the run then throws Interrupted. */
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Called after each finished chunk (tests use it to simulate an interrupt). */
  onChunk?: (done: number) => void;
  /** Engines from buildEngines (built by the caller to validate first); built here otherwise. */
  engines?: CellEngine[];
}

export interface Progress {
  slotsDone: number;
  slots: number;
  trials: number;
  elapsedMs: number;
  chunksDone: number;
  chunksLeft: number;
}

export class Interrupted extends Error {
  constructor(readonly chunksSaved: number) {
    super('interrupted');
  }
}

/** A chunk failed in a worker: names the experiment. */
export class ChunkFailed extends Error {}

export interface RunResult {
  slots: Slot[];
  /** Shards: every owned chunk's counts, by slot (for jwsim merge). */
  chunks: Map<number, Map<number, number[]>> | null;
}

export function workerFile(): string {
  const file = join(projectRoot(), 'dist', 'workers', 'chunk.js');
  if (!existsSync(file)) throw new Error(`worker not built: ${file} is missing; run "npm run build"`);
  return file;
}

export async function runBatch(batch: Batch, opts: RunOptions): Promise<RunResult> {
  // Start the workers first: they load while this thread validates every engagement. No more
  // of them than the batch has chunks: an idle worker costs memory and start-up for nothing.
  const execute = makeExecutor(batch, Math.min(opts.threads, Math.max(1, chunkCount(batch))));
  let slots: Slot[];
  try {
    const engines = opts.engines ?? buildEngines(batch);
    let next = 0;
    slots = makeSlots(batch, () => engines[next++]);
  } catch (e) {
    await execute.close();
    throw e;
  }
  const shard = opts.shard;
  const owned = (k: number) => !shard || k % shard.count === shard.index;
  const keepAll = shard !== null;
  const chunks = keepAll ? new Map<number, Map<number, number[]>>() : null;
  const record = (slot: Slot, k: number, counts: number[]) => {
    if (chunks) {
      if (!chunks.has(slot.index)) chunks.set(slot.index, new Map());
      chunks.get(slot.index)!.set(k, counts);
    }
  };
  // Resume: replay saved chunks first; the picker skips them.
  const savedChunks = new Map<number, Set<number>>();
  if (opts.checkpoint) {
    try {
      replaySaved(opts.checkpoint, slots, owned, (slot, saved) => {
        record(slot, saved.chunk, saved.counts);
        if (!keepAll) slot.offer(saved.chunk, saved.counts);
        if (!savedChunks.has(slot.index)) savedChunks.set(slot.index, new Set());
        savedChunks.get(slot.index)!.add(saved.chunk);
      });
    } catch (e) {
      await execute.close();
      throw e;
    }
  }
  const started = Date.now();
  const ahead = Math.max(1, opts.threads * 3); // chunks a slot may run past its committed prefix
  let chunksDone = 0;
  let failure: Error | null = null;
  const picker = new ChunkPicker(slots, execute.lanes, keepAll ? Infinity : ahead, owned, savedChunks, keepAll);
  try {
    await dispatch({
      lanes: execute.lanes,
      perLane: PER_LANE,
      next: (lane) => picker.pick(lane),
      stop: () => failure !== null || opts.signal?.aborted === true,
      run: (task, lane) =>
        execute(task, lane).then(
          (counts) => {
            const slot = slots[task.slot];
            opts.checkpoint?.append(task.slot, task.chunk, counts);
            record(slot, task.chunk, counts);
            if (!keepAll) slot.offer(task.chunk, counts);
            chunksDone++;
            opts.onChunk?.(chunksDone);
          },
          (err: Error) => {
            const slot = slots[task.slot];
            failure ??= new ChunkFailed(`experiment ${slot.cell.id} (variant ${batch.variants[slot.variant].name}) failed: ${err.message}`);
          },
        ),
      settled: opts.onProgress ? () => opts.onProgress!(progress(slots, started, chunksDone, keepAll)) : undefined,
    });
  } finally {
    await execute.close();
    opts.checkpoint?.flush();
  }
  if (failure) throw failure;
  if (opts.signal?.aborted && (keepAll ? chunksLeft(slots, picker.next, owned) > 0 : slots.some((s) => !s.done))) throw new Interrupted(chunksDone);
  if (keepAll) for (const s of slots) s.done = true;
  return { slots, chunks };
}

/** Chunks a batch runs at most (exact engagements run none), over all its variants. */
function chunkCount(batch: Batch): number {
  let n = 0;
  for (const c of batch.cells) if (!c.exact) n += chunksOf(c);
  return n * batch.variants.length;
}

/** Hands a checkpoint's chunks of this shard to `use`, each checked against the engagement it claims. */
function replaySaved(checkpoint: Checkpoint, slots: Slot[], owned: (k: number) => boolean, use: (slot: Slot, saved: SavedChunk) => void): void {
  for (const saved of checkpoint.load()) {
    const slot = slots[saved.slot];
    const bad = (why: string) => new UserError(`--resume: ${checkpoint.file}: line ${saved.line}: ${why}; the checkpoint does not fit this batch: start a new --out folder`);
    if (!slot) throw bad(`slot ${saved.slot} is not an engagement of this batch (it has ${slots.length})`);
    if (saved.chunk < 0 || saved.chunk >= slot.maxChunks) throw bad(`chunk ${saved.chunk} is outside engagement ${slot.cell.id}'s chunks 0..${slot.maxChunks - 1}`);
    if (saved.counts.length !== slot.counts.length || trialsIn(slot.cell, saved.counts) !== slot.chunkTrials(saved.chunk)) throw bad(`the counts are not those of chunk ${saved.chunk} of ${slot.cell.id} (${slot.chunkTrials(saved.chunk)} trials)`);
    if (owned(saved.chunk)) use(slot, saved);
  }
}

function chunksLeft(slots: Slot[], next: Map<number, number>, owned: (k: number) => boolean): number {
  let left = 0;
  for (const s of slots) for (let k = next.get(s.index) ?? 0; k < s.maxChunks; k++) if (owned(k)) left++;
  return left;
}

function progress(slots: Slot[], started: number, chunksDone: number, keepAll: boolean): Progress {
  let trials = 0;
  let left = 0;
  for (const s of slots) {
    trials += s.engine.exact ? 0 : s.trials();
    if (!s.done) left += s.maxChunks - s.committed;
  }
  return { slotsDone: keepAll ? 0 : slots.filter((s) => s.done).length, slots: slots.length, trials, elapsedMs: Date.now() - started, chunksDone, chunksLeft: left };
}

/** Tasks in flight per worker: the next chunk already waits in the worker when one ends. */
export const PER_LANE = 2;

export interface Executor {
  (task: ChunkTask, lane?: number): Promise<number[]>;
  (task: PairedTask, lane?: number): Promise<PairedCounts>;
  /** Workers (1 in this thread); the tasks given one lane all run on its worker, in turn. */
  readonly lanes: number;
  close(): Promise<void>;
}

/** Runs chunks of `batch`: on a pool of `threads` workers, or in this thread when 0. */
export function makeExecutor(batch: Batch, threads: number): Executor {
  return threads === 0 ? inProcess(batch) : pooled(batch, threads);
}

function inProcess(batch: Batch): Executor {
  const worker = new ChunkWorker(batchPayload(batch));
  const run = async (task: ChunkTask | PairedTask) => {
    await new Promise((r) => setImmediate(r)); // let signals and progress through
    return 'paired' in task ? worker.runPaired(task) : worker.run(task);
  };
  return Object.assign(run, { lanes: 1, close: async () => {} }) as Executor;
}

function pooled(batch: Batch, threads: number): Executor {
  // One single-thread pool per worker, so the caller chooses the worker of each task (see
  // the affinity in runBatch); each takes PER_LANE tasks at a time.
  const file = workerFile();
  const payload = batchPayload(batch);
  const pools = Array.from({ length: threads }, () => new Piscina({ filename: file, minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: PER_LANE, idleTimeout: 60_000, workerData: payload }));
  const run = (task: ChunkTask | PairedTask, lane = 0) => pools[lane % threads].run(task);
  return Object.assign(run, { lanes: threads, close: async () => void (await Promise.all(pools.map((p) => p.destroy()))) }) as Executor;
}
