// The kernel's Roller.rollOnce against an independent, naive implementation of the dice.md §5
// reference algorithm (test/helpers/naiveReference.ts), on every single roll of every pool
// of at most 5 dice (base + flex + |macro| <= 5), both Macro signs, both negative Macro modes.
import { describe, expect, it } from 'vitest';
import { outcomeName } from '../../src/dice/outcome.js';
import { resolvePool } from '../../src/dice/pool.js';
import { Roller } from '../../src/dice/roll.js';
import type { RandomStream } from '../../src/rng/stream.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, type RulesVersionId } from '../../src/rules/registry.js';
import { combinations, compareMaxLexi, formResults, naiveName, naiveRollOnce, type NaiveOutcome } from '../helpers/naiveReference.js';
import { OdometerDice, smallPools } from '../helpers/odometer.js';

/** Passes the odometer's faces through and remembers them, so the reference sees the same dice. */
class Recorder implements RandomStream {
  readonly faces: number[] = [];
  constructor(private readonly inner: RandomStream) {}
  d6(): number {
    const f = this.inner.d6();
    this.faces.push(f);
    return f;
  }
  next(): number {
    return (this.d6() - 0.5) / 6;
  }
}

const outcome = (entries: Array<[number, 1 | 2 | 3]>): NaiveOutcome => new Map(entries);

describe('naive reference implementation (self-checks against dice.md §6)', () => {
  it('combinations enumerates all index subsets', () => {
    expect(combinations(4, 2)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
    expect(combinations(3, 0)).toEqual([[]]);
    expect(combinations(5, 3).length).toBe(10);
  });

  it('MAX_LEXI order: [T] > [D,D] > [D] > [N], ties to higher Values', () => {
    expect(compareMaxLexi(outcome([[3, 2]]), outcome([[3, 1], [5, 1]]))).toBeGreaterThan(0);
    expect(compareMaxLexi(outcome([[1, 1], [2, 1]]), outcome([[6, 1]]))).toBeGreaterThan(0);
    expect(compareMaxLexi(outcome([[1, 1]]), outcome([]))).toBeGreaterThan(0);
    expect(compareMaxLexi(outcome([[6, 1]]), outcome([[2, 1]]))).toBeGreaterThan(0);
    // Equal Magnitudes (T, D): pairs (T,2),(D,3) beat (T,1),(D,6): the first pair decides.
    expect(compareMaxLexi(outcome([[2, 2], [3, 1]]), outcome([[1, 2], [6, 1]]))).toBeGreaterThan(0);
    expect(compareMaxLexi(outcome([[4, 1]]), outcome([[4, 1]]))).toBe(0);
  });

  it('reproduces the §6 vectors it can express', () => {
    const r = (keep: number, base: number[], macro: number[] = [], sign = 0, mode: 'LEVEL' | 'COUNT' = 'LEVEL') => naiveName(naiveRollOnce(keep, base, macro, sign, mode));
    expect(naiveName(formResults([2, 2, 4, 4, 6]))).toBe('[D2,D4]'); // TV-03
    expect(r(3, [4, 4, 6], [4, 6], 1)).toBe('[T4]'); // TV-06
    expect(r(3, [4, 4, 6], [4, 4], 1)).toBe('[Q4]'); // TV-07
    expect(r(3, [4, 4, 6], [4, 6], -1)).toBe('[N]'); // TV-08
    expect(r(6, [2, 2, 2, 2, 2, 2])).toBe('[Q2]'); // DV-03
    expect(r(7, [4, 4, 4, 4, 6, 6, 6])).toBe('[Q4,T6]'); // DV-05
    expect(r(2, [3, 3, 3])).toBe('[D3]'); // DV-07
    expect(r(4, [3, 3, 3, 5, 5])).toBe('[T3]'); // DV-08
    expect(r(3, [2, 2, 6, 6], [6], 1)).toBe('[T6]'); // DV-09
    expect(r(3, [4, 4, 6, 6], [4], -1)).toBe('[D6]'); // DV-10
    expect(r(3, [1, 2, 3], [5, 5], 1)).toBe('[N]'); // DV-11
    expect(r(5, [2, 2, 5, 5, 5], [2, 5], 1)).toBe('[T2,Q5]'); // DV-14
    expect(r(5, [6, 6, 6, 6, 6], [6], -1, 'LEVEL')).toBe('[T6]'); // DV-16
    expect(r(5, [6, 6, 6, 6, 6], [6], -1, 'COUNT')).toBe('[Q6]'); // DV-16
    expect(r(4, [2, 2, 5, 5], [2, 5, 5], -1)).toBe('[N]'); // DV-17
  });
});

describe('Roller.rollOnce equals the naive §5 reference on every roll of every pool of up to 5 dice', () => {
  const cases: Array<{ id: RulesVersionId; mode: 'LEVEL' | 'COUNT' }> = [
    { id: '1.2.2', mode: 'LEVEL' },
    { id: '1.2.2', mode: 'COUNT' },
    { id: '1.2.1', mode: 'LEVEL' },
    { id: '1.2.1', mode: 'COUNT' },
  ];
  for (const { id, mode } of cases) {
    it(`v${id}, negative_macro_mode=${mode}, flex MAX_LEXI chosen after the Macro dice`, () => {
      const cfg = compileDiceConfig(RULES_VERSIONS[id], applyRuleAssignments([`negative_macro_mode=${mode}`]));
      const roller = new Roller(cfg);
      const mismatches: string[] = [];
      let rolls = 0;
      const pools = smallPools(5);
      for (const req of pools) {
        const pool = resolvePool(cfg, { base: req.base, flexGrants: [req.flex], macro: req.macro });
        const rolled = req.base + req.flex;
        const odo = new OdometerDice(rolled + Math.abs(req.macro));
        const sign = Math.sign(req.macro);
        for (let s = 0; s < odo.sequences; s++) {
          const rec = new Recorder(odo);
          const got = outcomeName(roller.rollOnce(pool, rec));
          const want = naiveName(naiveRollOnce(req.base, rec.faces.slice(0, rolled), rec.faces.slice(rolled), sign, mode));
          if (got !== want && mismatches.length < 20) {
            mismatches.push(`pool ${JSON.stringify(req)} dice ${rec.faces.join(',')}: kernel ${got}, reference ${want}`);
          }
          rolls++;
          odo.advance();
        }
      }
      expect(mismatches).toEqual([]);
      expect(pools.length).toBe(91);
      expect(rolls).toBeGreaterThan(100_000);
    });
  }
});
