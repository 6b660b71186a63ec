// Boarding and capture (game.md §7.4, §10; combat.md §8.1, §12) with scripted dice: the
// Boarded-state procedure of v1.2.2 and the one-shot Boarding Action of v1.2.1, both run
// through the same functions and differing only by their BoardingRules.
import { describe, expect, it } from 'vitest';
import { parseOutcome } from '../../../src/dice/outcome.js';
import { Roller } from '../../../src/dice/roll.js';
import {
  BOARDED_STATE_BOARDING,
  MARINE_CASUALTIES,
  RAID_BOARDING,
  boardedFight,
  initiateBoarding,
  marineCasualties,
  mayBeBoarded,
  mayBoard,
  type BoardedState,
  type BoardingRules,
  type BoardingSide,
} from '../../../src/engine/battle/boarding.js';
import type { ProcedureHooks } from '../../../src/engine/battle/procedures.js';
import { DamageTally } from '../../../src/engine/damage.js';
import { CombatState } from '../../../src/engine/state.js';
import { sampleRosterFiles } from '../../../src/paths.js';
import { compileRules, type CompiledRules } from '../../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../../src/rules/interpretations.js';
import { getRulesVersion } from '../../../src/rules/registry.js';
import { ScriptedDice } from '../../../src/rng/scripted.js';
import { loadRoster } from '../../../src/units/load.js';
import type { UnitCard } from '../../../src/units/types.js';

// Version fixtures: the rules data and the boarding procedure of each version.
const V121 = { rules: compileRules(getRulesVersion('1.2.1'), DEFAULT_INTERPRETATIONS), boarding: RAID_BOARDING };
const V122 = { rules: compileRules(getRulesVersion('1.2.2'), DEFAULT_INTERPRETATIONS), boarding: BOARDED_STATE_BOARDING };

const roster = loadRoster(sampleRosterFiles());
const alexander = roster.units.get('jovian.alexander')!; // capital ship, Structure 4, Marines 1
const tengu = roster.units.get('unknown.tengu')!; // capital ship, Marines 0
const pathfinder = roster.units.get('jovian.pathfinder')!; // Exo-Armor squadron
/** Patched cards with more Marines, so that several can be committed. */
const withMarines = (card: UnitCard, marines: number): UnitCard => ({ ...card, marines });

function model(unit: UnitCard, side: 0 | 1, label: string, marines = unit.marines): BoardingSide {
  return { unit, state: new CombatState(unit), fuel: 0, label, marines, side };
}

interface Harness extends ProcedureHooks {
  readonly dice: ScriptedDice;
  readonly lines: string[];
  readonly tally: DamageTally;
}

/** Hooks that roll the scripted faces and collect trace lines; no Attack Windows happen in boarding. */
function hooks(rules: CompiledRules, faces: number[]): Harness {
  const lines: string[] = [];
  const dice = new ScriptedDice(faces);
  return {
    rules,
    roller: new Roller(rules.dice),
    rng: dice,
    dice,
    tally: new DamageTally(),
    lines,
    attackWindow: () => {
      throw new Error('boarding makes no Attack Window');
    },
    note: (line) => lines.push(line),
  };
}

function code(text: string): number {
  const c = parseOutcome(text);
  if (c === null) throw new Error(`bad outcome ${text}`);
  return c;
}

describe('casualty table and eligibility', () => {
  it('[D] −1 each, [T] −2 each, [Q+] all, never more than are there', () => {
    expect(marineCasualties(code('[N]'), MARINE_CASUALTIES, 5)).toBe(0);
    expect(marineCasualties(code('[D1]'), MARINE_CASUALTIES, 5)).toBe(1);
    expect(marineCasualties(code('[D1,D4]'), MARINE_CASUALTIES, 5)).toBe(2);
    expect(marineCasualties(code('[T2]'), MARINE_CASUALTIES, 5)).toBe(2);
    expect(marineCasualties(code('[D1,T2]'), MARINE_CASUALTIES, 5)).toBe(3);
    expect(marineCasualties(code('[T2,T3]'), MARINE_CASUALTIES, 3)).toBe(3);
    expect(marineCasualties(code('[Q6]'), MARINE_CASUALTIES, 9)).toBe(9);
  });

  it('mayBoard needs Marines ≥ 1 and a model that is not itself Boarded (GM-70); only capital ships are boarded', () => {
    const ship = model(alexander, 0, 'A');
    expect(mayBoard(ship, null)).toBe(true);
    expect(mayBoard(ship, { boarders: 1, boarderSide: 1 })).toBe(false);
    expect(mayBoard(model(tengu, 0, 'T'), null)).toBe(false);
    const wreck = model(alexander, 0, 'W');
    wreck.state.destroyed = true;
    expect(mayBoard(wreck, null)).toBe(false);
    expect(mayBeBoarded(ship)).toBe(true);
    expect(mayBeBoarded(wreck)).toBe(false);
    expect(mayBeBoarded(model(pathfinder, 1, 'P'))).toBe(false);
  });

  it('committing no marines or more than the boarder has is refused', () => {
    const h = hooks(V122.rules, []);
    const a = model(withMarines(alexander, 2), 0, 'A');
    const b = model(alexander, 1, 'B');
    expect(() => initiateBoarding(h, V122.boarding, a, b, 0, null)).toThrow(RangeError);
    expect(() => initiateBoarding(h, V122.boarding, a, b, 3, null)).toThrow(RangeError);
    expect(a.marines).toBe(2);
  });
});

describe('v1.2.2: Boarders and the Boarded state', () => {
  const { rules, boarding } = V122;

  it('commit 3, point defence [D] → 2 Boarders; the committed marines are spent (GM-70)', () => {
    const h = hooks(rules, [1, 1]); // Defense 2: [D1]
    const a = model(withMarines(alexander, 4), 0, 'A');
    const b = model(alexander, 1, 'B');
    const r = initiateBoarding(h, boarding, a, b, 3, null);
    h.dice.assertConsumed();
    expect(r.pdCode).toBe(code('[D1]'));
    expect(r.survivors).toBe(2);
    expect(r.repelled).toBe(false);
    expect(r.boarded).toEqual({ boarders: 2, boarderSide: 0 });
    expect(a.marines).toBe(1); // survivors do not come back
    expect(b.state.structure).toBe(alexander.structure);
    expect(r.structureDamage).toBe(0);
    expect(h.lines.some((l) => l.includes('Boarded'))).toBe(true);
  });

  it('DV-10: commit 3, point defence [T] → 1 Boarder', () => {
    const h = hooks(rules, [2, 2, 2]);
    const a = model(withMarines(alexander, 3), 0, 'A');
    const b = model(alexander, 1, 'B');
    b.state.defense = 3;
    const r = initiateBoarding(h, boarding, a, b, 3, null);
    h.dice.assertConsumed();
    expect(r.pdCode).toBe(code('[T2]')); // Defense 3 rolling 2,2,2: one [T], two of the three marines lost
    expect(r.survivors).toBe(1);
    expect(r.repelled).toBe(false);
    expect(r.boarded).toEqual({ boarders: 1, boarderSide: 0 });
    expect(a.marines).toBe(0);
  });

  it('a second boarding model adds its survivors to the same Boarders pool', () => {
    const h = hooks(rules, [3, 5]); // [N]: all 2 get aboard
    const a2 = model(withMarines(alexander, 2), 0, 'A2');
    const b = model(alexander, 1, 'B');
    const r = initiateBoarding(h, boarding, a2, b, 2, { boarders: 2, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r.boarded).toEqual({ boarders: 4, boarderSide: 0 });
    expect(a2.marines).toBe(0);
  });

  it('when point defence kills every marine the target is not Boarded (and an existing state is kept as it is)', () => {
    const a = model(withMarines(alexander, 4), 0, 'A');
    const b = model(alexander, 1, 'B');
    const h = hooks(rules, [6, 6]); // [D6] kills the single marine
    const r = initiateBoarding(h, boarding, a, b, 1, null);
    expect(r.survivors).toBe(0);
    expect(r.boarded).toBeNull();
    const kept: BoardedState = { boarders: 2, boarderSide: 0 };
    const h2 = hooks(rules, [4, 4]);
    expect(initiateBoarding(h2, boarding, a, b, 1, kept).boarded).toBe(kept);
    expect(a.marines).toBe(2);
  });

  it('a ship without Defense rolls no point defence', () => {
    const h = hooks(rules, []);
    const a = model(withMarines(alexander, 3), 0, 'A');
    const b = model(alexander, 1, 'B');
    b.state.defense = 0;
    const r = initiateBoarding(h, boarding, a, b, 3, null);
    h.dice.assertConsumed();
    expect(r.boarded?.boarders).toBe(3);
  });

  it('boardedFight: the ship\'s Marines reach 0 → Captured; Boarders become its Marines, capped at the printed Marines (GM-75)', () => {
    // Printed Marines 4, 2 left; 3 Boarders roll [T5] (−2), the ship rolls [N].
    const h = hooks(rules, [5, 5, 5, 1, 2]);
    const b = model(withMarines(alexander, 4), 1, 'B', 2);
    const r = boardedFight(h, boarding, b, { boarders: 3, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r).toMatchObject({ captured: true, ended: true, newMarines: 3, boarded: null });
    expect(b.marines).toBe(3);

    // The cap: printed Marines 1; 3 Boarders roll [D4] against the single Marine.
    const h2 = hooks(rules, [4, 4, 1, 3]);
    const c = model(alexander, 1, 'C');
    const r2 = boardedFight(h2, boarding, c, { boarders: 3, boarderSide: 0 });
    h2.dice.assertConsumed();
    expect(r2).toMatchObject({ captured: true, ended: true, newMarines: 1 });
    expect(c.marines).toBe(1);
  });

  it('boardedFight: Boarders reach 0 → the state ends, the ship keeps its Marines', () => {
    const h = hooks(rules, [2, 3, 3]); // 1 Boarder [N]; 2 Marines [D3]
    const b = model(withMarines(alexander, 2), 1, 'B');
    const r = boardedFight(h, boarding, b, { boarders: 1, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r).toMatchObject({ captured: false, ended: true, newMarines: 2, boarded: null });
    expect(b.marines).toBe(2);
  });

  it('boardedFight: with both sides still standing the fight goes on; losses are simultaneous (GM-88)', () => {
    const h = hooks(rules, [6, 6, 1, 1]); // 2 Boarders [D6] (−1 Marine); 2 Marines [D1] (−1 Boarder)
    const b = model(withMarines(alexander, 2), 1, 'B');
    const r = boardedFight(h, boarding, b, { boarders: 2, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r.boardersCode).toBe(code('[D6]'));
    expect(r.marinesCode).toBe(code('[D1]'));
    expect(r).toMatchObject({ captured: false, ended: false, newMarines: 1, boarded: { boarders: 1, boarderSide: 0 } });
    expect(b.marines).toBe(1);
  });

  it('boardedFight: both sides wiped out at once → the state ends and the ship is not captured', () => {
    const h = hooks(rules, [4, 4, 4, 4, 5, 5, 5, 5]); // 4 Boarders [Q4]; 4 Marines [Q5]
    const d = model(withMarines(alexander, 4), 1, 'D');
    const r = boardedFight(h, boarding, d, { boarders: 4, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r).toMatchObject({ captured: false, ended: true, newMarines: 0, boarded: null });
    expect(d.marines).toBe(0);
  });

  it('boardedFight: a ship with no Marines left falls to any Boarders at the next fight', () => {
    const h = hooks(rules, [3]); // 1 Boarder rolls one die; the ship rolls none
    const t = model(withMarines(tengu, 2), 1, 'T', 0);
    const r = boardedFight(h, boarding, t, { boarders: 1, boarderSide: 0 });
    h.dice.assertConsumed();
    expect(r).toMatchObject({ captured: true, ended: true, newMarines: 1 });
  });
});

describe('v1.2.1: the Boarding Action (one raid)', () => {
  const { rules, boarding } = V121;

  it('point defence [D] kills one and repels the rest, who go back to their ship', () => {
    const h = hooks(rules, [1, 1]); // Defense 2: [D1]
    const a = model(withMarines(alexander, 4), 0, 'A');
    const b = model(withMarines(alexander, 2), 1, 'B');
    const r = initiateBoarding(h, boarding, a, b, 3, null);
    h.dice.assertConsumed(); // no Marines roll and no attack follow
    expect(r).toMatchObject({ repelled: true, survivors: 2, returned: 2, captured: false, structureDamage: 0, boarded: null });
    expect(a.marines).toBe(3); // lost at most the committed 3: here 1
    expect(b.marines).toBe(2);
    expect(b.state.structure).toBe(alexander.structure);
  });

  it('DV-11: point defence [N], defender Marines [D] (X = 2), boarders roll 5,5 → [D5] escalated [T5]: Structure −1, a critical, the ship loses a Marine', () => {
    const h = hooks(rules, [1, 2, 3, 3, 5, 5]);
    const a = model(withMarines(alexander, 4), 0, 'A');
    const b = model(withMarines(alexander, 2), 1, 'B');
    const r = initiateBoarding(h, boarding, a, b, 3, null);
    h.dice.assertConsumed();
    expect(r.pdCode).toBe(code('[N]'));
    expect(r.marineRollCasualties).toBe(1);
    expect(r.attackCode).toBe(code('[T5]'));
    expect(r).toMatchObject({ repelled: false, survivors: 2, returned: 2, structureDamage: 1, defenderMarinesLost: 1, captured: false });
    expect(b.state.structure).toBe(alexander.structure - 1);
    expect(h.tally.structure).toBe(1);
    expect(h.tally.criticals).toBe(1);
    expect(b.marines).toBe(1);
    expect(a.marines).toBe(3); // 4 − 3 committed + 2 home
  });

  it('every successful set costs the defender a Marine (per_set), or one per roll (per_roll)', () => {
    for (const [loss, left] of [['per_set', 1], ['per_roll', 2]] as const) {
      const br: BoardingRules = { ...boarding, defenderMarineLoss: loss };
      const h = hooks(rules, [3, 4, 3, 5, 6, 1, 1, 2, 2]); // PD [N]; 3 Marines [N]; 4 boarders [D1,D2] → [T1,T2]
      const a = model(withMarines(alexander, 4), 0, 'A');
      const b = model(withMarines(alexander, 3), 1, 'B');
      const r = initiateBoarding(h, br, a, b, 4, null);
      h.dice.assertConsumed();
      expect(r.attackCode).toBe(code('[T1,T2]'));
      expect(r.structureDamage).toBe(2);
      expect(b.marines).toBe(left);
    }
  });

  it('a defender without Marines makes no Marines roll and has none to lose', () => {
    const h = hooks(rules, [3, 4, 1, 1, 2, 2]); // PD [N]; 4 boarders [D1,D2] → [T1,T2]
    const b = model(alexander, 1, 'B', 0);
    const r = initiateBoarding(h, boarding, model(withMarines(alexander, 4), 0, 'A'), b, 4, null);
    h.dice.assertConsumed();
    expect(r).toMatchObject({ marineRollCasualties: 0, defenderMarinesLost: 0, structureDamage: 2 });
    expect(b.marines).toBe(0);
  });

  it('capture at 0 Structure (Capture121): the ship is Crippled and Captured, the marines still go home', () => {
    const h = hooks(rules, [2, 6, 6]); // Defense 1 (one die, no set); no Marines; [D6] → [T6]
    const a = model(withMarines(alexander, 2), 0, 'A');
    const b = model(tengu, 1, 'B'); // Marines 0
    b.state.defense = 1;
    b.state.structure = 1;
    const r = initiateBoarding(h, boarding, a, b, 2, null);
    h.dice.assertConsumed();
    expect(r).toMatchObject({ captured: true, structureDamage: 1, returned: 2, repelled: false });
    expect(b.state.structure).toBe(0);
    expect(b.state.crippled).toBe(true);
    expect(b.state.destroyed).toBe(false);
    expect(a.marines).toBe(2);
    expect(h.lines.some((l) => l.includes('Captured'))).toBe(true);
  });

  it('a ship already at 0 Structure is captured once marines get aboard; one the attack destroys is not', () => {
    const h = hooks(rules, [2, 1, 3]); // Defense 1; 2 boarders roll no set
    const a = model(withMarines(alexander, 2), 0, 'A');
    const hulk = model(tengu, 1, 'H');
    hulk.state.defense = 1;
    hulk.state.structure = 0;
    hulk.state.crippled = true;
    expect(initiateBoarding(h, boarding, a, hulk, 2, null).captured).toBe(true);

    // The same raid under rules whose 0 Structure means the Catastrophic Damage Table (Destroyed by default).
    const h2 = hooks(V122.rules, [2, 6, 6]);
    const b = model(tengu, 1, 'B');
    b.state.defense = 1;
    b.state.structure = 1;
    const r = initiateBoarding(h2, boarding, model(withMarines(alexander, 2), 0, 'A2'), b, 2, null);
    expect(b.state.destroyed).toBe(true);
    expect(r.captured).toBe(false);
  });

  it('with pdRepels off (PDRepel121 casualties-only) point defence only kills', () => {
    const br: BoardingRules = { ...boarding, pdRepels: false };
    const h = hooks(rules, [1, 1, 5, 6]); // PD [D1] −1; no defending Marines; 2 boarders [N]
    const a = model(withMarines(alexander, 3), 0, 'A');
    const b = model(tengu, 1, 'B');
    b.state.defense = 2;
    const r = initiateBoarding(h, br, a, b, 3, null);
    h.dice.assertConsumed();
    expect(r).toMatchObject({ repelled: false, survivors: 2, attackCode: 0, structureDamage: 0 });
    expect(a.marines).toBe(2);
  });
});

describe('the two procedures differ only by their BoardingRules', () => {
  it('the same dice: repelled and sent home by the raid, Boarders left aboard by the Boarded-state procedure', () => {
    const outcomes = [RAID_BOARDING, BOARDED_STATE_BOARDING].map((br) => {
      const h = hooks(V122.rules, [1, 1]);
      const a = model(withMarines(alexander, 4), 0, 'A');
      const b = model(alexander, 1, 'B');
      const r = initiateBoarding(h, br, a, b, 3, null);
      h.dice.assertConsumed();
      return { repelled: r.repelled, boarded: r.boarded, home: a.marines };
    });
    expect(outcomes).toEqual([
      { repelled: true, boarded: null, home: 3 },
      { repelled: false, boarded: { boarders: 2, boarderSide: 0 }, home: 1 },
    ]);
  });
});
