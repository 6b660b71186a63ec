// jwsim compare: exactly zero where no changed rule is exercised, the known differences
// found, deterministic for any thread count, and stopped early once settled.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadOverlay } from '../../src/rules/overlay.js';
import { loadBatch, type Batch } from '../../src/scenarios/batch.js';
import { compareBatch } from '../../src/sim/compare.js';
import { TrialStreams, openStream } from '../../src/rng/stream.js';
import seedrandom from 'seedrandom';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const UNEXERCISED = fileURLToPath(new URL('../fixtures/overlays/unexercised.json', import.meta.url));
const base = loadBatch(SMALL);
const opts = { threads: 0, minChunks: 2, maxChunks: 4, settle: 0.02 };
const withVariants = (variants: Batch['variants']): Batch => ({ ...base, variants });

describe('compare', () => {
  it('a change no engagement exercises gives exactly zero differences, every metric', async () => {
    const batch = withVariants([
      { name: 'base', rules: '1.2.2', options: [], overlay: null },
      { name: 'rear-ram', rules: '1.2.2', options: [], overlay: loadOverlay(UNEXERCISED) },
    ]);
    const diffs = await compareBatch({ ...batch, cells: batch.cells.filter((c) => c.kind !== 'ram') }, opts);
    expect(diffs.length).toBeGreaterThan(20);
    for (const d of diffs) {
      expect(d.difference, `${d.cell.id} ${d.metric}`).toBe(0);
      expect([d.low, d.high]).toEqual([0, 0]);
      expect(d.distinguishable).toBe(false);
    }
    // Settled as "no shift" at the first look.
    for (const d of diffs.filter((x) => x.trials !== null)) expect(d.chunks).toBe(2);
  });

  it('finds the known v1.2.1 -> v1.2.2 differences, and runs identically on 0 and 2 threads', async () => {
    const batch = withVariants([
      { name: 'v1.2.1', rules: '1.2.1', options: [], overlay: null },
      { name: 'v1.2.2', rules: '1.2.2', options: [], overlay: null },
    ]);
    const a = await compareBatch(batch, opts);
    const b = await compareBatch(batch, { ...opts, threads: 2 });
    expect(b.map((d) => [d.cell.id, d.metric, d.difference, d.low, d.high, d.chunks])).toEqual(a.map((d) => [d.cell.id, d.metric, d.difference, d.low, d.high, d.chunks]));
    // Exact attack into a capital ship at short range: v1.2.2 adds a Flex die and Armor; the exact difference is non-zero.
    const md = a.find((d) => d.cell.id === 'md/cega.wyvern/jovian.alexander' && d.metric === 'mean_defense_damage')!;
    expect(md.trials).toBeNull();
    expect(md.distinguishable).toBe(Math.abs(md.difference) > 1e-12);
    expect(md.low).toBe(md.high);
    // Some sampled metric moved beyond doubt, and its paired interval is within the unpaired one.
    const moved = a.filter((d) => d.trials !== null && d.distinguishable);
    expect(moved.length).toBeGreaterThan(0);
    for (const d of a.filter((x) => x.trials !== null)) expect(d.high - d.low).toBeLessThanOrEqual(d.unpairedHigh - d.unpairedLow + 1e-9);
  });
});

describe('random streams', () => {
  it('our Alea stepping reproduces seedrandom.alea exactly', () => {
    const ours = openStream({ seed: 's', experiment: 'e', purpose: 'p', chunk: 3 });
    const theirs = seedrandom.alea('jwsim/1|s|e|p|3');
    for (let i = 0; i < 1000; i++) expect(ours.next()).toBe(theirs());
  });

  it('per-trial streams replay a trial exactly and differ between trials', () => {
    const a = new TrialStreams({ seed: 's', experiment: 'e', purpose: 'p', chunk: 0 });
    const b = new TrialStreams({ seed: 's', experiment: 'e', purpose: 'p', chunk: 0 });
    const draw = (ts: TrialStreams, t: number) => Array.from({ length: 5 }, ((s) => () => s.next())(ts.at(t)));
    expect(draw(a, 7)).toEqual(draw(b, 7));
    expect(draw(a, 7)).not.toEqual(draw(a, 8));
    // Roughly uniform: the mean of many first draws is near 1/2.
    let sum = 0;
    for (let t = 0; t < 20000; t++) sum += a.at(t).next();
    expect(Math.abs(sum / 20000 - 0.5)).toBeLessThan(0.01);
  });
});
