// Monte Carlo estimates of a pool agree with the exact distribution, and are reproducible.
import { describe, expect, it } from 'vitest';
import { MAG_COUNT, OUTCOME_CODES } from '../../src/dice/outcome.js';
import { resolvePool, type PoolRequest } from '../../src/dice/pool.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, type RulesVersionId } from '../../src/rules/registry.js';
import { DICE_CHUNK_TRIALS, countDiceOutcomes, exactDice, sampledDice } from '../../src/sim/diceQuery.js';

const CASES: Array<{ version: RulesVersionId; rules: string[]; req: PoolRequest }> = [
  { version: '1.2.2', rules: [], req: { base: 3 } },
  { version: '1.2.2', rules: [], req: { base: 5, flexGrants: [2], macro: 2 } },
  { version: '1.2.2', rules: [], req: { base: 6, flexGrants: [1], macro: -3 } },
  { version: '1.2.2', rules: ['negative_macro_mode=COUNT'], req: { base: 8, macro: -2 } },
  { version: '1.2.2', rules: ['reroll_policy=BELOW_T'], req: { base: 4, macro: 1, rerollSources: 2 } },
  { version: '1.2.1', rules: ['reroll_policy=BELOW_T'], req: { base: 4, macro: 1, rerollSources: 2 } },
  { version: '1.2.1', rules: ['flex_timing=BEFORE_MACRO'], req: { base: 3, flexGrants: [3], macro: -2 } },
];

const TRIALS = 200_000;

describe('Monte Carlo agrees with exact within 4 standard errors (fixed seed)', () => {
  for (const c of CASES) {
    it(`v${c.version} ${JSON.stringify(c.req)} ${c.rules.join(' ')}`, () => {
      const cfg = compileDiceConfig(RULES_VERSIONS[c.version], applyRuleAssignments(c.rules));
      const pool = resolvePool(cfg, c.req);
      const exactEstimate = exactDice(cfg, pool);
      const exact = exactEstimate.summary;
      const mc = sampledDice(cfg, pool, 'mc-test', TRIALS);
      for (let i = 0; i < 3; i++) {
        const p = exact.atLeast[i];
        if (p === 0 || p === 1) expect(mc.summary.atLeast[i]).toBe(p); // impossible stays impossible
        else expect(Math.abs(mc.summary.atLeast[i] - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / TRIALS));
      }
      // The expected number of Results, with its standard error from the exact variance.
      let ex2 = 0;
      for (let code = 0; code < OUTCOME_CODES; code++) {
        const n = MAG_COUNT[0][code] + MAG_COUNT[1][code] + MAG_COUNT[2][code];
        ex2 += exactEstimate.distribution[code] * n * n;
      }
      const sd = Math.sqrt(ex2 - exact.expectedResults ** 2);
      expect(Math.abs(mc.summary.expectedResults - exact.expectedResults)).toBeLessThan((4 * sd) / Math.sqrt(TRIALS) + 1e-12);
    });
  }
});

describe('reproducibility', () => {
  const cfg = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments([]));
  const pool = resolvePool(cfg, { base: 4, flexGrants: [1], macro: 1 });

  it('the same seed gives identical counts; another seed gives different ones', () => {
    const a = countDiceOutcomes(cfg, pool, '42', 100_000);
    const b = countDiceOutcomes(cfg, pool, '42', 100_000);
    const c = countDiceOutcomes(cfg, pool, '43', 100_000);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it('a longer run starts with the same chunks as a shorter one (fixed chunk size)', () => {
    const short = countDiceOutcomes(cfg, pool, '42', DICE_CHUNK_TRIALS);
    const long = countDiceOutcomes(cfg, pool, '42', 2 * DICE_CHUNK_TRIALS);
    const second = new Float64Array(OUTCOME_CODES);
    for (let c = 0; c < OUTCOME_CODES; c++) second[c] = long[c] - short[c];
    // The second chunk is a different stream: not a copy of the first.
    expect(Array.from(second)).not.toEqual(Array.from(short));
    expect(second.reduce((s, x) => s + x, 0)).toBe(DICE_CHUNK_TRIALS);
    for (let c = 0; c < OUTCOME_CODES; c++) expect(second[c]).toBeGreaterThanOrEqual(0);
  });

  it('counts add up to the number of trials', () => {
    const counts = countDiceOutcomes(cfg, pool, 'x', 70_001);
    expect(counts.reduce((s, x) => s + x, 0)).toBe(70_001);
  });
});
