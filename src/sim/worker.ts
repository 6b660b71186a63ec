// What a worker thread runs: chunks of the batch it was given at start-up. The batch travels
// once, as workerData; each task names a slot and a chunk, and the answer is counts.
import type { Batch, Cell, Variant } from '../scenarios/batch.js';
import type { Roster, UnitCard } from '../units/types.js';
import { buildCellEngine, type CellEngine } from './cells.js';

export interface ChunkTask {
  slot: number;
  chunk: number;
  trials: number;
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

  run(task: ChunkTask): number[] {
    let engine = this.engines.get(task.slot);
    if (!engine) {
      const variants = this.batch.variants.length;
      const cell = this.batch.cells[Math.floor(task.slot / variants)];
      engine = buildCellEngine(cell, this.batch.variants[task.slot % variants], this.roster);
      this.engines.set(task.slot, engine);
    }
    return engine.runChunk(this.batch.seed, task.chunk, task.trials);
  }
}
