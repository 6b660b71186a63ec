// O(1) sampling from an exact distribution (Walker's alias method, Vose's construction).
// One uniform draw picks a column and decides between the column's outcome and its alias,
// so an engine can draw a whole attack outcome with a single random number.
import type { RandomStream } from '../rng/stream.js';
import { supportOf, type Distribution } from './exact.js';
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
  const x = u * columns, i = x | 0, k = at + 1 + 2 * i;
  const keep = +(x - i < t[k]);
  // The column's two outcomes packed in one number (writeTo): own * 4096 + alias.
  const both = t[k + 1], own = (both / PACK) | 0, alias = both - own * PACK;
  return keep * own + (1 - keep) * alias;
}

/** writeTo packs a column's two outcomes (each below OUTCOME_CODES) as own * PACK + alias. */
const PACK = OUTCOME_CODES;

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
    // The codes with a chance, ascending (chances are never negative, so "nonzero" is "> 0"),
    // from the distribution's kept list rather than a scan of every code.
    const support = supportOf(dist);
    const codes: number[] = [];
    let total = 0;
    for (let i = 0; i < support.length; i++) {
      const c = support[i];
      codes.push(c);
      total += dist[c];
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
   * Writes the sampler into `out` from index `at`: its size, then per column two numbers, its
   * threshold and its outcomes packed (own * 4096 + alias, whole numbers below 2^24, so exact).
   * Two numbers a column rather than three make a copy a third smaller (a battle's copies are
   * read at random, often from beyond the nearest cache). pickWritten(out, at, u) gives the
   * outcome pick(u) gives. Returns the index after the last one written.
   */
  writeTo(out: Float64Array, at: number): number {
    const t = this.table, n = this.size;
    out[at] = n;
    for (let i = 0; i < n; i++) {
      out[at + 1 + 2 * i] = t[3 * i];
      out[at + 2 + 2 * i] = t[3 * i + 1] * PACK + t[3 * i + 2];
    }
    return at + 1 + 2 * n;
  }

  /** Share of column i that returns the column's own outcome (the rest returns its alias). */
  columnThreshold(i: number): number {
    return this.table[3 * i];
  }

  sample(rng: RandomStream): number {
    return this.pick(rng.next());
  }
}
