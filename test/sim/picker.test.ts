// Which chunk each worker runs next (src/sim/picker.ts): chunk order within a slot, the
// run-ahead limit, shards and checkpoints, and the affinity that spreads workers over
// engagements so each warms up on as few as it can.
import { describe, expect, it } from 'vitest';
import type { Cell } from '../../src/scenarios/batch.js';
import type { CellEngine } from '../../src/sim/cells.js';
import { ChunkPicker } from '../../src/sim/picker.js';
import { CHUNK_TRIALS, Slot } from '../../src/sim/slots.js';

const engine = { placeholders: [], battleUnits: [], countsLength: 8, warnings: [], attackerTv: 0, exact: null, exactDistribution: null } as unknown as CellEngine;
const slotsOf = (...chunks: number[]): Slot[] =>
  chunks.map((n, i) => new Slot(i, { id: `e${i}`, kind: 'attack', trials: n * CHUNK_TRIALS, precision: null } as unknown as Cell, 0, engine));
const drain = (p: ChunkPicker, lane: number): string[] => {
  const out: string[] = [];
  for (let t = p.pick(lane); t; t = p.pick(lane)) out.push(`${t.slot}:${t.chunk}`);
  return out;
};

describe('ChunkPicker', () => {
  it('one worker takes every chunk, slot by slot, in chunk order', () => {
    const p = new ChunkPicker(slotsOf(2, 3), 1, Infinity, () => true, new Map(), false);
    expect(drain(p, 0)).toEqual(['0:0', '0:1', '1:0', '1:1', '1:2']);
  });

  it('workers spread over engagements, and each keeps to its own while it has chunks', () => {
    const p = new ChunkPicker(slotsOf(3, 3, 3), 2, Infinity, () => true, new Map(), false);
    // Worker 0 takes slot 0, worker 1 the slot with nobody on it (1); they keep to them.
    expect([p.pick(0), p.pick(1), p.pick(0), p.pick(1)].map((t) => `${t!.slot}:${t!.chunk}`)).toEqual(['0:0', '1:0', '0:1', '1:1']);
    // Slot 0 runs out for worker 0: it moves to slot 2, where nobody is yet.
    expect([p.pick(0), p.pick(0)].map((t) => `${t!.slot}:${t!.chunk}`)).toEqual(['0:2', '2:0']);
    // Worker 1 finishes slot 1, then joins worker 0 on slot 2 (the only slot left).
    expect(drain(p, 1)).toEqual(['1:2', '2:1', '2:2']);
    expect(p.pick(0)).toBeNull();
  });

  it('more workers than engagements: they share, fewest first', () => {
    const p = new ChunkPicker(slotsOf(4, 4), 4, Infinity, () => true, new Map(), false);
    expect([0, 1, 2, 3].map((lane) => p.pick(lane)!.slot)).toEqual([0, 1, 0, 1]);
  });

  it('stays within the run-ahead limit of the committed prefix', () => {
    const slots = slotsOf(6);
    const p = new ChunkPicker(slots, 1, 2, () => true, new Map(), false);
    expect(drain(p, 0)).toEqual(['0:0', '0:1']);
    slots[0].offer(0, new Array<number>(8).fill(0));
    expect(drain(p, 0)).toEqual(['0:2']);
  });

  it('skips chunks of other shards and chunks the checkpoint holds', () => {
    const p = new ChunkPicker(slotsOf(6), 1, Infinity, (k) => k % 2 === 1, new Map([[0, new Set([3])]]), true);
    expect(drain(p, 0)).toEqual(['0:1', '0:5']);
  });
});
