import { describe, expect, it } from 'vitest';
import { exactDistribution } from '../../src/dice/exact.js';
import { OUTCOME_CODES } from '../../src/dice/outcome.js';
import { resolvePool } from '../../src/dice/pool.js';
import { Roller } from '../../src/dice/roll.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS, applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';
import { OdometerDice, smallPools } from '../helpers/odometer.js';

const OPTION_SETS = [
  [],
  ['negative_macro_mode=COUNT'],
  ['flex_timing=BEFORE_MACRO'],
  ['flex_selector=MOST_RESULTS'],
  ['flex_timing=BEFORE_MACRO', 'negative_macro_mode=COUNT'],
];

describe('exact distribution equals brute-force enumeration of all 6^n rolls', () => {
  for (const rule of OPTION_SETS) {
    it(`every pool of up to 6 dice (options: ${rule.join(', ') || 'defaults'})`, () => {
      const cfg = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments(rule));
      const roller = new Roller(cfg);
      for (const req of smallPools(6)) {
        const pool = resolvePool(cfg, { base: req.base, flexGrants: [req.flex], macro: req.macro });
        const dice = req.base + req.flex + Math.abs(req.macro);
        const odo = new OdometerDice(dice);
        const brute = new Float64Array(OUTCOME_CODES);
        const n = odo.sequences;
        for (let s = 0; s < n; s++) {
          brute[roller.rollOnce(pool, odo)] += 1 / n;
          odo.advance();
        }
        const exact = exactDistribution(cfg, pool);
        for (let c = 0; c < OUTCOME_CODES; c++) {
          if (Math.abs(exact[c] - brute[c]) > 1e-12) {
            throw new Error(`pool ${JSON.stringify(req)} outcome ${c}: exact ${exact[c]} vs brute ${brute[c]}`);
          }
        }
      }
    });
  }
  it('defaults are the documented ones', () => {
    expect(DEFAULT_INTERPRETATIONS.negative_macro_mode).toBe('LEVEL');
  });
});

describe('remembered distributions', () => {
  it('are kept per dice configuration: the same pool under another option gives its own distribution', () => {
    const plain = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments([]));
    const before = compileDiceConfig(RULES_VERSIONS['1.2.2'], applyRuleAssignments(['flex_timing=BEFORE_MACRO']));
    const req = { base: 3, flexGrants: [1], macro: 2 };
    const pool = resolvePool(plain, req);
    const a = exactDistribution(plain, pool);
    const b = exactDistribution(before, resolvePool(before, req));
    expect(exactDistribution(plain, pool)).toBe(a); // the same object the second time
    let differs = 0;
    for (let c = 0; c < OUTCOME_CODES; c++) differs += Math.abs(a[c] - b[c]);
    expect(differs).toBeCloseTo(0.0347, 4);
  });
});
