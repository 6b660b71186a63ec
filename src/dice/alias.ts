// O(1) sampling from an exact distribution (Walker's alias method, Vose's construction).
// One uniform draw picks a column and decides between the column's outcome and its alias,
// so an engine can draw a whole attack outcome with a single random number.
import type { RandomStream } from '../rng/stream.js';
import type { Distribution } from './exact.js';
import { OUTCOME_CODES } from './outcome.js';

/**
 * The outcome in the alias columns of `t` that start at `base`, for x = u times the number of
 * columns. Arithmetic select instead of a branch: the comparison is unpredictable by design,
 * and a mispredicted branch costs more than reading both columns. The codes are small whole
 * numbers, exact as doubles, so the sum is the code itself.
 */
function pickColumn(t: Float64Array, base: number, x: number): number {
  const i = x | 0, k = base + 3 * i;
  const keep = +(x - i < t[k]);
  return keep * t[k + 1] + (1 - keep) * t[k + 2];
}

/**
 * The outcome for a uniform u in [0, 1) of the sampler that AliasSampler.writeTo wrote into `t`
 * at `at`. A caller that holds the column count elsewhere (the number at t[at]) may pass it, so
 * the pick does not wait on that read first.
 */
export function pickWritten(t: Float64Array, at: number, u: number, columns: number = t[at]): number {
  return pickColumn(t, at + 1, u * columns);
}

export class AliasSampler {
  readonly size: number;
  /**
   * Column i at 3i: its threshold, its own outcome, its alias. One array rather than three:
   * a battle rolls each of hundreds of samplers now and then, so a roll mostly meets them out
   * of the processor's caches, and three arrays (each an object with its own store) cost
   * several loads from memory per roll where one array costs one or two.
   */
  private readonly table: Float64Array;

  constructor(dist: Distribution) {
    const codes: number[] = [];
    let total = 0;
    for (let c = 0; c < OUTCOME_CODES; c++) {
      if (dist[c] > 0) {
        codes.push(c);
        total += dist[c];
      }
    }
    const n = codes.length;
    if (n === 0) throw new RangeError('cannot sample from an empty distribution');
    this.size = n;
    const table = (this.table = new Float64Array(3 * n));
    for (let i = 0; i < n; i++) table[3 * i + 1] = table[3 * i + 2] = codes[i];
    const scaled = codes.map((c) => (dist[c] / total) * n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((s, i) => (s < 1 ? small : large).push(i));
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      table[3 * s] = scaled[s];
      table[3 * s + 2] = codes[l];
      scaled[l] = scaled[l] + scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    for (const i of large) table[3 * i] = 1;
    for (const i of small) table[3 * i] = 1; // rounding leftovers
  }

  /** Outcome for a uniform u in [0, 1). */
  pick(u: number): number {
    return pickColumn(this.table, 0, u * this.size);
  }

  /**
   * Writes the sampler into `out` from index `at`: its size, then its columns as `table` holds
   * them (threshold, own outcome, alias). pickWritten(out, at, u) gives the outcome pick(u)
   * gives. Returns the index after the last one written.
   */
  writeTo(out: Float64Array, at: number): number {
    out[at] = this.size;
    out.set(this.table, at + 1);
    return at + 1 + this.table.length;
  }

  /** Share of column i that returns the column's own outcome (the rest returns its alias). */
  columnThreshold(i: number): number {
    return this.table[3 * i];
  }

  sample(rng: RandomStream): number {
    return this.pick(rng.next());
  }
}
