// A slot is one cell under one variant: the chunks it needs, the counts committed so far
// (chunks added strictly in index order), and the stopping rule. Committing in order makes
// the result independent of which thread finished which chunk first.
import type { Batch, Cell } from '../scenarios/batch.js';
import { ENGAGEMENT_CHUNK_TRIALS } from './engagements.js';
import { BATTLE_CHUNK_TRIALS } from './battles.js';
import { addCounts, distributionOf, halfWidth, metricsOf, trialsIn, type Metric } from './counts.js';
import type { CellEngine } from './cells.js';

/** Trials per chunk of an engagement (battles: see chunkTrialsOf). */
export const CHUNK_TRIALS = ENGAGEMENT_CHUNK_TRIALS;

/** Trials per chunk of a kind: fixed, so results never depend on how work is split. */
export function chunkTrialsOf(kind: Cell['kind']): number {
  return kind === 'battle' ? BATTLE_CHUNK_TRIALS : CHUNK_TRIALS;
}

/** Chunks of a sampled engagement: its trials in chunks of chunkTrialsOf its kind (the last may be short). */
export function chunksOf(cell: Pick<Cell, 'kind' | 'trials'>): number {
  return Math.ceil(cell.trials / chunkTrialsOf(cell.kind));
}

export class Slot {
  readonly counts: number[];
  committed = 0;
  done = false;
  readonly maxChunks: number;
  /** Trials per chunk (chunkTrialsOf the cell's kind). */
  readonly chunkSize: number;
  private readonly pending = new Map<number, number[]>();

  constructor(
    readonly index: number,
    readonly cell: Cell,
    readonly variant: number,
    readonly engine: CellEngine,
  ) {
    this.counts = new Array<number>(engine.countsLength).fill(0);
    this.chunkSize = chunkTrialsOf(cell.kind);
    this.maxChunks = engine.exact ? 0 : chunksOf(cell);
    this.done = this.maxChunks === 0;
  }

  /** Trials in chunk k (the last chunk may be short). */
  chunkTrials(k: number): number {
    return Math.min(this.chunkSize, this.cell.trials - k * this.chunkSize);
  }

  trials(): number {
    return trialsIn(this.cell, this.counts);
  }

  metrics(): Metric[] {
    return this.engine.exact ?? metricsOf(this.cell.kind, this.counts, this.engine.attackerTv);
  }

  /** The distribution charts draw (see distributionOf). */
  distribution(): number[] {
    return this.engine.exactDistribution ?? distributionOf(this.cell.kind, this.counts);
  }

  /**
   * Offers chunk k's counts; commits every chunk now contiguous with the prefix, applying
   * the stopping rule after each. With `stopEarly` false (shards), all chunks are kept.
   */
  offer(k: number, counts: number[], stopEarly = true): void {
    if (this.done || k < this.committed) return;
    this.pending.set(k, counts);
    for (let next = this.pending.get(this.committed); next !== undefined && !this.done; next = this.pending.get(this.committed)) {
      this.pending.delete(this.committed);
      addCounts(this.counts, next);
      this.committed++;
      if (this.committed >= this.maxChunks || (stopEarly && this.precise())) {
        this.done = true;
        this.pending.clear();
      }
    }
  }

  /** The precision target is met (never before its minimum trials). */
  private precise(): boolean {
    const p = this.cell.precision;
    if (!p || this.trials() < p.minTrials) return false;
    const m = this.metrics().find((x) => x.name === p.metric);
    return m !== undefined && halfWidth(m) <= p.halfWidth;
  }
}

/** Slots of a batch in output order: cells in batch order, variants in batch order. */
export function makeSlots(batch: Batch, engineFor: (cell: Cell, variant: number) => CellEngine): Slot[] {
  const slots: Slot[] = [];
  for (const cell of batch.cells) {
    for (let v = 0; v < batch.variants.length; v++) slots.push(new Slot(slots.length, cell, v, engineFor(cell, v)));
  }
  return slots;
}
