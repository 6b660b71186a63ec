// O(1) sampling from an exact distribution (Walker's alias method, Vose's construction).
// One uniform draw picks a column and decides between the column's outcome and its alias,
// so an engine can draw a whole attack outcome with a single random number.
import type { RandomStream } from '../rng/stream.js';
import type { Distribution } from './exact.js';
import { OUTCOME_CODES } from './outcome.js';

export class AliasSampler {
  readonly size: number;
  private readonly threshold: Float64Array;
  private readonly primary: Uint16Array;
  private readonly alias: Uint16Array;

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
    this.threshold = new Float64Array(n);
    this.primary = Uint16Array.from(codes);
    this.alias = Uint16Array.from(codes);
    const scaled = codes.map((c) => (dist[c] / total) * n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((s, i) => (s < 1 ? small : large).push(i));
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.threshold[s] = scaled[s];
      this.alias[s] = codes[l];
      scaled[l] = scaled[l] + scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    for (const i of large) this.threshold[i] = 1;
    for (const i of small) this.threshold[i] = 1; // rounding leftovers
  }

  /** Outcome for a uniform u in [0, 1). */
  pick(u: number): number {
    const x = u * this.size;
    const i = x | 0;
    // Arithmetic select instead of a branch: the comparison is unpredictable by design,
    // and a mispredicted branch costs more than reading both columns.
    const keep = +(x - i < this.threshold[i]);
    return keep * this.primary[i] + (1 - keep) * this.alias[i];
  }

  /** Share of column i that returns the column's own outcome (the rest returns its alias). */
  columnThreshold(i: number): number {
    return this.threshold[i];
  }

  sample(rng: RandomStream): number {
    return this.pick(rng.next());
  }
}
