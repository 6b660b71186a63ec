// What a worker thread runs: chunks of the batch it was given at start-up. The batch travels
// once, as workerData; each task names a slot and a chunk, and the answer is counts.
import type { Batch, Cell, Variant } from '../scenarios/batch.js';
import type { Roster, UnitCard } from '../units/types.js';
import { TrialStreams } from '../rng/stream.js';
import { buildCellEngine, type CellEngine } from './cells.js';

export interface ChunkTask {
  slot: number;
  chunk: number;
  trials: number;
}

/**
 * A paired chunk (jwsim compare): every variant of one cell plays the same trials, each
 * trial on its own stream (TrialStreams of (seed, cell, kind + "/trial", chunk)), so a rule
 * change perturbs only the trials where it is exercised. A battle's trial t of chunk k is
 * game k * trials + t on the cell's own pair of streams (CellEngine.battleTrial), as in runs.
 */
export interface PairedTask {
  paired: true;
  cell: number;
  chunk: number;
  trials: number;
}

export interface PairedCounts {
  /** Per variant: counts, as a chunk returns them. */
  counts: number[][];
  /** Per variant after the first: sum and sum of squares of the per-trial count differences. */
  diff: number[][];
  diffSq: number[][];
}

/** The parts of a batch a worker needs; plain data (structured-cloneable). */
export interface BatchPayload {
  seed: string;
  cells: readonly Cell[];
  variants: readonly Variant[];
  units: readonly UnitCard[];
}

export function batchPayload(batch: Batch): BatchPayload {
  return { seed: batch.seed, cells: batch.cells, variants: batch.variants, units: [...batch.roster.units.values()] };
}

export class ChunkWorker {
  private readonly roster: Roster;
  private readonly engines = new Map<number, CellEngine>();
  constructor(private readonly batch: BatchPayload) {
    this.roster = { files: [], units: new Map(batch.units.map((u) => [u.id, u])) };
  }

  private engine(slot: number): CellEngine {
    let engine = this.engines.get(slot);
    if (!engine) {
      const variants = this.batch.variants.length;
      const cell = this.batch.cells[Math.floor(slot / variants)];
      engine = buildCellEngine(cell, this.batch.variants[slot % variants], this.roster, false); // checked by buildEngines before the run
      this.engines.set(slot, engine);
    }
    return engine;
  }

  run(task: ChunkTask): number[] {
    return this.engine(task.slot).runChunk(this.batch.seed, task.chunk, task.trials);
  }

  runPaired(task: PairedTask): PairedCounts {
    const cell = this.batch.cells[task.cell];
    const variants = this.batch.variants.length;
    const engines = Array.from({ length: variants }, (_, v) => this.engine(task.cell * variants + v));
    const len = engines[0].countsLength;
    const zero = () => new Array<number>(len).fill(0);
    const counts = engines.map(zero);
    const one = engines.map(zero);
    const diff = engines.slice(1).map(zero);
    const diffSq = engines.slice(1).map(zero);
    const seed = this.batch.seed;
    const first = task.chunk * task.trials;
    const streams = cell.kind === 'battle' ? null : new TrialStreams({ seed, experiment: cell.id, purpose: `${cell.kind}/trial`, chunk: task.chunk });
    for (let t = 0; t < task.trials; t++) {
      for (let v = 0; v < variants; v++) {
        one[v].fill(0);
        if (streams) engines[v].trial(streams.at(t), one[v]);
        else engines[v].battleTrial!(seed, first + t, one[v]);
        for (let i = 0; i < len; i++) counts[v][i] += one[v][i];
      }
      for (let o = 1; o < variants; o++) {
        for (let i = 0; i < len; i++) {
          const d = one[o][i] - one[0][i];
          diff[o - 1][i] += d;
          diffSq[o - 1][i] += d * d;
        }
      }
    }
    return { counts, diff, diffSq };
  }
}
