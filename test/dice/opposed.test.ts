// Opposed Rolls: the exact distribution agrees with rolling both pools many times.
import { describe, expect, it } from 'vitest';
import { combineDistributions, exactDistribution, opposedDistribution, supportOf } from '../../src/dice/exact.js';
import { resolveOpposed } from '../../src/dice/opposed.js';
import { ESCALATE_ALL, OUTCOME_CODES } from '../../src/dice/outcome.js';
import { resolvePool } from '../../src/dice/pool.js';
import { Roller } from '../../src/dice/roll.js';
import { pAtLeast } from '../../src/dice/summary.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';
import { openStream } from '../../src/rng/stream.js';

describe('opposed roll, exact vs sampled', () => {
  for (const rules of [[], ['opposed_budget=HIGHEST'], ['post_effect_order=SECONDARY_FIRST', 'secondary_selector=GREEDY_LOW_VALUE']]) {
    it(`missile AC 4 +1 macro, escalated, against Defense 3 (${rules.join(' ') || 'defaults'})`, () => {
      const cfg = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments(rules));
      const primary = resolvePool(cfg, { base: 4, macro: 1 });
      const secondary = resolvePool(cfg, { base: 3 });
      const exact = opposedDistribution(cfg, primary, ESCALATE_ALL, secondary);
      expect(exact.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
      const roller = new Roller(cfg);
      const rng = openStream({ seed: 'opp', experiment: 'opposed', purpose: 'test', chunk: 0 });
      const N = 100_000;
      const counts = new Float64Array(OUTCOME_CODES);
      for (let t = 0; t < N; t++) {
        const p = roller.unopposed(primary, rng);
        const s = roller.unopposed(secondary, rng);
        counts[resolveOpposed(cfg, p, ESCALATE_ALL, s)]++;
      }
      for (let c = 0; c < OUTCOME_CODES; c++) {
        const p = exact[c];
        if (p === 0) expect(counts[c]).toBe(0);
        else expect(Math.abs(counts[c] / N - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / N) + 1e-9);
      }
    });
  }

  it('a Secondary that cannot succeed changes nothing (1 die of defence)', () => {
    const cfg = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments([]));
    const primary = resolvePool(cfg, { base: 5 });
    const opposed = opposedDistribution(cfg, primary, null, resolvePool(cfg, { base: 1 }));
    expect(pAtLeast(opposed, 1)).toBeCloseTo(49 / 54, 12);
  });

  // Without a Primary effect the opposed distribution is worked out by Diminish budget (each
  // Primary outcome diminished once per distinct budget of the Secondary): the same sums in the
  // same order as the generic combination, so equal to the last bit.
  for (const version of ['1.2.1', '1.2.2'] as const) {
    for (const rules of [[], ['opposed_budget=HIGHEST']]) {
      it(`by budget equals the generic combination bit for bit [v${version} ${rules.join(' ') || 'defaults'}]`, () => {
        const cfg = compileDiceConfig(RULES_VERSIONS[version], applyRuleAssignments(rules));
        let pairs = 0, nonzero = 0;
        for (const p of [{ base: 2 }, { base: 4, macro: 1 }, { base: 5, flexGrants: [2], macro: -2 }, { base: 3, rerollSources: 1 }, { base: 6, macro: 3 }]) {
          for (const d of [{ base: 1 }, { base: 3 }, { base: 4, rerollSources: 1 }, { base: 6 }]) {
            const primary = resolvePool(cfg, p), secondary = resolvePool(cfg, d);
            const got = opposedDistribution(cfg, primary, null, secondary);
            const generic = combineDistributions(exactDistribution(cfg, primary), exactDistribution(cfg, secondary), (a, b) => resolveOpposed(cfg, a, null, b));
            expect(Array.from(got)).toEqual(Array.from(generic));
            // The kept list of nonzero codes is the distribution's own, ascending.
            expect(Array.from(supportOf(got))).toEqual(Array.from(got.keys()).filter((c) => got[c] !== 0));
            pairs++;
            nonzero += supportOf(got).length;
          }
        }
        expect(pairs).toBe(20);
        expect(nonzero).toBeGreaterThan(100);
      });
    }
  }
});
