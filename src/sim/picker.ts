// Which chunk a worker runs next (runBatch). Chunks of a slot go out in index order, at most
// `ahead` past its committed prefix (so a precision target wastes little), skipping chunks
// of other shards and chunks a checkpoint already holds.
//
// Affinity: a worker keeps to one slot while that slot has chunks to give, and a worker that
// needs a new slot takes the first with the fewest workers on it. A worker warms up (V8's
// compilers, then per engagement its caches, e.g. a battle's shot entries) once per
// engagement it touches, so spreading the workers over engagements, rather than sending all
// of them through each engagement in turn, saves most of that. Which worker runs a chunk
// never changes a result: slots commit chunks by index.
import type { Slot } from './slots.js';
import type { ChunkTask } from './worker.js';

export class ChunkPicker {
  /** Next chunk to dispatch, by slot index (absent: from the committed prefix). */
  readonly next = new Map<number, number>();
  private firstOpen = 0; // slots before it have nothing left to dispatch
  private readonly laneSlot: number[];
  private readonly lanesOn: number[];

  constructor(
    private readonly slots: readonly Slot[],
    lanes: number,
    /** Chunks a slot may run ahead of its committed prefix (Infinity: no limit). */
    private readonly ahead: number,
    /** Whether this shard runs chunk k. */
    private readonly owned: (k: number) => boolean,
    /** Chunks already in the checkpoint, by slot index. */
    private readonly saved: ReadonlyMap<number, ReadonlySet<number>>,
    /** Shards keep every chunk: slots are never done early. */
    private readonly keepAll: boolean,
  ) {
    this.laneSlot = new Array<number>(lanes).fill(-1);
    this.lanesOn = new Array<number>(slots.length).fill(0);
  }

  /** The slot's next chunk to dispatch, or -1 when none may go now. */
  private chunkOf(slot: Slot): number {
    if (slot.done && !this.keepAll) return -1;
    let k = this.next.get(slot.index) ?? slot.committed;
    const ahead = slot.committed + this.ahead;
    while (k < slot.maxChunks && k < ahead && (!this.owned(k) || this.saved.get(slot.index)?.has(k))) k++;
    return k < slot.maxChunks && k < ahead ? k : -1;
  }

  private take(slot: Slot, k: number): ChunkTask {
    this.next.set(slot.index, k + 1);
    return { slot: slot.index, chunk: k, trials: slot.chunkTrials(k) };
  }

  /** The next chunk for worker `lane`, or null when none may go now. */
  pick(lane: number): ChunkTask | null {
    const own = this.laneSlot[lane];
    if (own >= 0) {
      const k = this.chunkOf(this.slots[own]);
      if (k >= 0) return this.take(this.slots[own], k);
      this.lanesOn[own]--;
      this.laneSlot[lane] = -1;
    }
    let best = -1;
    let bestK = -1;
    for (let i = this.firstOpen; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (slot.done && !this.keepAll) {
        if (i === this.firstOpen) this.firstOpen++;
        continue;
      }
      if (best >= 0 && this.lanesOn[i] >= this.lanesOn[best]) continue;
      const k = this.chunkOf(slot);
      if (k < 0) continue;
      best = i;
      bestK = k;
      if (this.lanesOn[i] === 0) break;
    }
    if (best < 0) return null;
    this.laneSlot[lane] = best;
    this.lanesOn[best]++;
    return this.take(this.slots[best], bestK);
  }
}
