// Exact outcome distributions of a pool, without sampling.
//
// A roll of n dice is summarised by its face counts (a composition of n into six parts),
// whose probability is the multinomial n! / (c1! ... c6!) / 6^n. There are C(n+5, 5) of them
// (6188 for 12 dice) instead of 6^n rolls. Base and Macro dice are independent, so the
// exact distribution is a double sum over base and Macro compositions. Flex choices are
// reduced to the few undominated set keys (src/dice/flex.ts), compositions leaving the
// same keys are grouped, and Macro compositions are seen only through the faces that hold
// a set; together these keep the largest pools well under a second.
import type { DiceConfig } from './config.js';
import { FLEX_BEFORE_MACRO } from './config.js';
import { CandidateCache, FlexChooser } from './flex.js';
import { OUTCOME_CODES } from './outcome.js';
import { diminishBudget, diminishBy, resolveOpposed, type PostEffect } from './opposed.js';
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

  const { groupKeys, groupP } = flexGroups(cfg, pool.base, pool.flex, cap, sign === 0 || cfg.flexTiming === FLEX_BEFORE_MACRO);
  const mode = cfg.negativeMacroMode;
  const rank = cfg.flexRank;
  for (let g = 0; g < groupP.length; g++) {
    const keys = groupKeys[g];
    const p = groupP[g];
    if (sign === 0) {
      dist[codeOfKey(keys[0])] += p;
      continue;
    }
    // Only Macro dice showing a face with a set can matter.
    let mask = 0;
    for (const key of keys) mask |= supportMask(key);
    const macroRolls = macroMarginal(mask, Math.abs(macro));
    for (let j = 0; j < macroRolls.count; j++) {
      const mc = macroRolls.faces;
      const at = j * 7;
      const pm = p * macroRolls.weight[j];
      if (keys.length === 1) {
        dist[applyMacro(keys[0], mc, sign, mode, at)] += pm;
        continue;
      }
      let bestCode = 0;
      let bestRank = -1;
      for (const key of keys) {
        const code = applyMacro(key, mc, sign, mode, at);
        if (rank[code] > bestRank) {
          bestRank = rank[code];
          bestCode = code;
        }
      }
      dist[bestCode] += pm;
    }
  }
  return dist;
}

interface FlexGroups {
  /** Candidate set keys of each group (one key when nothing is left to choose). */
  readonly groupKeys: readonly (readonly number[])[];
  readonly groupP: readonly number[];
}

const chooser = new FlexChooser();
let candidateCache = new CandidateCache();
let groupCache = new WeakMap<Readonly<Int32Array>, Map<string, FlexGroups>>();

/**
 * Base-dice compositions grouped by the candidate keys their Flex choice leaves. With
 * `decideNow` (no Macro dice, or the discard chosen before seeing them) each composition
 * is reduced to the owner's one choice. Cached per selector, since engines ask for the
 * same pools with many Macro values.
 */
function flexGroups(cfg: DiceConfig, keep: number, flex: number, cap: number, decideNow: boolean): FlexGroups {
  let byRank = groupCache.get(cfg.flexRank);
  if (!byRank) groupCache.set(cfg.flexRank, (byRank = new Map()));
  const id = `${keep}/${flex}/${cap}/${decideNow || flex === 0}`;
  const cached = byRank.get(id);
  if (cached) return cached;
  const base = compositions(keep + flex);
  const groups = new Map<number | string, number>(); // signature -> group index
  const groupKeys: number[][] = [];
  const groupP: number[] = [];
  const counts = new Uint8Array(7);
  for (let i = 0; i < base.count; i++) {
    for (let face = 1; face <= 6; face++) counts[face] = base.faces[i * 7 + face];
    let n = 1;
    let sig: number | string;
    if (flex === 0) {
      sig = keyOfCounts(counts, cap);
    } else {
      n = candidateCache.candidates(counts, keep, cap);
      const k = candidateCache.keys;
      if (n > 1 && decideNow) {
        chooser.keys.set(k.subarray(0, n));
        sig = chooser.bestBeforeMacro(cfg.flexRank, n);
        n = 1;
      } else {
        // Keys are under 2^24, so two of them fit exactly in one number; more go into a string.
        sig = n === 1 ? k[0] : n === 2 ? k[0] * 0x1000000 + k[1] + 2 ** 50 : k.subarray(0, n).join(',');
      }
    }
    let g = groups.get(sig);
    if (g === undefined) {
      g = groupP.length;
      groups.set(sig, g);
      groupKeys.push(n === 1 ? [sig as number] : Array.from(candidateCache.keys.subarray(0, n)));
      groupP.push(0);
    }
    groupP[g] += base.weight[i];
  }
  const result = { groupKeys, groupP };
  byRank.set(id, result);
  return result;
}

/** Forget cached groupings and remembered distributions (for benchmarks that time a first computation). */
export function clearExactCaches(): void {
  memo = new WeakMap();
  groupCache = new WeakMap();
  candidateCache = new CandidateCache();
  marginalCache.clear();
}

/** Bit (face - 1) set for every face holding a set in the key. */
function supportMask(key: number): number {
  let mask = 0;
  for (let face = 1; face <= 6; face++) if ((key >>> (4 * (face - 1))) & 15) mask |= 1 << (face - 1);
  return mask;
}

const marginalCache = new Map<number, Compositions>();

/**
 * The Macro roll seen only through the faces in `mask`: dice on the other faces change
 * nothing, so they are lumped into one bucket. Each entry is a count per face in the mask
 * with its multinomial probability, far fewer entries than all compositions.
 */
function macroMarginal(mask: number, dice: number): Compositions {
  const id = mask * 16 + dice;
  const cached = marginalCache.get(id);
  if (cached) return cached;
  const faces: number[] = [];
  for (let face = 1; face <= 6; face++) if (mask & (1 << (face - 1))) faces.push(face);
  const pOther = (6 - faces.length) / 6;
  const rows: number[] = [];
  const weights: number[] = [];
  const cur = [0, 0, 0, 0, 0, 0, 0];
  const walk = (i: number, left: number, w: number): void => {
    if (i === faces.length) {
      // The remaining dice all fall on faces outside the mask.
      rows.push(...cur);
      weights.push((w * Math.pow(pOther, left)) / factorial(left));
      return;
    }
    for (let c = 0; c <= left; c++) {
      cur[faces[i]] = c;
      walk(i + 1, left - c, (w * Math.pow(1 / 6, c)) / factorial(c));
    }
    cur[faces[i]] = 0;
  };
  walk(0, dice, factorial(dice));
  const result: Compositions = { count: weights.length, faces: Uint8Array.from(rows), weight: Float64Array.from(weights) };
  marginalCache.set(id, result);
  return result;
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

// Distributions are pure functions of (dice configuration, pools), and a run asks for the same
// few hundred pools over and over (a battle's attack plans differ in target and aspect far more
// often than in the dice they roll), so they are remembered per configuration. Callers only
// read them. The memo is bounded: past MEMO_LIMIT entries it starts afresh.
const MEMO_LIMIT = 50_000;
let memo = new WeakMap<DiceConfig, { unopposed: Map<number, Distribution>; opposed: Map<number, Map<number, Distribution>>; size: number }>();

function memoOf(cfg: DiceConfig) {
  let m = memo.get(cfg);
  if (!m || m.size > MEMO_LIMIT) {
    m = { unopposed: new Map(), opposed: new Map(), size: 0 };
    memo.set(cfg, m);
  }
  return m;
}

/** A number naming the pool (-1 when a field is outside the ranges the key can hold). */
function poolKey(pool: Pool): number {
  const { base, flex, macro, rerolls } = pool;
  if (!(base >= 0 && base < 1024 && flex >= 0 && flex < 1024 && macro > -512 && macro < 512 && rerolls >= 0 && rerolls < 64)) return -1;
  if (!Number.isInteger(base + flex + macro + rerolls)) return -1;
  return ((base * 1024 + flex) * 1024 + macro + 512) * 64 + rerolls;
}

/** Exact distribution of an Unopposed Roll of the pool, rerolls included. */
export function exactDistribution(cfg: DiceConfig, pool: Pool): Distribution {
  const key = poolKey(pool);
  if (key < 0) return withRerolls(cfg, singleRollDistribution(cfg, pool), pool.rerolls);
  const m = memoOf(cfg);
  let d = m.unopposed.get(key);
  if (!d) {
    d = withRerolls(cfg, singleRollDistribution(cfg, pool), pool.rerolls);
    m.unopposed.set(key, d);
    m.size++;
  }
  return d;
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

/**
 * combineDistributions(da, db, (p, s) => resolveOpposed(cfg, p, null, s)), with the same sums
 * in the same order, so bit for bit the same. The Secondary's outcome enters only through its
 * Diminish budget, and a roll has few distinct budgets, so each Primary outcome is diminished
 * once per distinct budget rather than once per Secondary outcome (a new opposed pair of
 * pools met while a battle plans its shots walks every pair of nonzero outcomes).
 */
function diminishedDistribution(cfg: DiceConfig, da: Distribution, db: Distribution): Distribution {
  const out = new Float64Array(OUTCOME_CODES);
  const sa = supportOf(da), sb = supportOf(db), n = sb.length;
  const pb = new Float64Array(n);
  const slot = new Int32Array(n);
  const budgets: number[] = [];
  for (let j = 0; j < n; j++) {
    const b = sb[j];
    const k = diminishBudget(cfg, b);
    let i = budgets.indexOf(k);
    if (i < 0) budgets.push(k), (i = budgets.length - 1);
    pb[j] = db[b];
    slot[j] = i;
  }
  const to = new Int32Array(budgets.length);
  for (let x = 0; x < sa.length; x++) {
    const a = sa[x], pa = da[a];
    for (let i = 0; i < budgets.length; i++) to[i] = diminishBy(cfg, a, budgets[i]);
    for (let j = 0; j < n; j++) out[to[slot[j]]] += pa * pb[j];
  }
  return out;
}

// The outcome codes of each distribution met with a nonzero chance. A distribution is never
// changed once made (the memo hands the same object to every caller), so its list holds for
// good. Code that walks a distribution once per use (a new opposed pair, the expected damage
// per target type) then visits a few hundred codes, not all 4,096: such code runs seldom,
// often before the engine has optimised it, where each step of a scan is slow.
const supports = new WeakMap<Distribution, Int32Array>();

/** The codes with a nonzero chance in `dist`, ascending. */
export function supportOf(dist: Distribution): Int32Array {
  let s = supports.get(dist);
  if (s === undefined) {
    let n = 0;
    for (let c = 0; c < OUTCOME_CODES; c++) if (dist[c] !== 0) n++;
    s = new Int32Array(n);
    n = 0;
    for (let c = 0; c < OUTCOME_CODES; c++) if (dist[c] !== 0) s[n++] = c;
    supports.set(dist, s);
  }
  return s;
}

/**
 * Exact distribution of the Primary's final outcome in an Opposed Roll (v1.2.2 /dice/rolls):
 * two independent Unopposed Rolls, the Primary's own effect, then the Secondary's Diminishes.
 */
export function opposedDistribution(cfg: DiceConfig, primary: Pool, primaryEffect: PostEffect, secondary: Pool): Distribution {
  const compute = () =>
    primaryEffect === null
      ? diminishedDistribution(cfg, exactDistribution(cfg, primary), exactDistribution(cfg, secondary))
      : combineDistributions(exactDistribution(cfg, primary), exactDistribution(cfg, secondary), (p, s) => resolveOpposed(cfg, p, primaryEffect, s));
  const kp = poolKey(primary), ks = poolKey(secondary);
  if (primaryEffect !== null || kp < 0 || ks < 0) return compute();
  const m = memoOf(cfg);
  let row = m.opposed.get(kp);
  if (!row) m.opposed.set(kp, (row = new Map()));
  let d = row.get(ks);
  if (!d) {
    d = compute();
    row.set(ks, d);
    m.size++;
  }
  return d;
}
