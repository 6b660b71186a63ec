// A deliberately naive, independent implementation of the reference algorithm of
// shared/rules/dice.md §5, used only to cross-check the kernel. It works on plain arrays of
// dice, enumerates every keep-subset of the base dice by index, and implements MAX_LEXI
// straight from its definition (dice.md §2.2, AMB-07). It imports nothing from src/.

export type Mag = 1 | 2 | 3; // D, T, Q
/** value -> Magnitude; at most one Result per face; empty map = [N]. */
export type NaiveOutcome = Map<number, Mag>;
export type NegativeMacroMode = 'LEVEL' | 'COUNT';

const LETTER: Record<Mag, string> = { 1: 'D', 2: 'T', 3: 'Q' };

/** level_of(count): D for 2, T for 3, Q for 4 or more; none below 2. */
export function levelOf(count: number): Mag | null {
  if (count < 2) return null;
  return (Math.min(count, 4) - 1) as Mag;
}

function countFaces(faces: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const f of faces) counts.set(f, (counts.get(f) ?? 0) + 1);
  return counts;
}

function formResultsFromCounts(counts: Map<number, number>): NaiveOutcome {
  const out: NaiveOutcome = new Map();
  for (const [v, c] of counts) {
    const level = levelOf(c);
    if (level !== null) out.set(v, level);
  }
  return out;
}

/** form_results(kept_base_faces). */
export function formResults(kept: readonly number[]): NaiveOutcome {
  return formResultsFromCounts(countFaces(kept));
}

/** apply_macro(out, macro_faces, sign, mode, kept), literally as in §5. */
export function applyMacro(out: NaiveOutcome, macroFaces: readonly number[], sign: number, mode: NegativeMacroMode, kept: readonly number[]): NaiveOutcome {
  if (sign < 0 && mode === 'COUNT') {
    const counts = countFaces(kept);
    for (const u of macroFaces) {
      const c = counts.get(u) ?? 0;
      if (c >= 2) counts.set(u, c - 1);
    }
    return formResultsFromCounts(counts);
  }
  const res: NaiveOutcome = new Map(out);
  if (sign === 0) return res;
  for (const u of macroFaces) {
    const m = res.get(u);
    if (m === undefined) continue;
    if (sign > 0) {
      res.set(u, Math.min(m + 1, 3) as Mag);
    } else {
      const down = m - 1;
      if (down === 0) res.delete(u);
      else res.set(u, down as Mag);
    }
  }
  return res;
}

/** Every subset of size k of the indices 0..n-1, as index arrays. */
export function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const cur: number[] = [];
  const walk = (start: number): void => {
    if (cur.length === k) {
      out.push(cur.slice());
      return;
    }
    for (let i = start; i <= n - (k - cur.length); i++) {
      cur.push(i);
      walk(i + 1);
      cur.pop();
    }
  };
  walk(0);
  return out;
}

function compareLexi(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length; // a proper prefix is smaller
}

/**
 * MAX_LEXI comparison, from dice.md AMB-07: first the tuple of Magnitudes sorted descending
 * (lexicographically, so [T] > [D,D] > [D] > [N]); ties broken by the list of
 * (Magnitude, Value) pairs sorted descending (prefer higher Values). > 0 when a is preferred.
 */
export function compareMaxLexi(a: NaiveOutcome, b: NaiveOutcome): number {
  const magsA = [...a.values()].sort((x, y) => y - x);
  const magsB = [...b.values()].sort((x, y) => y - x);
  const byMags = compareLexi(magsA, magsB);
  if (byMags !== 0) return byMags;
  const pairs = (o: NaiveOutcome) => [...o.entries()].map(([v, m]) => [m, v] as const).sort((p, q) => q[0] - p[0] || q[1] - p[1]);
  const pa = pairs(a);
  const pb = pairs(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareLexi(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/**
 * roll_once(X, Y, M) given the dice: `base` holds all X+Y base dice, `macro` the |M| Macro
 * dice, `sign` the sign of M. Every keep-subset of X base dice is a candidate; the result
 * is the MAX_LEXI-greatest candidate after Macro (discard chosen with Macro visible).
 */
export function naiveRollOnce(keep: number, base: readonly number[], macro: readonly number[], sign: number, mode: NegativeMacroMode = 'LEVEL'): NaiveOutcome {
  if (keep > base.length) throw new RangeError('cannot keep more dice than were rolled');
  let best: NaiveOutcome | null = null;
  for (const idx of combinations(base.length, keep)) {
    const kept = idx.map((i) => base[i]);
    const cand = applyMacro(formResults(kept), macro, sign, mode, kept);
    if (best === null || compareMaxLexi(cand, best) > 0) best = cand;
  }
  return best ?? new Map();
}

/** Canonical name (dice.md AMB-01): "[N]", or Results by ascending Value, e.g. "[D2,T3]". */
export function naiveName(out: NaiveOutcome): string {
  if (out.size === 0) return '[N]';
  const values = [...out.keys()].sort((a, b) => a - b);
  return '[' + values.map((v) => `${LETTER[out.get(v)!]}${v}`).join(',') + ']';
}
