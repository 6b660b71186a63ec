// A RandomStream that walks through every sequence of die faces in order, like an
// odometer: used to enumerate all 6^n rolls of a pool by brute force.
import type { RandomStream } from '../../src/rng/stream.js';

export class OdometerDice implements RandomStream {
  private readonly faces: number[];
  private pos = 0;
  constructor(readonly dice: number) {
    this.faces = new Array(dice).fill(1);
  }
  get sequences(): number {
    return Math.pow(6, this.dice);
  }
  d6(): number {
    if (this.pos >= this.dice) throw new Error('odometer: more dice rolled than the pool has');
    return this.faces[this.pos++];
  }
  next(): number {
    return (this.d6() - 0.5) / 6;
  }
  /** Checks that exactly `dice` faces were read, then moves to the next sequence. */
  advance(): void {
    if (this.pos !== this.dice) throw new Error(`odometer: ${this.pos} of ${this.dice} dice rolled`);
    this.pos = 0;
    for (let i = this.dice - 1; i >= 0; i--) {
      if (this.faces[i] < 6) {
        this.faces[i]++;
        return;
      }
      this.faces[i] = 1;
    }
  }
}

/** Every pool of at most `total` rolled dice: base + flex + |macro| <= total. */
export function smallPools(total: number): Array<{ base: number; flex: number; macro: number }> {
  const out: Array<{ base: number; flex: number; macro: number }> = [];
  for (let base = 0; base <= total; base++)
    for (let flex = 0; base + flex <= total; flex++)
      for (let m = 0; base + flex + m <= total; m++) {
        out.push({ base, flex, macro: m });
        if (m > 0) out.push({ base, flex, macro: -m });
      }
  return out;
}
