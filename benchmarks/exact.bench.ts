// Exact-distribution benchmark: how long one pool's exact distribution takes to compute.
//
// Baseline measured in the same run: brute force, i.e. rolling every one of the 6^n die
// sequences through the kernel's own roller and counting outcomes (what "exact" would
// cost without compositions). Targets from the foundation issue: a pool of up to 5 base +
// 2 Flex dice (with Macro) well under a millisecond (we hold it to 0.5 ms) and the largest
// supported pool under a second, each timed from empty caches ("first") and again with
// the distribution remembered ("repeat", what engines see for pools they ask about again).
import { clearExactCaches, exactDistribution } from '../src/dice/exact.js';
import { OUTCOME_CODES } from '../src/dice/outcome.js';
import { MAX_MACRO_DICE, MAX_ROLLED_BASE_DICE, describePool, type Pool } from '../src/dice/pool.js';
import { Roller } from '../src/dice/roll.js';
import type { RandomStream } from '../src/rng/stream.js';
import { compileDiceConfig } from '../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS, applyRuleAssignments } from '../src/rules/interpretations.js';
import { DEFAULT_RULES_VERSION, getRulesVersion } from '../src/rules/registry.js';
import { METHOD, checksum, measure, printTable, writeSummary } from './harness.js';

const SMALL_TARGET_MS = 0.5;
const LARGE_TARGET_MS = 1000;

const version = getRulesVersion(DEFAULT_RULES_VERSION);
const configs = {
  defaults: compileDiceConfig(version, DEFAULT_INTERPRETATIONS),
  COUNT: compileDiceConfig(version, applyRuleAssignments(['negative_macro_mode=COUNT'])),
};

const pool = (base: number, flex: number, macro: number): Pool => ({ base, flex, macro, rerolls: 0 });
const small = [pool(5, 2, 0), pool(5, 2, 2), pool(5, 2, -2), pool(4, 2, -1), pool(5, 0, 2)];
const large = [pool(MAX_ROLLED_BASE_DICE, 0, MAX_MACRO_DICE), pool(MAX_ROLLED_BASE_DICE, 0, -MAX_MACRO_DICE), pool(6, 6, MAX_MACRO_DICE), pool(6, 6, -MAX_MACRO_DICE), pool(9, 3, -MAX_MACRO_DICE), pool(4, 8, -MAX_MACRO_DICE)];

/** Plays every die sequence in order, like an odometer. */
class AllSequences implements RandomStream {
  private readonly faces: number[];
  private pos = 0;
  constructor(dice: number) {
    this.faces = new Array(dice).fill(1);
  }
  d6(): number {
    return this.faces[this.pos++];
  }
  next(): number {
    return (this.d6() - 0.5) / 6;
  }
  advance(): void {
    this.pos = 0;
    for (let i = this.faces.length - 1; i >= 0 && ++this.faces[i] > 6; i--) this.faces[i] = 1;
  }
}

function bruteForceMs(cfg: typeof configs.defaults, p: Pool): number {
  const dice = p.base + p.flex + Math.abs(p.macro);
  const roller = new Roller(cfg);
  const seq = new AllSequences(dice);
  const counts = new Float64Array(OUTCOME_CODES);
  const start = performance.now();
  for (let s = Math.pow(6, dice); s > 0; s--) {
    counts[roller.rollOnce(p, seq)]++;
    seq.advance();
  }
  return performance.now() - start + 0 * counts[0];
}

function timeFirst(cfg: typeof configs.defaults, p: Pool): number {
  // Warm the code paths on other pools, then time one computation from empty caches.
  return 1000 / measure((n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) {
      clearExactCaches();
      acc += exactDistribution(cfg, p)[0];
    }
    return acc;
  }, 1);
}

function timeRepeat(cfg: typeof configs.defaults, p: Pool): number {
  return 1000 / measure((n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += exactDistribution(cfg, p)[0];
    return acc;
  }, 1);
}

const began = performance.now();
const rows: Array<Record<string, string | number | boolean | null>> = [];
for (const [name, cfg] of Object.entries(configs)) {
  for (const p of [...small, ...large]) {
    const isSmall = small.includes(p);
    const firstMs = timeFirst(cfg, p);
    const repeatMs = timeRepeat(cfg, p);
    const dice = p.base + p.flex + Math.abs(p.macro);
    // Brute force only where 6^n stays affordable (<= 8 dice: 1.7 million sequences).
    const bruteMs = dice <= 8 ? bruteForceMs(cfg, p) : null;
    const target = isSmall ? SMALL_TARGET_MS : LARGE_TARGET_MS;
    rows.push({
      options: name,
      pool: describePool(p),
      firstMs,
      repeatMs,
      bruteForceMs: bruteMs,
      speedupVsBruteForce: bruteMs === null ? null : bruteMs / firstMs,
      targetMs: target,
      pass: firstMs <= target,
    });
  }
}
const seconds = (performance.now() - began) / 1000;

const fmt = (x: number): string => (x < 10 ? x.toFixed(3) : x.toFixed(1));
printTable(
  ['options', 'pool', 'first ms', 'repeat ms', 'brute ms', 'x brute', 'target ms'],
  rows.map((r) => [
    String(r.options),
    String(r.pool),
    fmt(r.firstMs as number) + (r.pass ? ' ' : '!'),
    fmt(r.repeatMs as number),
    r.bruteForceMs === null ? '-' : fmt(r.bruteForceMs as number),
    r.speedupVsBruteForce === null ? '-' : (r.speedupVsBruteForce as number).toFixed(0),
    String(r.targetMs),
  ]),
);
const pass = rows.every((r) => r.pass);
console.log(`\ntarget 5+2 pools <= ${SMALL_TARGET_MS} ms and largest pools <= ${LARGE_TARGET_MS} ms (first computation): ${pass ? 'PASS' : 'FAIL'}`);
console.log(`(! marks a pool missing its target; ${seconds.toFixed(1)} s)`);
writeSummary('exact', {
  rules: DEFAULT_RULES_VERSION,
  method: METHOD,
  seconds,
  targets: { smallMs: SMALL_TARGET_MS, largeMs: LARGE_TARGET_MS, pass },
  pools: rows,
  checksum: checksum(),
});
