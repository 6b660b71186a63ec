// Every test vector of shared/rules/dice.md §6 (TV-01..TV-23, DV-01..DV-31), for each rules
// version it applies to. Vectors with dice play them through ScriptedDice (base + Flex dice
// first, then the Macro dice, as Roller.rollOnce reads them) and check that exactly the
// scripted dice were rolled.
//
// Version coverage: a vector sourced "RULE-121 & 122" or "also v1.2.2..." runs on both
// versions; DERIVED vectors run on both; the v1.2.1 /dice, /dice/macro_dice and base_dice
// examples also run on v1.2.2 because dice.md AMB-21 takes the v1.2.2 Base/Flex/Macro
// mechanics to be identical; v1.2.1-only pages (ramming, dogfight, Beam Projector
// [N]-only reroll) run on v1.2.1; v1.2.2-only mechanics (Opposed Roll, Armor as negative
// Macro, Assaulting state) run on v1.2.2.
import { describe, expect, it } from 'vitest';
import { Roller } from '../../src/dice/roll.js';
import { resolveOpposed } from '../../src/dice/opposed.js';
import { resolvePool, type Pool, type PoolRequest } from '../../src/dice/pool.js';
import {
  BEST_MAG,
  DIMINISH_ALL,
  ESCALATE_ALL,
  MAG_COUNT,
  MAG_D,
  MAG_Q,
  MAG_T,
  NO_RESULT,
  magOf,
  outcomeName,
  parseOutcome,
} from '../../src/dice/outcome.js';
import type { DiceConfig } from '../../src/dice/config.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, RULES_VERSION_IDS, type RulesVersionId } from '../../src/rules/registry.js';
import { ScriptedDice } from '../../src/rng/scripted.js';

const BOTH = ['1.2.1', '1.2.2'] as const satisfies readonly RulesVersionId[];
const V121 = ['1.2.1'] as const satisfies readonly RulesVersionId[];
const V122 = ['1.2.2'] as const satisfies readonly RulesVersionId[];

function cfgOf(id: RulesVersionId, rules: readonly string[] = []): DiceConfig {
  return compileDiceConfig(RULES_VERSIONS[id], applyRuleAssignments(rules));
}

function code(text: string): number {
  const c = parseOutcome(text);
  if (c === null) throw new Error(`not an outcome: ${text}`);
  return c;
}

interface Scripted {
  /** All base dice rolled (X + Y of them). */
  base: readonly number[];
  /** Kept dice X; default: all of them (no Flex). */
  keep?: number;
  /** Positive Macro dice, or negative Macro dice (at most one of the two). */
  pos?: readonly number[];
  neg?: readonly number[];
  rules?: readonly string[];
}

/** One roll of scripted dice through Roller.rollOnce; every scripted die must be read. */
function read(id: RulesVersionId, s: Scripted): string {
  const cfg = cfgOf(id, s.rules);
  const keep = s.keep ?? s.base.length;
  const macroFaces = s.pos ?? s.neg ?? [];
  const macro = s.pos ? s.pos.length : s.neg ? -s.neg.length : 0;
  const pool = resolvePool(cfg, { base: keep, flexGrants: [s.base.length - keep], macro });
  expect(pool.base + pool.flex).toBe(s.base.length);
  expect(Math.abs(pool.macro)).toBe(macroFaces.length);
  const dice = new ScriptedDice([...s.base, ...macroFaces]);
  const out = new Roller(cfg).rollOnce(pool, dice);
  dice.assertConsumed();
  return outcomeName(out);
}

/** Rolls a resolved pool with the given faces and returns the outcome code; all faces must be read. */
function rollPool(cfg: DiceConfig, pool: Pool, faces: readonly number[]): number {
  const dice = new ScriptedDice(faces);
  const out = new Roller(cfg).rollOnce(pool, dice);
  dice.assertConsumed();
  expect(dice.consumed).toBe(pool.base + pool.flex + Math.abs(pool.macro));
  return out;
}

function poolShape(cfg: DiceConfig, req: PoolRequest) {
  const p = resolvePool(cfg, req);
  return { base: p.base, flex: p.flex, macro: p.macro };
}

const meets = (c: number, mag: number) => BEST_MAG[c] >= mag;

describe('dice.md §6 test vectors: rules versions', () => {
  it('both modelled versions are registered', () => {
    for (const id of BOTH) expect(RULES_VERSION_IDS).toContain(id);
  });
});

describe('dice.md §6.1 worked examples printed in the rules', () => {
  for (const id of BOTH) {
    it(`TV-01 2d6 rolls 2,2: success [D2], Value 2 [v${id}]`, () => {
      const name = read(id, { base: [2, 2] });
      expect(name).toBe('[D2]');
      expect(meets(code(name), MAG_D)).toBe(true);
      expect(magOf(code(name), 2)).toBe(MAG_D);
    });

    it(`TV-02 2d6 rolls 2,3: failure [N] [v${id}]`, () => {
      const name = read(id, { base: [2, 3] });
      expect(name).toBe('[N]');
      expect(meets(code(name), MAG_D)).toBe(false);
    });

    it(`TV-03 5d6 rolls 2,2,4,4,6: [D2,D4] [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 4, 4, 6] })).toBe('[D2,D4]');
    });

    it(`TV-04 3d6 rolls 1,4,5 (Example 1): [N] [v${id}]`, () => {
      expect(read(id, { base: [1, 4, 5] })).toBe('[N]');
    });

    it(`TV-05 Base 3d6 with base modifier +1d6: 4 dice rolled, 4 kept [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 3, baseModifiers: [1] });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 4, flex: 0, macro: 0 });
      // A Quadruple needs all four kept: only possible because the modifier is a Base die.
      expect(outcomeName(rollPool(cfg, pool, [3, 3, 3, 3]))).toBe('[Q3]');
      expect(outcomeName(rollPool(cfg, pool, [1, 2, 5, 5]))).toBe('[D5]');
      const short = new ScriptedDice([1, 2, 3]);
      expect(() => new Roller(cfg).rollOnce(pool, short)).toThrow(/exhausted/);
    });

    it(`TV-06 macro 4 on [D4]: base 4,4,6 keep 3, macro +[4,6] gives [T4]; the Macro 6 does nothing [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 6], pos: [4, 6] })).toBe('[T4]');
    });

    it(`TV-07 base 4,4,6 keep 3, macro +[4,4] gives [Q4] [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 6], pos: [4, 4] })).toBe('[Q4]');
    });

    for (const mode of ['LEVEL', 'COUNT'] as const) {
      it(`TV-08 negative Macro: base 4,4,6 keep 3, macro -[4,6] gives [N] (AMB-09; negative_macro_mode=${mode}) [v${id}]`, () => {
        expect(read(id, { base: [4, 4, 6], neg: [4, 6], rules: [`negative_macro_mode=${mode}`] })).toBe('[N]');
      });
    }

    it(`TV-09 zero Macro: base 4,4,6, no Macro dice rolled, [D4] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 3, macro: 0 });
      expect(pool.macro).toBe(0);
      expect(outcomeName(rollPool(cfg, pool, [4, 4, 6]))).toBe('[D4]');
      expect(read(id, { base: [4, 4, 6] })).toBe('[D4]');
    });
  }

  for (const id of V122) {
    it(`TV-10 opposed: Primary [D2,D3], Secondary [D]: default selector diminishes the higher Value, [D2] [v${id}]`, () => {
      const cfg = cfgOf(id);
      // The Secondary's Value is irrelevant.
      for (let v = 1; v <= 6; v++) {
        expect(outcomeName(resolveOpposed(cfg, code('[D2,D3]'), null, code(`[D${v}]`)))).toBe('[D2]');
      }
    });

    it(`TV-10 opposed: the Secondary may choose [D3] instead (secondary_selector=GREEDY_LOW_VALUE) [v${id}]`, () => {
      const cfg = cfgOf(id, ['secondary_selector=GREEDY_LOW_VALUE']);
      expect(outcomeName(resolveOpposed(cfg, code('[D2,D3]'), null, code('[D5]')))).toBe('[D3]');
    });

    it(`TV-11 Wyvern Mass Driver AC 2 Macro 1 vs Fore Armor 1 at Long Range: net Macro 0, roll only 2d6 [v${id}]`, () => {
      const cfg = cfgOf(id);
      const armor = 1;
      const pool = resolvePool(cfg, { base: 2, macro: 1 - armor });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 2, flex: 0, macro: 0 });
      expect(outcomeName(rollPool(cfg, pool, [5, 5]))).toBe('[D5]');
    });

    it(`TV-11 same attack at Short Range: +1 Flex die, roll 3 keep 2, still no Macro [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 2, flexGrants: [1], macro: 1 - 1 });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 2, flex: 1, macro: 0 });
      expect(outcomeName(rollPool(cfg, pool, [1, 5, 5]))).toBe('[D5]');
      expect(outcomeName(rollPool(cfg, pool, [1, 3, 5]))).toBe('[N]');
    });

    it(`TV-12 Wyvern Missiles:AC Macro 0 vs Fore Armor 1: net Macro -1, one negative Macro die [v${id}]`, () => {
      const cfg = cfgOf(id);
      const ac = 2; // filler: the vector fixes only the Macro side
      const pool = resolvePool(cfg, { base: ac, macro: 0 - 1 });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 2, flex: 0, macro: -1 });
      // The one Macro die is read after the base dice and acts negatively.
      expect(outcomeName(rollPool(cfg, pool, [3, 3, 3]))).toBe('[N]');
      expect(outcomeName(rollPool(cfg, pool, [3, 3, 4]))).toBe('[D3]');
    });
  }

  for (const id of V121) {
    it(`TV-13 Valiant rams a Tengu in the side: Structure 4 + 1d6 base = 5 dice, [D2,D5] escalated to [T2,T5] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 4, baseModifiers: [1] });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 5, flex: 0, macro: 0 });
      const out = rollPool(cfg, pool, [2, 2, 5, 5, 1]); // 1 = filler
      expect(outcomeName(out)).toBe('[D2,D5]');
      expect(outcomeName(ESCALATE_ALL[out])).toBe('[T2,T5]');
    });

    it(`TV-13 alternative Flank121 P/S = +1 Flex: roll 5 keep 4, same Result possible [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 4, flexGrants: [1] });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 4, flex: 1, macro: 0 });
      const out = rollPool(cfg, pool, [2, 2, 5, 5, 1]);
      expect(outcomeName(out)).toBe('[D2,D5]');
      expect(outcomeName(ESCALATE_ALL[out])).toBe('[T2,T5]');
    });

    it(`TV-14 Tengu rams: Structure 3 = 3 dice, [D2] escalated to [T2] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 3 });
      const out = rollPool(cfg, pool, [2, 2, 6]); // 6 = filler
      expect(outcomeName(out)).toBe('[D2]');
      expect(outcomeName(ESCALATE_ALL[out])).toBe('[T2]');
    });

    it(`TV-15 Pathfinder (Skill 2) ramming a capital ship: Skill Test of Skill + 1d6 = 3 dice, pass on [D+] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 2, baseModifiers: [1] });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 3, flex: 0, macro: 0 });
      expect(meets(rollPool(cfg, pool, [6, 1, 6]), MAG_D)).toBe(true);
      expect(meets(rollPool(cfg, pool, [1, 2, 3]), MAG_D)).toBe(false);
    });

    it(`TV-16 Pathfinder (Damage 6) ram attack: X = 3, Flex +/-3d6: roll 6 keep 3, no Macro [v${id}]`, () => {
      const cfg = cfgOf(id);
      const damage = 6;
      const pool = resolvePool(cfg, { base: Math.ceil(damage / 2), flexGrants: [3] });
      expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: 3, flex: 3, macro: 0 });
      // Six 1s: keep 3 of them, a Triple (a Quadruple is out of reach for 3 kept dice).
      expect(outcomeName(rollPool(cfg, pool, [1, 1, 1, 1, 1, 1]))).toBe('[T1]');
      expect(outcomeName(rollPool(cfg, pool, [1, 2, 3, 4, 5, 5]))).toBe('[D5]');
    });

    it(`TV-17 Pathfinder ramming a squadron: Skill Test 2d6 [D+], attack X=3, Y=0, M=+3 [v${id}]`, () => {
      const cfg = cfgOf(id);
      const skill = resolvePool(cfg, { base: 2 });
      expect({ base: skill.base, flex: skill.flex, macro: skill.macro }).toEqual({ base: 2, flex: 0, macro: 0 });
      expect(meets(rollPool(cfg, skill, [4, 4]), MAG_D)).toBe(true);
      const attack = resolvePool(cfg, { base: 3, macro: 3 });
      expect({ base: attack.base, flex: attack.flex, macro: attack.macro }).toEqual({ base: 3, flex: 0, macro: 3 });
      expect(outcomeName(rollPool(cfg, attack, [5, 5, 1, 5, 2, 3]))).toBe('[T5]');
    });

    for (const rating of [1, 2, 3, 4]) {
      it(`TV-18 Break Off by a Fast squadron, Skill or Fuel ${rating}: roll ${rating} + 1 Flex, keep ${rating}, pass on [D+] [v${id}]`, () => {
        const cfg = cfgOf(id);
        const pool = resolvePool(cfg, { base: rating, flexGrants: [1] });
        expect({ base: pool.base, flex: pool.flex, macro: pool.macro }).toEqual({ base: rating, flex: 1, macro: 0 });
        const pair = [3, 3, ...[1, 2, 4, 5, 6].slice(0, rating - 1)];
        const passed = rollPool(cfg, pool, pair);
        expect(meets(passed, MAG_D)).toBe(rating >= 2);
        const unique = [1, 2, 3, 4, 5, 6].slice(0, rating + 1);
        expect(meets(rollPool(cfg, pool, unique), MAG_D)).toBe(false);
      });
    }

    it(`TV-19 dogfight: Wyvern AS:2 rolls [N] and [D], Pathfinder AS:3 rolls [D], Wyvern [D] and [D]; each a separate roll [v${id}]`, () => {
      const cfg = cfgOf(id);
      const wyvern = resolvePool(cfg, { base: 2 });
      const pathfinder = resolvePool(cfg, { base: 3 });
      const first = [rollPool(cfg, wyvern, [1, 4]), rollPool(cfg, wyvern, [6, 6])];
      expect(first.map(outcomeName)).toEqual(['[N]', '[D6]']);
      expect(outcomeName(rollPool(cfg, pathfinder, [2, 5, 2]))).toBe('[D2]');
      const again = [rollPool(cfg, wyvern, [3, 3]), rollPool(cfg, wyvern, [1, 1])];
      expect(again.map(outcomeName)).toEqual(['[D3]', '[D1]']);
      // Dice part of the damage tally: one D per successful roll, 1 then 1 then 2.
      const doubles = (codes: number[]) => codes.reduce((n, c) => n + MAG_COUNT[0][c], 0);
      expect(doubles(first)).toBe(1);
      expect(doubles(again)).toBe(2);
    });
  }

  for (const id of BOTH) {
    it(`TV-20 Uller missiles roll [D2,T3]: Results of Magnitude 1 and 2, 3 steps in all [v${id}]`, () => {
      const out = code(read(id, { base: [2, 3, 2, 3, 3] }));
      expect(outcomeName(out)).toBe('[D2,T3]');
      expect(magOf(out, 2)).toBe(MAG_D);
      expect(magOf(out, 3)).toBe(MAG_T);
      expect(MAG_COUNT[0][out] * MAG_D + MAG_COUNT[1][out] * MAG_T + MAG_COUNT[2][out] * MAG_Q).toBe(3);
    });

    it(`TV-21 Wyvern Mass Driver AC:2 at a capital ship rolls 2,2: [D2], Value 2 (Defense, 1-2) [v${id}]`, () => {
      const out = code(read(id, { base: [2, 2] }));
      expect(outcomeName(out)).toBe('[D2]');
      const values = [1, 2, 3, 4, 5, 6].filter((v) => magOf(out, v) !== 0);
      expect(values).toEqual([2]);
      expect(values[0]).toBeLessThanOrEqual(2);
    });
  }

  for (const id of V122) {
    it(`TV-22 Assaulting: [T3,D5] with all Results Diminished gives [D3] [v${id}]`, () => {
      expect(outcomeName(DIMINISH_ALL[code('[T3,D5]')])).toBe('[D3]');
    });
  }

  it.skip('TV-23 v1.2.4 net attack modifier to pools (-3 / 0 / +1 / +2 / +3 / +4): skipped, jwsim does not model rules v1.2.4', () => {});
});

describe('dice.md §6.2 derived edge-case vectors', () => {
  for (const id of BOTH) {
    it(`DV-01 0 base dice, or 1 base die: [N] [v${id}]`, () => {
      const cfg = cfgOf(id);
      expect(outcomeName(rollPool(cfg, resolvePool(cfg, { base: 0 }), []))).toBe('[N]');
      for (let f = 1; f <= 6; f++) {
        expect(outcomeName(rollPool(cfg, resolvePool(cfg, { base: 1 }), [f]))).toBe('[N]');
        // Macro dice cannot create a success either.
        expect(outcomeName(rollPool(cfg, resolvePool(cfg, { base: 1, macro: 2 }), [f, f, f]))).toBe('[N]');
      }
    });

    it(`DV-02 base 3,3,3,3,3: [Q3] (five of a kind is one Q) [v${id}]`, () => {
      expect(read(id, { base: [3, 3, 3, 3, 3] })).toBe('[Q3]');
    });

    it(`DV-03 base 2,2,2,2,2,2: [Q2], not [Q2,D2] [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 2, 2, 2, 2] })).toBe('[Q2]');
    });

    it(`DV-04 base 1,1,2,2,3,3: [D1,D2,D3] [v${id}]`, () => {
      expect(read(id, { base: [1, 1, 2, 2, 3, 3] })).toBe('[D1,D2,D3]');
    });

    it(`DV-05 base 4,4,4,4,6,6,6: [Q4,T6] [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 4, 4, 6, 6, 6] })).toBe('[Q4,T6]');
    });

    it(`DV-06 base 5,5,5,2: [T5] meets [D+] and [T+], fails [Q+] [v${id}]`, () => {
      const out = code(read(id, { base: [5, 5, 5, 2] }));
      expect(outcomeName(out)).toBe('[T5]');
      expect(meets(out, MAG_D)).toBe(true);
      expect(meets(out, MAG_T)).toBe(true);
      expect(meets(out, MAG_Q)).toBe(false);
    });

    it(`DV-07 Flex: base 3,3,3 keep 2: [D3] [v${id}]`, () => {
      expect(read(id, { base: [3, 3, 3], keep: 2 })).toBe('[D3]');
    });

    it(`DV-08 Flex: base 3,3,3,5,5 keep 4: MAX_LEXI [T3] [v${id}]`, () => {
      expect(read(id, { base: [3, 3, 3, 5, 5], keep: 4 })).toBe('[T3]');
    });

    it(`DV-08 Flex: base 3,3,3,5,5 keep 4: flex_selector=MOST_RESULTS [D3,D5] [v${id}]`, () => {
      expect(read(id, { base: [3, 3, 3, 5, 5], keep: 4, rules: ['flex_selector=MOST_RESULTS'] })).toBe('[D3,D5]');
    });

    it(`DV-09 Flex + Macro: base 2,2,6,6 keep 3, macro +[6]: keep 2,6,6, [T6] [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 6, 6], keep: 3, pos: [6] })).toBe('[T6]');
    });

    it(`DV-09 flex_timing=BEFORE_MACRO: same [T6] (discarding before the Macro is seen still keeps the higher Value) [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 6, 6], keep: 3, pos: [6], rules: ['flex_timing=BEFORE_MACRO'] })).toBe('[T6]');
    });

    it(`DV-09 variant (not in §6): macro +[2] instead: AFTER_MACRO keeps 2,2,6 for [T2], BEFORE_MACRO keeps 2,6,6 for [D6] [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 6, 6], keep: 3, pos: [2] })).toBe('[T2]');
      expect(read(id, { base: [2, 2, 6, 6], keep: 3, pos: [2], rules: ['flex_timing=BEFORE_MACRO'] })).toBe('[D6]');
    });

    it(`DV-10 Flex + negative Macro: base 4,4,6,6 keep 3, macro -[4]: keep 4,6,6, [D6] [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 6, 6], keep: 3, neg: [4] })).toBe('[D6]');
    });

    it(`DV-10 flex_timing=BEFORE_MACRO: same [D6] [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 6, 6], keep: 3, neg: [4], rules: ['flex_timing=BEFORE_MACRO'] })).toBe('[D6]');
    });

    it(`DV-10 variant (not in §6): macro -[6] instead: AFTER_MACRO dodges it with [D4], BEFORE_MACRO keeps 4,6,6 and ends [N] [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 6, 6], keep: 3, neg: [6] })).toBe('[D4]');
      expect(read(id, { base: [4, 4, 6, 6], keep: 3, neg: [6], rules: ['flex_timing=BEFORE_MACRO'] })).toBe('[N]');
    });

    it(`DV-11 base 1,2,3, macro +[5,5]: [N] (a Macro pair creates nothing) [v${id}]`, () => {
      expect(read(id, { base: [1, 2, 3], pos: [5, 5] })).toBe('[N]');
    });

    it(`DV-12 base 1,2,3, macro +[1]: [N] (Macro matching a single base die does nothing) [v${id}]`, () => {
      expect(read(id, { base: [1, 2, 3], pos: [1] })).toBe('[N]');
    });

    it(`DV-13 base 4,4,4,4, macro +[4]: [Q4] (cap) [v${id}]`, () => {
      expect(read(id, { base: [4, 4, 4, 4], pos: [4] })).toBe('[Q4]');
    });

    it(`DV-14 base 2,2,5,5,5, macro +[2,5]: [T2,Q5] [v${id}]`, () => {
      expect(read(id, { base: [2, 2, 5, 5, 5], pos: [2, 5] })).toBe('[T2,Q5]');
    });

    for (const mode of ['LEVEL', 'COUNT'] as const) {
      it(`DV-15 base 3,3,3, macro -[3,3]: [N] (T to D to gone; negative_macro_mode=${mode}) [v${id}]`, () => {
        expect(read(id, { base: [3, 3, 3], neg: [3, 3], rules: [`negative_macro_mode=${mode}`] })).toBe('[N]');
      });
    }

    it(`DV-16 base 6,6,6,6,6, macro -[6]: LEVEL [T6] [v${id}]`, () => {
      expect(read(id, { base: [6, 6, 6, 6, 6], neg: [6] })).toBe('[T6]');
      expect(read(id, { base: [6, 6, 6, 6, 6], neg: [6], rules: ['negative_macro_mode=LEVEL'] })).toBe('[T6]');
    });

    it(`DV-16 base 6,6,6,6,6, macro -[6]: negative_macro_mode=COUNT [Q6] [v${id}]`, () => {
      expect(read(id, { base: [6, 6, 6, 6, 6], neg: [6], rules: ['negative_macro_mode=COUNT'] })).toBe('[Q6]');
    });

    for (const mode of ['LEVEL', 'COUNT'] as const) {
      it(`DV-17 base 2,2,5,5, macro -[2,5,5]: [N] (the extra Macro 5 has no target; negative_macro_mode=${mode}) [v${id}]`, () => {
        expect(read(id, { base: [2, 2, 5, 5], neg: [2, 5, 5], rules: [`negative_macro_mode=${mode}`] })).toBe('[N]');
      });
    }

    it(`DV-18 [D3,T4,Q6] ESCALATE_ALL: [T3,Q4,Q6] [v${id}]`, () => {
      expect(outcomeName(ESCALATE_ALL[code('[D3,T4,Q6]')])).toBe('[T3,Q4,Q6]');
    });

    it(`DV-19 [N] ESCALATE_ALL: [N] [v${id}]`, () => {
      expect(ESCALATE_ALL[NO_RESULT]).toBe(NO_RESULT);
      expect(outcomeName(ESCALATE_ALL[code('[N]')])).toBe('[N]');
    });

    it(`DV-20 [D3,T4,Q6] DIMINISH_ALL: [D4,T6] [v${id}]`, () => {
      expect(outcomeName(DIMINISH_ALL[code('[D3,T4,Q6]')])).toBe('[D4,T6]');
    });
  }

  for (const id of V122) {
    it(`DV-21 opposed: Primary [T3,D5], Secondary [T]: greedy gives [D3] [v${id}]`, () => {
      const cfg = cfgOf(id);
      for (let v = 1; v <= 6; v++) {
        expect(outcomeName(resolveOpposed(cfg, code('[T3,D5]'), null, code(`[T${v}]`)))).toBe('[D3]');
      }
    });

    it(`DV-22 opposed: Primary [Q1,T2], Secondary [Q4]: negate all, [N] [v${id}]`, () => {
      const cfg = cfgOf(id);
      expect(outcomeName(resolveOpposed(cfg, code('[Q1,T2]'), null, code('[Q4]')))).toBe('[N]');
      expect(outcomeName(resolveOpposed(cfgOf(id, ['opposed_budget=HIGHEST']), code('[Q1,T2]'), null, code('[Q4]')))).toBe('[N]');
    });

    it(`DV-23 opposed: Secondary [N] leaves the Primary unchanged [v${id}]`, () => {
      const cfg = cfgOf(id);
      for (const p of ['[N]', '[D1]', '[D2,D3]', '[T3,D5]', '[Q1,T2]', '[D1,T4,Q6]']) {
        expect(outcomeName(resolveOpposed(cfg, code(p), null, NO_RESULT))).toBe(p);
      }
    });

    it(`DV-24 opposed: Secondary [D1,D6], Primary [T2,D4]: SUM (2 Diminishes) gives [D2] [v${id}]`, () => {
      const cfg = cfgOf(id);
      expect(outcomeName(resolveOpposed(cfg, code('[T2,D4]'), null, code('[D1,D6]')))).toBe('[D2]');
      expect(outcomeName(resolveOpposed(cfgOf(id, ['opposed_budget=SUM']), code('[T2,D4]'), null, code('[D1,D6]')))).toBe('[D2]');
    });

    it(`DV-24 opposed: Secondary [D1,D6], Primary [T2,D4]: opposed_budget=HIGHEST (1 Diminish) gives [D2,D4] [v${id}]`, () => {
      const cfg = cfgOf(id, ['opposed_budget=HIGHEST']);
      expect(outcomeName(resolveOpposed(cfg, code('[T2,D4]'), null, code('[D1,D6]')))).toBe('[D2,D4]');
    });
  }

  // Rerolls (AMB-14/15/16). A Beam Projector attack, 2 base dice (filler AC).
  for (const id of V121) {
    it(`DV-25 v1.2.1 Beam Projector, first roll [D2]: no reroll permitted, keep [D2] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 2, rerollSources: 1 });
      expect(pool.rerolls).toBe(1);
      const dice = new ScriptedDice([2, 2, 3, 3]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[D2]');
      expect(dice.consumed).toBe(2);
      expect(() => dice.assertConsumed()).toThrow(/not fully consumed/);
      const exact = new ScriptedDice([2, 2]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, exact))).toBe('[D2]');
      exact.assertConsumed();
    });

    it(`DV-25 v1.2.1 forbids rerolling a [D] even with reroll_policy=BELOW_T [v${id}]`, () => {
      const cfg = cfgOf(id, ['reroll_policy=BELOW_T']);
      const pool = resolvePool(cfg, { base: 2, rerollSources: 1 });
      const dice = new ScriptedDice([2, 2, 3, 3]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[D2]');
      expect(dice.consumed).toBe(2);
      expect(cfg.rerollWhen[code('[D2]')]).toBe(0);
      expect(cfg.rerollWhen[NO_RESULT]).toBe(1);
    });

    it(`DV-26 v1.2.1 Beam Projector, first roll [N], reroll [N]: final [N], only one reroll [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 2, rerollSources: 1 });
      const dice = new ScriptedDice([1, 2, 3, 4, 5, 5]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[N]');
      expect(dice.consumed).toBe(4); // the third pair is never rolled
      expect(() => dice.assertConsumed()).toThrow(/not fully consumed/);
      const exact = new ScriptedDice([1, 2, 3, 4]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, exact))).toBe('[N]');
      exact.assertConsumed();
    });
  }

  for (const id of V122) {
    it(`DV-25 v1.2.2 with reroll_policy=BELOW_T: a [D] is rerolled (the version permits it) [v${id}]`, () => {
      const cfg = cfgOf(id, ['reroll_policy=BELOW_T']);
      const pool = resolvePool(cfg, { base: 2, rerollSources: 1 });
      const dice = new ScriptedDice([2, 2, 3, 4]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[N]'); // replaces, even if worse (AMB-15)
      dice.assertConsumed();
      expect(cfg.rerollWhen[code('[D2]')]).toBe(1);
      expect(cfg.rerollWhen[code('[T2]')]).toBe(0);
    });

    it(`DV-25 v1.2.2 default policy (ONLY_N): a [D2] is kept [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 2, rerollSources: 1 });
      const dice = new ScriptedDice([2, 2]);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[D2]');
      dice.assertConsumed();
    });
  }

  for (const id of BOTH) {
    for (const sign of [1, -1] as const) {
      it(`DV-27 reroll of a Flex + Macro roll (macro ${sign > 0 ? '+1' : '-1'}): all base, Flex and Macro dice rerolled, discard chosen again [v${id}${id === '1.2.1' ? ', AMB-14' : ''}]`, () => {
        const cfg = cfgOf(id);
        const pool = resolvePool(cfg, { base: 3, flexGrants: [1], macro: sign, rerollSources: 1 });
        expect({ base: pool.base, flex: pool.flex, macro: pool.macro, rerolls: pool.rerolls }).toEqual({ base: 3, flex: 1, macro: sign, rerolls: 1 });
        // First roll 1,2,3,4 | Macro 5 -> [N]; the reroll rolls 4 base + 1 Macro die again.
        // Reroll 6,6,2,2 | Macro 6: +1 keeps 6,6,2 for [T6]; -1 keeps 2,2,6 for [D2].
        const dice = new ScriptedDice([1, 2, 3, 4, 5, 6, 6, 2, 2, 6]);
        const out = new Roller(cfg).unopposed(pool, dice);
        dice.assertConsumed();
        expect(dice.consumed).toBe(2 * (3 + 1 + 1));
        expect(outcomeName(out)).toBe(sign > 0 ? '[T6]' : '[D2]');
      });
    }

    it(`DV-28 Base 2d6 with -3d6 base modifier: 0 dice, [N] [v${id}]`, () => {
      const cfg = cfgOf(id);
      expect(poolShape(cfg, { base: 2, baseModifiers: [-3] })).toEqual({ base: 0, flex: 0, macro: 0 });
      const pool = resolvePool(cfg, { base: 2, baseModifiers: [-3] });
      expect(outcomeName(rollPool(cfg, pool, []))).toBe('[N]');
      expect(() => new Roller(cfg).rollOnce(pool, new ScriptedDice([]))).not.toThrow();
    });

    it(`DV-29 Skill 3 rolls 5,5,1: [D5], passes [D+], fails [T+] [v${id}]`, () => {
      const out = code(read(id, { base: [5, 5, 1] }));
      expect(outcomeName(out)).toBe('[D5]');
      expect(meets(out, MAG_D)).toBe(true);
      expect(meets(out, MAG_T)).toBe(false);
    });

    it(`DV-30 Skill 3 rolls 1,2,4: [N], fails [D+] [v${id}]`, () => {
      const out = code(read(id, { base: [1, 2, 4] }));
      expect(outcomeName(out)).toBe('[N]');
      expect(meets(out, MAG_D)).toBe(false);
    });
  }

  for (const id of V121) {
    // Three base dice (filler AC). Rolls: [N] (1,2,4), reroll [N] (2,5,6), reroll [D3] (3,3,1).
    const script = [1, 2, 4, 2, 5, 6, 3, 3, 1];

    it(`DV-31 two permitting sources (Beam Projector + Concentrated Fire), default max_rerolls: [N], [N], [D3] ends [D3] [v${id}]`, () => {
      const cfg = cfgOf(id);
      const pool = resolvePool(cfg, { base: 3, rerollSources: 2 });
      expect(pool.rerolls).toBe(2);
      const dice = new ScriptedDice(script);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[D3]');
      dice.assertConsumed();
      expect(dice.consumed).toBe(9);
    });

    it(`DV-31 max_rerolls=ONCE (combat.md RerollOnce): final [N] and the third roll is never made [v${id}]`, () => {
      const cfg = cfgOf(id, ['max_rerolls=ONCE']);
      const pool = resolvePool(cfg, { base: 3, rerollSources: 2 });
      expect(pool.rerolls).toBe(1);
      const dice = new ScriptedDice(script);
      expect(outcomeName(new Roller(cfg).unopposed(pool, dice))).toBe('[N]');
      expect(dice.consumed).toBe(6);
      expect(() => dice.assertConsumed()).toThrow(/not fully consumed: 6 of 9/);
    });
  }
});
