// Exact outcome distributions of a pool, without sampling.
//
// A roll of n dice is summarised by its face counts (a composition of n into six parts),
// whose probability is the multinomial n! / (c1! ... c6!) / 6^n. There are C(n+5, 5) of them
// (6188 for 12 dice) instead of 6^n rolls. Base and Macro dice are independent, so the
// exact distribution is a double sum over base and Macro compositions. Compositions whose
// Flex choices lead to the same candidate set keys are grouped first, which keeps the
// largest pools well under a second.
import type { DiceConfig } from './config.js';
import { FLEX_BEFORE_MACRO } from './config.js';
import { FlexChooser } from './flex.js';
import { OUTCOME_CODES } from './outcome.js';
import type { Pool } from './pool.js';
import { applyMacro, codeOfKey, keyOfCounts, setCap } from './sets.js';

export type Distribution = Float64Array; // probability per outcome code, length OUTCOME_CODES

interface Compositions {
  readonly count: number;
  /** counts of composition i at faces[i * 7 + face], face 1..6 */
  readonly faces: Uint8Array;
  readonly weight: Float64Array;
}

const compositionCache = new Map<number, Compositions>();

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}

/** Every way n dice can show faces, with its probability. */
export function compositions(n: number): Compositions {
  const cached = compositionCache.get(n);
  if (cached) return cached;
  const list: number[][] = [];
  const cur = [0, 0, 0, 0, 0, 0, 0];
  const walk = (face: number, left: number): void => {
    if (face === 6) {
      cur[6] = left;
      list.push(cur.slice());
      return;
    }
    for (let c = left; c >= 0; c--) {
      cur[face] = c;
      walk(face + 1, left - c);
    }
  };
  walk(1, n);
  const faces = new Uint8Array(list.length * 7);
  const weight = new Float64Array(list.length);
  const total = Math.pow(6, n);
  const nf = factorial(n);
  list.forEach((c, i) => {
    let denom = 1;
    for (let face = 1; face <= 6; face++) {
      faces[i * 7 + face] = c[face];
      denom *= factorial(c[face]);
    }
    weight[i] = nf / denom / total;
  });
  const result = { count: list.length, faces, weight };
  compositionCache.set(n, result);
  return result;
}

/** Distribution of one roll of the pool, before rerolls. */
export function singleRollDistribution(cfg: DiceConfig, pool: Pool): Distribution {
  const dist = new Float64Array(OUTCOME_CODES);
  const macro = pool.macro;
  const sign = macro > 0 ? 1 : macro < 0 ? -1 : 0;
  const cap = setCap(macro, cfg.negativeMacroMode);
  const base = compositions(pool.base + pool.flex);
  const macroComps = compositions(Math.abs(macro));
  const chooser = new FlexChooser();

  // Group base compositions by what the owner can still choose between once Macro is seen.
  const single = new Map<number, number>(); // key -> probability
  const multi = new Map<string, { keys: number[]; p: number }>();
  const counts = new Uint8Array(7);
  for (let i = 0; i < base.count; i++) {
    for (let face = 1; face <= 6; face++) counts[face] = base.faces[i * 7 + face];
    const p = base.weight[i];
    let key: number;
    if (pool.flex === 0) {
      key = keyOfCounts(counts, cap);
    } else {
      const n = chooser.enumerate(counts, pool.base, cap);
      if (n > 1 && sign !== 0 && cfg.flexTiming !== FLEX_BEFORE_MACRO) {
        const keys = Array.from(chooser.keys.subarray(0, n)).sort((a, b) => a - b);
        const sig = keys.join(',');
        const g = multi.get(sig);
        if (g) g.p += p;
        else multi.set(sig, { keys, p });
        continue;
      }
      key = n === 1 ? chooser.keys[0] : chooser.bestBeforeMacro(cfg.flexRank, n);
    }
    single.set(key, (single.get(key) ?? 0) + p);
  }

  if (sign === 0) {
    for (const [key, p] of single) dist[codeOfKey(key)] += p;
    return dist;
  }
  const mode = cfg.negativeMacroMode;
  const rank = cfg.flexRank;
  const mc = new Uint8Array(7);
  for (let j = 0; j < macroComps.count; j++) {
    for (let face = 1; face <= 6; face++) mc[face] = macroComps.faces[j * 7 + face];
    const pm = macroComps.weight[j];
    for (const [key, p] of single) dist[applyMacro(key, mc, sign, mode)] += p * pm;
    for (const g of multi.values()) {
      let bestCode = 0;
      let bestRank = -1;
      for (const key of g.keys) {
        const code = applyMacro(key, mc, sign, mode);
        if (rank[code] > bestRank) {
          bestRank = rank[code];
          bestCode = code;
        }
      }
      dist[bestCode] += g.p * pm;
    }
  }
  return dist;
}

/**
 * Rerolls (dice.md AMB-15/16): each time, an outcome marked in rerollWhen is replaced by a
 * fresh roll of the same pool.
 */
export function withRerolls(cfg: DiceConfig, single: Distribution, rerolls: number): Distribution {
  let dist = single;
  for (let r = 0; r < rerolls; r++) {
    let pReroll = 0;
    for (let c = 0; c < OUTCOME_CODES; c++) if (cfg.rerollWhen[c]) pReroll += dist[c];
    const next = new Float64Array(OUTCOME_CODES);
    for (let c = 0; c < OUTCOME_CODES; c++) next[c] = (cfg.rerollWhen[c] ? 0 : dist[c]) + pReroll * single[c];
    dist = next;
  }
  return dist;
}

/** Exact distribution of an Unopposed Roll of the pool, rerolls included. */
export function exactDistribution(cfg: DiceConfig, pool: Pool): Distribution {
  return withRerolls(cfg, singleRollDistribution(cfg, pool), pool.rerolls);
}

/** Distribution after mapping every outcome through a table (e.g. ESCALATE_ALL). */
export function mapDistribution(dist: Distribution, table: ArrayLike<number>): Distribution {
  const out = new Float64Array(OUTCOME_CODES);
  for (let c = 0; c < OUTCOME_CODES; c++) if (dist[c] !== 0) out[table[c]] += dist[c];
  return out;
}

/** Distribution of f(a, b) for independent a ~ da, b ~ db. */
export function combineDistributions(da: Distribution, db: Distribution, f: (a: number, b: number) => number): Distribution {
  const out = new Float64Array(OUTCOME_CODES);
  const bs: number[] = [];
  for (let b = 0; b < OUTCOME_CODES; b++) if (db[b] !== 0) bs.push(b);
  for (let a = 0; a < OUTCOME_CODES; a++) {
    if (da[a] === 0) continue;
    for (const b of bs) out[f(a, b)] += da[a] * db[b];
  }
  return out;
}
