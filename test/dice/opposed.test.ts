// Opposed Rolls: the exact distribution agrees with rolling both pools many times.
import { describe, expect, it } from 'vitest';
import { opposedDistribution } from '../../src/dice/exact.js';
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
});
