// Flex dice: roll base + flex dice, keep exactly `base` of them (rules v1.2.1 /dice/base_dice).
//
// Only set sizes matter, so instead of subsets of dice we enumerate distinct set keys: for
// each face the kept set size is "none" (0 or 1 die kept), an exact size 2..cap-1, or "cap or
// more". A key is feasible when some choice of dice per face adds up to exactly `keep`.
// The owner picks the feasible key whose outcome ranks highest (dice.md AMB-04/07/11/23/24).
// One FlexChooser per caller: it owns its scratch, so choosing allocates nothing.
import { applyMacro, codeOfKey } from './sets.js';
import { FLEX_BEFORE_MACRO, type DiceConfig } from './config.js';

const MAX_KEYS = 4096;

export class FlexChooser {
  /** Feasible, undominated keys of the last enumerate() call: keys[0..count). */
  readonly keys = new Int32Array(MAX_KEYS);
  count = 0;
  private readonly scratch = new Int32Array(MAX_KEYS);
  private readonly lo = new Int32Array(8);
  private readonly hi = new Int32Array(8);
  private counts: ArrayLike<number> = [];
  private keep = 0;
  private cap = 4;

  /** Every distinct set key reachable by keeping `keep` of the dice in counts[1..6]. */
  enumerate(counts: ArrayLike<number>, keep: number, cap: number): number {
    this.counts = counts;
    this.keep = keep;
    this.cap = cap;
    this.count = 0;
    this.lo[7] = 0;
    this.hi[7] = 0;
    // Suffix bounds let the search stop early when `keep` can no longer be met.
    for (let face = 6; face >= 1; face--) {
      const n = counts[face];
      this.hi[face] = this.hi[face + 1] + n;
      this.lo[face] = 0;
    }
    this.visit(1, 0, 0, 0);
    return this.pruneDominated();
  }

  /**
   * Drop every key whose set on each face is no larger than another key's: whatever the
   * Macro dice show, it cannot end up better for its owner (every selector here prefers
   * a higher Magnitude on any face, all else equal). The survivors keep their order.
   */
  private pruneDominated(): number {
    const keys = this.keys;
    const n = this.count;
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const a = keys[i];
      let dominated = false;
      for (let j = 0; j < n && !dominated; j++) {
        if (j !== i && keys[j] !== a && covers(keys[j], a)) dominated = true;
      }
      if (!dominated) this.scratch[kept++] = a;
    }
    for (let i = 0; i < kept; i++) keys[i] = this.scratch[i];
    this.count = kept;
    return kept;
  }

  private visit(face: number, key: number, lo: number, hi: number): void {
    if (lo > this.keep || hi + this.hi[face] < this.keep) return;
    if (face === 7) {
      this.keys[this.count++] = key;
      return;
    }
    const n = this.counts[face];
    const cap = this.cap;
    const shift = 4 * (face - 1);
    // No set on this face: keep 0 or 1 of its dice.
    this.visit(face + 1, key, lo, hi + (n > 0 ? 1 : 0));
    const top = n < cap ? n : cap;
    for (let size = 2; size <= top; size++) {
      // size == cap stands for "cap or more", which may keep up to all n dice.
      this.visit(face + 1, key | (size << shift), lo + size, hi + (size === cap ? n : size));
    }
  }

  /**
   * The owner's outcome: keep `keep` of the base dice in counts[1..6], with Macro dice
   * macroCounts[1..6] of the given sign (0 = no Macro Pool).
   */
  choose(cfg: DiceConfig, counts: ArrayLike<number>, keep: number, cap: number, macroCounts: ArrayLike<number>, sign: number): number {
    const n = this.enumerate(counts, keep, cap);
    return this.best(cfg, n, macroCounts, sign);
  }

  /** Best outcome among keys[0..n) under cfg, given the Macro dice. */
  best(cfg: DiceConfig, n: number, macroCounts: ArrayLike<number>, sign: number): number {
    const rank = cfg.flexRank;
    const keys = this.keys;
    if (sign !== 0 && cfg.flexTiming === FLEX_BEFORE_MACRO) {
      return applyMacro(this.bestBeforeMacro(rank, n), macroCounts, sign, cfg.negativeMacroMode);
    }
    let bestCode = -1;
    let bestRank = -1;
    for (let i = 0; i < n; i++) {
      const code = sign === 0 ? codeOfKey(keys[i]) : applyMacro(keys[i], macroCounts, sign, cfg.negativeMacroMode);
      const r = rank[code];
      if (r > bestRank) {
        bestRank = r;
        bestCode = code;
      }
    }
    return bestCode;
  }

  /**
   * Keys chosen without seeing the Macro dice: best outcome of the kept dice alone; among
   * keys with the same outcome, the one keeping most dice in sets (insurance against
   * negative Macro in COUNT mode), then the larger key.
   */
  bestBeforeMacro(rank: Readonly<Int32Array>, n: number): number {
    const keys = this.keys;
    let bestKey = keys[0];
    let bestRank = -1;
    let bestDice = -1;
    for (let i = 0; i < n; i++) {
      const key = keys[i];
      const r = rank[codeOfKey(key)];
      const dice = diceInSets(key);
      // Full ties go to the larger key, so the choice never depends on the keys' order.
      if (r > bestRank || (r === bestRank && (dice > bestDice || (dice === bestDice && key > bestKey)))) {
        bestRank = r;
        bestDice = dice;
        bestKey = key;
      }
    }
    return bestKey;
  }
}

/** True when key `big` has a set at least as large as key `small` on every face. */
function covers(big: number, small: number): boolean {
  for (let shift = 0; shift < 24; shift += 4) {
    if (((big >>> shift) & 15) < ((small >>> shift) & 15)) return false;
  }
  return true;
}

function diceInSets(key: number): number {
  let total = 0;
  for (let k = key; k !== 0; k >>>= 4) total += k & 15;
  return total;
}

/**
 * Candidate keys of many compositions, fast: relabelling the faces of a roll relabels its
 * candidate keys the same way, so the keys are enumerated once per shape (the counts sorted
 * in descending order) and then mapped onto each composition's faces. Used by the exact
 * engine, which visits every composition of a pool.
 */
export class CandidateCache {
  /** Candidate keys of the last candidates() call, ascending: keys[0..count). */
  readonly keys = new Int32Array(MAX_KEYS);
  count = 0;
  private readonly byShape = new Map<number, Int32Array>();
  private readonly chooser = new FlexChooser();
  private readonly sorted = new Uint8Array(7);
  private readonly faceAt = new Uint8Array(7);

  candidates(counts: ArrayLike<number>, keep: number, cap: number): number {
    const sorted = this.sorted;
    const faceAt = this.faceAt;
    // Insertion sort of the faces by count, largest first.
    for (let face = 1; face <= 6; face++) {
      let i = face;
      while (i > 1 && sorted[i - 1] < counts[face]) {
        sorted[i] = sorted[i - 1];
        faceAt[i] = faceAt[i - 1];
        i--;
      }
      sorted[i] = counts[face];
      faceAt[i] = face;
    }
    let shape = keep * 16 + cap;
    for (let i = 1; i <= 6; i++) shape = shape * 13 + sorted[i];
    let shapeKeys = this.byShape.get(shape);
    if (!shapeKeys) {
      const n = this.chooser.enumerate(sorted, keep, cap);
      shapeKeys = this.chooser.keys.slice(0, n);
      this.byShape.set(shape, shapeKeys);
    }
    const n = shapeKeys.length;
    const keys = this.keys;
    for (let k = 0; k < n; k++) {
      const src = shapeKeys[k];
      let key = 0;
      for (let i = 1; i <= 6; i++) key |= ((src >>> (4 * (i - 1))) & 15) << (4 * (faceAt[i] - 1));
      // Keep the list ascending so equal candidate sets compare equal.
      let j = k;
      while (j > 0 && keys[j - 1] > key) {
        keys[j] = keys[j - 1];
        j--;
      }
      keys[j] = key;
    }
    this.count = n;
    return n;
  }
}
