// Point defence, bombing and assault procedures (combat.md §8, §11; game.md §7.6, §7.7), driven
// by a scripted Roller (one outcome per roll) and a scripted Attack Window, so each rule step
// can be checked on its own.
import { describe, expect, it } from 'vitest';
import { parseOutcome, NO_RESULT, outcomeName } from '../../../src/dice/outcome.js';
import type { Pool } from '../../../src/dice/pool.js';
import { Roller } from '../../../src/dice/roll.js';
import { applyResults, DamageTally } from '../../../src/engine/damage.js';
import type { Participant, ProcedureHooks, WindowOptions } from '../../../src/engine/battle/procedures.js';
import {
  ASSAULT_FLEX,
  assault,
  bombing,
  engagePointDefence,
  pointDefenceAttack,
  type Interception,
  type StrikeRules,
} from '../../../src/engine/battle/strike.js';
import { CombatState } from '../../../src/engine/state.js';
import { sampleRosterFiles } from '../../../src/paths.js';
import { compileRules, type CompiledRules } from '../../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../../src/rules/interpretations.js';
import { getRulesVersion } from '../../../src/rules/registry.js';
import type { RandomStream } from '../../../src/rng/stream.js';
import { ScriptedDice } from '../../../src/rng/scripted.js';
import { loadRoster } from '../../../src/units/load.js';
import type { UnitCard } from '../../../src/units/types.js';
import { Battle, handBattle, miniScenario, put, watchShots } from '../../helpers/battle.js';
import { rulesFor, unit } from '../../helpers/units.js';

// The two rules versions as StrikeRules (combat.md §11.1 and §11.2; §16 item 15 for Heavy).
const OLDER: StrikeRules = { interceptOrPd: 'either', bombingIgnoresArmor: false, returnToBase: 'move', heavySkillDice: 1 };
const NEWER: StrikeRules = { interceptOrPd: 'pd_each_run', bombingIgnoresArmor: true, returnToBase: 'state', heavySkillDice: 0 };

const roster = loadRoster(sampleRosterFiles());
const card = (id: string, changes: Partial<UnitCard> = {}): UnitCard => ({ ...roster.units.get(id)!, ...changes });
const rules122 = compileRules(getRulesVersion('1.2.2'), DEFAULT_INTERPRETATIONS);
const rules121 = compileRules(getRulesVersion('1.2.1'), DEFAULT_INTERPRETATIONS);

function model(id: string, changes: Partial<UnitCard> = {}): Participant {
  const unit = card(id, changes);
  return { unit, state: new CombatState(unit), fuel: unit.fuel, label: unit.name };
}

const O = (text: string): number => {
  const code = parseOutcome(text);
  if (code === null) throw new Error(`bad outcome ${text}`);
  return code;
};

/** A Roller that answers each roll with the next scripted outcome and records the pools asked for. */
class ScriptRoller extends Roller {
  readonly bases: number[] = [];
  constructor(rules: CompiledRules, private readonly outcomes: number[]) {
    super(rules.dice);
  }
  override unopposed(pool: Pool, _rng: RandomStream): number {
    this.bases.push(pool.base);
    const next = this.outcomes.shift();
    if (next === undefined) throw new Error('script roller: no outcome left');
    return next;
  }
  get left(): number {
    return this.outcomes.length;
  }
}

interface Harness {
  hooks: ProcedureHooks;
  roller: ScriptRoller;
  windows: Array<{ att: string; tgt: string; opts: WindowOptions }>;
  notes: string[];
}

/** Hooks with scripted rolls; each Attack Window makes every attack it may and applies the next `hits` outcome to the target. */
function harness(rules: CompiledRules, rolls: string[], hits: string[] = []): Harness {
  const roller = new ScriptRoller(rules, rolls.map(O));
  const windows: Harness['windows'] = [];
  const notes: string[] = [];
  const tally = new DamageTally();
  const hooks: ProcedureHooks = {
    rules,
    roller,
    rng: new ScriptedDice([]),
    tally,
    attackWindow(att, tgt, opts) {
      windows.push({ att: att.label, tgt: tgt.label, opts });
      const hit = hits.shift();
      if (hit) applyResults(rules, tgt.state, O(hit), tally);
      return opts.fc;
    },
    note: (line) => notes.push(line),
  };
  return { hooks, roller, windows, notes };
}

/** An interception whose dogfight costs the bomber `fuel` and which it survives (or not). */
function dogfight(fuel: number, survived = true) {
  const calls: string[] = [];
  const fn = (p: Participant): Interception => {
    calls.push(p.label);
    p.fuel -= fuel;
    if (!survived) p.state.destroyed = true;
    return { survived };
  };
  return { fn, calls };
}

const always = (answer: boolean) => {
  const asked: number[] = [];
  return { asked, continueRun: (_b: Participant, i: number) => (asked.push(i), answer) };
};

describe('point defence attacks', () => {
  it('roll the current Defense as the base pool, no macro, and hit squadrons on the squadron table', () => {
    const h = harness(rules122, ['[T2]']);
    const ship = model('unknown.thunderbolt');
    ship.state.defense = 3;
    const wyvern = model('cega.wyvern');
    const code = pointDefenceAttack(h.hooks, ship, wyvern);
    expect(code).toBe(O('[T2]'));
    expect(h.roller.bases).toEqual([3]);
    expect(wyvern.state.structure).toBe(5 - 2);
  });

  it('diminished (Engage Point Defense on an Assaulting squadron): each Result drops a step, a [D] vanishes', () => {
    const h = harness(rules122, ['[D1,T2,Q5]', '[D3]']);
    const ship = model('unknown.thunderbolt');
    const wyvern = model('cega.wyvern');
    expect(pointDefenceAttack(h.hooks, ship, wyvern, { diminish: true })).toBe(O('[D2,T5]'));
    expect(wyvern.state.structure).toBe(5 - 1 - 2); // the [Q] became a [T]: not destroyed
    expect(wyvern.state.destroyed).toBe(false);
    expect(pointDefenceAttack(h.hooks, ship, wyvern, { diminish: true })).toBe(NO_RESULT);
    expect(wyvern.state.structure).toBe(2);
  });

  it('with real dice: Defense 3 rolling 4,4,4 is [T4], diminished to [D4]', () => {
    for (const [diminish, left] of [[false, 3], [true, 4]] as const) {
      const ship = model('unknown.thunderbolt');
      ship.state.defense = 3;
      const wyvern = model('cega.wyvern');
      const dice = new ScriptedDice([4, 4, 4]);
      const hooks: ProcedureHooks = { ...harness(rules122, []).hooks, roller: new Roller(rules122.dice), rng: dice };
      pointDefenceAttack(hooks, ship, wyvern, { diminish });
      dice.assertConsumed();
      expect(wyvern.state.structure).toBe(left);
    }
  });

  it('Engage Point Defense attacks each listed squadron once, skipping the destroyed, diminishing the Assaulting', () => {
    const h = harness(rules122, ['[D2]', '[T3]']);
    const ship = model('unknown.thunderbolt');
    ship.state.defense = 3;
    const wyvern = model('cega.wyvern');
    const pathfinder = model('jovian.pathfinder');
    const gone = model('unknown.wraith');
    gone.state.destroyed = true;
    const codes = engagePointDefence(h.hooks, ship, [wyvern, gone, pathfinder], { diminish: (p) => p === pathfinder });
    expect(codes).toEqual([O('[D2]'), NO_RESULT, O('[D3]')]);
    expect(h.roller.bases).toEqual([3, 3]);
    expect(h.roller.left).toBe(0);
    expect(wyvern.state.structure).toBe(4);
    expect(pathfinder.state.structure).toBe(5); // [T3] diminished to [D3]
  });
});

describe('bombing: the Wraith example (game.md §7.6, combat.md TV-15/TV-16)', () => {
  it('newer rules: interception once, Skill Test [D], PD [N] then [D]; two runs for 1 Fuel; RTB state', () => {
    // Rolls in order: Skill Test, PD of run 1, PD of run 2. The Thunderbolt's Defense is raised
    // to 3 here (the card's 1 is a lower bound), since one die can never roll a [D].
    const h = harness(rules122, ['[D4]', '[N]', '[D3]'], ['[D1]', '[D1,T5]']);
    const wraith = model('unknown.wraith');
    const tb = model('unknown.thunderbolt');
    tb.state.defense = 3;
    const df = dogfight(1);
    const choose = always(true);
    const r = bombing(h.hooks, NEWER, wraith, tb, df.fn, choose);
    expect(df.calls).toEqual(['Wraith']); // once, before the runs
    expect(r).toMatchObject({ runs: 2, fuelSpent: 1, rtb: true, destroyed: false, skillTest: 'passed', attacks: 4 });
    expect(wraith.fuel).toBe(0);
    expect(wraith.state.structure).toBe(5 - 1); // the second run's PD [D]
    // Skill 2 (no Heavy die in v1.2.2: TV-15); then the current Defense: 3, and 2 after run 1's [D1] hit it.
    expect(h.roller.bases).toEqual([2, 3, 2]);
    expect(h.roller.left).toBe(0);
    expect(choose.asked).toEqual([1]); // asked before run 2 only; then out of Fuel
    expect(h.windows).toHaveLength(2);
    for (const w of h.windows) expect(w.opts).toEqual({ kind: 'bombing', fc: 2, noMissileDefence: true, ignoreArmor: true });
    // [D1] then [D1,T5] on the Thunderbolt: Defense 3 -> 1, Structure 6 -> 5, and the [T] brings
    // exactly one Critical (TV-15: -1 Structure, 1 Critical).
    expect(tb.state.defense).toBe(1);
    expect(tb.state.structure).toBe(5);
    // The tally is shared: 1 Structure from the Wraith (PD [D3]) and 1 from the Thunderbolt; the
    // one Critical is the Thunderbolt's (squadrons take none).
    expect(h.hooks.tally.structure).toBe(2);
    expect(h.hooks.tally.criticals).toBe(1);
    expect(h.notes.some((l) => /enters Return to Base/.test(l))).toBe(true);
  });

  it('older rules: the interception replaces run 1\'s PD; run 2 gets PD [D]; armor applies; RTB move', () => {
    const h = harness(rules121, ['[D2]', '[D3]']); // Skill Test, PD of run 2
    const wraith = model('unknown.wraith');
    const tb = model('unknown.thunderbolt');
    tb.state.defense = 2;
    let calls = 0;
    const intercept = (p: Participant): Interception => {
      calls++;
      if (calls > 1) return 'none'; // the Pathfinder is gone: the defender uses PD
      p.fuel -= 1;
      return { survived: true };
    };
    const r = bombing(h.hooks, OLDER, wraith, tb, intercept, always(true));
    expect(calls).toBe(2); // asked in each run
    expect(r).toMatchObject({ runs: 2, fuelSpent: 1, rtb: true, skillTest: 'passed' });
    expect(wraith.fuel).toBe(0);
    expect(wraith.state.structure).toBe(4);
    expect(h.roller.bases).toEqual([3, 2]);
    expect(h.windows.map((w) => w.opts)).toEqual([
      { kind: 'bombing', fc: 2, noMissileDefence: true, ignoreArmor: false },
      { kind: 'bombing', fc: 2, noMissileDefence: true, ignoreArmor: false },
    ]);
    expect(h.notes.some((l) => /Return to Base move/.test(l))).toBe(true);
  });
});

describe('bombing: Fuel, the free first run and stopping', () => {
  for (const [name, br] of [['older', OLDER], ['newer', NEWER]] as const) {
    it(`${name} rules: the first run is free only when the bomber's Speed >= the target's`, () => {
      // Wraith Speed 10, Fuel 2, no interceptions, always carries on.
      for (const [targetSpeed, runs] of [[5, 3], [10, 3], [11, 2]] as const) {
        const h = harness(rules122, ['[N]', '[N]', '[N]']);
        const wraith = model('unknown.wraith');
        const tb = model('unknown.thunderbolt', { speed: targetSpeed });
        const r = bombing(h.hooks, br, wraith, tb, () => 'none', always(true));
        expect(r, `target Speed ${targetSpeed}`).toMatchObject({ runs, fuelSpent: 2, rtb: true, skillTest: null });
        expect(wraith.fuel).toBe(0);
        expect(h.windows).toHaveLength(runs);
      }
    });
  }

  it('stopping early: the owner declines run 2 and returns to base with Fuel left', () => {
    const h = harness(rules122, ['[N]']);
    const wraith = model('unknown.wraith');
    const choose = always(false);
    const r = bombing(h.hooks, NEWER, wraith, model('unknown.thunderbolt'), () => 'none', choose);
    expect(r).toMatchObject({ runs: 1, fuelSpent: 0, rtb: true });
    expect(choose.asked).toEqual([1]);
    expect(wraith.fuel).toBe(2);
  });

  it('a bomber shot down by point defence ends the bombing without RTB', () => {
    const h = harness(rules122, ['[N]', '[Q2]']);
    const r = bombing(h.hooks, NEWER, model('unknown.wraith'), model('unknown.thunderbolt'), () => 'none', always(true));
    expect(r).toMatchObject({ runs: 2, fuelSpent: 1, rtb: false, destroyed: true });
    expect(h.windows).toHaveLength(1);
  });

  it('a bomber destroyed in the dogfight makes no run', () => {
    for (const br of [OLDER, NEWER]) {
      const h1 = harness(rules122, []);
      const r1 = bombing(h1.hooks, br, model('unknown.wraith'), model('unknown.thunderbolt'), dogfight(1, false).fn, always(true));
      expect(r1).toMatchObject({ destroyed: true, rtb: false });
      expect(h1.windows).toHaveLength(0);
    }
  });

  it('newer rules: a survivor with no Fuel left enters Return to Base without attacking (game.md §7.5)', () => {
    const h2 = harness(rules122, []);
    const r2 = bombing(h2.hooks, NEWER, model('unknown.wraith'), model('unknown.thunderbolt'), dogfight(2).fn, always(true));
    expect(r2).toMatchObject({ destroyed: false, rtb: true, skillTest: null, runs: 0 });
    expect(h2.windows).toHaveLength(0);
  });

  it('older rules: a survivor with no Fuel left takes no Skill Test, attacks in the run it began, then returns (game.md §7.6)', () => {
    const h = harness(rules121, []);
    const r = bombing(h.hooks, OLDER, model('unknown.wraith'), model('unknown.thunderbolt'), dogfight(2).fn, always(true));
    expect(r).toMatchObject({ destroyed: false, rtb: true, skillTest: null, runs: 1 });
    expect(h.roller.bases).toEqual([]); // no Skill Test; the interception replaced the PD
    expect(h.windows.map((w) => w.opts.fc)).toEqual([2]);
  });

  it('older rules: a bomber that broke off from the dogfight makes no more attacks (combat.md §10.1)', () => {
    const h = harness(rules121, []);
    const brokeOff = (p: Participant): Interception => {
      p.fuel -= 1;
      return { survived: true, noMoreAttacks: true };
    };
    const r = bombing(h.hooks, OLDER, model('unknown.wraith'), model('unknown.thunderbolt'), brokeOff, always(true));
    expect(r).toMatchObject({ destroyed: false, rtb: true, skillTest: null, attacks: 0 });
    expect(h.windows).toHaveLength(0);
  });
});

describe('bombing: a failed post-interception Skill Test ([N])', () => {
  it('older rules: one attack at FC 1 in that run, then an RTB move', () => {
    const h = harness(rules121, ['[N]']);
    const wraith = model('unknown.wraith');
    const choose = always(true);
    const r = bombing(h.hooks, OLDER, wraith, model('unknown.thunderbolt'), dogfight(1).fn, choose);
    expect(r).toMatchObject({ runs: 1, fuelSpent: 0, rtb: true, skillTest: 'failed', attacks: 1 });
    expect(h.windows.map((w) => w.opts.fc)).toEqual([1]);
    expect(h.roller.bases).toEqual([3]); // only the Skill Test: the interception replaced the PD
    expect(choose.asked).toEqual([]);
    expect(wraith.fuel).toBe(1);
  });

  it('newer rules: one run at FC 1 (PD first), then Return to Base', () => {
    const h = harness(rules122, ['[N]', '[N]']);
    const wraith = model('unknown.wraith');
    const r = bombing(h.hooks, NEWER, wraith, model('unknown.thunderbolt'), dogfight(1).fn, always(true));
    expect(r).toMatchObject({ runs: 1, fuelSpent: 0, rtb: true, skillTest: 'failed', attacks: 1 });
    expect(h.windows.map((w) => w.opts.fc)).toEqual([1]);
    expect(h.roller.bases).toEqual([2, 1]); // Skill 2, no Heavy die (TV-15); then PD 1
  });

  it('older rules: without the Heavy trait the Skill Test is Skill dice only', () => {
    const h = harness(rules121, ['[D1]']);
    const noHeavy = model('unknown.wraith', { traits: new Map() });
    bombing(h.hooks, OLDER, noHeavy, model('unknown.thunderbolt'), dogfight(1).fn, always(false));
    expect(h.roller.bases).toEqual([2]);
  });

  it('the rules data: the Heavy die is v1.2.1 only (TV-16 rolls it, TV-15 does not)', () => {
    expect(rules121.version.data.game.strike.heavySkillDice).toBe(1);
    expect(rules122.version.data.game.strike.heavySkillDice).toBe(0);
  });
});

describe('assault (combat.md §11.3)', () => {
  it('a [T] point defence drives the exo-armor off: damage applies, no window', () => {
    const h = harness(rules122, ['[T6]']);
    const wyvern = model('cega.wyvern');
    const r = assault(h.hooks, wyvern, model('unknown.thunderbolt'), () => 'none', { stayAssaulting: () => true });
    expect(r).toMatchObject({ end: 'driven_off', pd: O('[T6]'), window: false, attacks: 0 });
    expect(wyvern.state.structure).toBe(3);
    expect(h.windows).toHaveLength(0);
  });

  it('surviving a [D]: one Attack Window with +2 Flex, AS as AC, no missile defence, no Armor; then the owner chooses', () => {
    for (const [choice, end] of [[true, 'assaulting'], [false, 'return_to_base']] as const) {
      const h = harness(rules122, ['[D5]']);
      const wyvern = model('cega.wyvern');
      const r = assault(h.hooks, wyvern, model('unknown.thunderbolt'), () => 'none', { stayAssaulting: () => choice });
      expect(r).toMatchObject({ end, window: true, attacks: 2 });
      expect(wyvern.state.structure).toBe(4);
      expect(h.windows).toEqual([{ att: 'Wyvern', tgt: 'Thunderbolt', opts: { kind: 'assault', fc: 2, flex: 2, assault: true, noMissileDefence: true, ignoreArmor: true } }]);
    }
  });

  it('without a chooser the result is undecided; a [Q] destroys; an interception comes first', () => {
    const h = harness(rules122, ['[N]', '[Q1]']);
    expect(assault(h.hooks, model('cega.wyvern'), model('unknown.thunderbolt'), () => 'none').end).toBe('undecided');
    const df = dogfight(1);
    const wyvern = model('cega.wyvern');
    const r = assault(h.hooks, wyvern, model('unknown.thunderbolt'), df.fn);
    expect(df.calls).toEqual(['Wyvern']);
    expect(r).toMatchObject({ end: 'destroyed', window: false });
    expect(wyvern.state.destroyed).toBe(true);
    // Out of Fuel after the dogfight: Return to Base, no PD roll.
    const h2 = harness(rules122, []);
    expect(assault(h2.hooks, model('cega.wyvern'), model('unknown.thunderbolt'), dogfight(2).fn).end).toBe('return_to_base');
  });

  it('only Exo-Armor may assault', () => {
    const h = harness(rules122, []);
    expect(() => assault(h.hooks, model('unknown.wraith'), model('unknown.thunderbolt'), () => 'none')).toThrow(/Exo-Armor/);
  });
});

// combat.md DV-09 through the battle's own Attack Window (Battle's procedure hooks -> Gunnery ->
// planAttack), with the WindowOptions assault() opens (checked above). The plans the window
// builds are caught on their way out of Gunnery.entry. Exo-Armor weapons AC 1 / AS 3 / Macro 0
// (one a missile) against a ship with Armor 2 in every arc and Defense 3, the exo in base
// contact with the ship's Fore arc (an Assault needs base contact).
describe('DV-09: the Assault attack pool in a battle (combat.md §11.3)', () => {
  interface Seen {
    weapon: string;
    pool: Pool;
    defence: Pool | null;
  }
  function assaultWindow(opts: WindowOptions, side = false): Seen[] {
    const exo = unit({ id: 'test.exo', name: 'Exo', type: 'exo_armor', fireControl: 2, weapons: [{ name: 'Gun', cls: 'other', ac: 1, as: 3, macro: 0 }, { name: 'Missiles', cls: 'missile', ac: 1, as: 3, macro: 0 }] });
    const ship = unit({ id: 'test.ship', name: 'Ship', armor: { fore: 2, portStarboard: 2, aft: 2 }, defense: 3, structure: 12, base: { widthIn: 1.5, lengthIn: 2 } });
    const battle = new Battle(rulesFor('1.2.2'), miniScenario({ a: [exo], b: [ship] }));
    handBattle(battle, 'dv-09');
    const [e, s] = battle.models;
    put(s, 24, 24, 0);
    // Touching (to within 0.001") the ship's bow, or its starboard side.
    if (side) put(e, 24 + 0.75 + 0.5 + 0.001, 24, 0);
    else put(e, 24, 24 + 1 + 0.5 + 0.001, 0);
    const seen: Seen[] = [];
    watchShots(battle, (plan) => seen.push({ weapon: plan.weapon.name, pool: plan.pool, defence: plan.defence }));
    const hooks = (battle as unknown as { procedureHooks(rec: null): ProcedureHooks }).procedureHooks(null);
    expect(hooks.attackWindow(e, s, opts)).toBe(2);
    return seen;
  }
  const ASSAULT: WindowOptions = { kind: 'assault', fc: 2, flex: ASSAULT_FLEX, assault: true, noMissileDefence: true, ignoreArmor: true };

  it('AS 3 used as AC (base 3), Armor 2 ignored (Macro 0), and no point defence against the missile', () => {
    const seen = assaultWindow(ASSAULT);
    expect(seen.map((x) => x.weapon).sort()).toEqual(['Gun', 'Missiles']);
    for (const x of seen) {
      expect([x.pool.base, x.pool.macro], x.weapon).toEqual([3, 0]);
      expect(x.defence, x.weapon).toBeNull();
    }
    // The yardstick: the same window without the Assault's options rolls AC 1 with Macro 0 - 2 = -2,
    // and the ship defends against the missile with its Defense 3.
    const plain = assaultWindow({ kind: 'dogfight', fc: 2 });
    for (const x of plain) expect([x.pool.base, x.pool.macro], x.weapon).toEqual([1, -2]);
    expect(plain.find((x) => x.weapon === 'Missiles')!.defence?.base).toBe(3);
  });

  // DV-09 (and combat.md §5.3 Table122: "Assault = +2 flex only"; the short-range and P/S
  // bonuses belong to the Activation window) give roll 5 keep 3, in base contact at the bow and
  // at the side alike.
  it('DV-09: +2 Flex and nothing more, roll 5 keep 3 (5,5,5,1,2 -> [T5]), at the bow and at the side', () => {
    for (const side of [false, true]) {
      for (const x of assaultWindow(ASSAULT, side)) {
        expect({ base: x.pool.base, flex: x.pool.flex, macro: x.pool.macro }, `${x.weapon}${side ? ' (side)' : ''}`).toEqual({ base: 3, flex: 2, macro: 0 });
        const dice = new ScriptedDice([5, 5, 5, 1, 2]);
        expect(outcomeName(new Roller(rules122.dice).unopposed(x.pool, dice))).toBe('[T5]');
        dice.assertConsumed();
      }
    }
  });
});

// The bonuses of each kind of Attack Window in a battle (combat.md §5.3 Table122, §8
// Dogfight122, §11.1): the side, rear and short-range bonuses belong to a model's own
// Activation. A v1.2.2 Bombing attack gets +1 Flex and nothing else; a v1.2.1 Bombing Run
// attack "does" get the flank and rear modifiers (+1 base die from the side, Flank121);
// v1.2.2 dogfight attacks get no short-range Flex. Pools are caught on their way out of
// Gunnery.entry, as for DV-09 above.
describe('what each Attack Window adds to the pool (combat.md §5.3)', () => {
  function pools(version: '1.2.1' | '1.2.2', att: UnitCard, tgt: UnitCard, opts: WindowOptions, where: 'bow' | 'side'): Pool[] {
    const battle = new Battle(rulesFor(version), miniScenario({ a: [att], b: [tgt] }));
    handBattle(battle, 'windows');
    const [a, t] = battle.models;
    put(t, 24, 24, 0);
    const half = t.unit.isCapital ? { len: 1, wid: 0.75 } : { len: 0.5, wid: 0.5 };
    if (where === 'side') put(a, 24 + half.wid + 0.5 + 0.001, 24, 0);
    else put(a, 24, 24 + half.len + 0.5 + 0.001, 0);
    const seen: Pool[] = [];
    watchShots(battle, (plan) => seen.push(plan.pool));
    const hooks = (battle as unknown as { procedureHooks(rec: null): ProcedureHooks }).procedureHooks(null);
    expect(hooks.attackWindow(a, t, opts)).toBe(1);
    expect(seen.length).toBe(1);
    return seen;
  }
  const bomber = unit({ id: 'test.bomber', name: 'Bomber', type: 'fighter', fireControl: 1, weapons: [{ name: 'Torpedo', cls: 'other', ac: 3, as: 1, macro: 0 }] });
  const ship = unit({ id: 'test.ship', name: 'Ship', armor: { fore: 0, portStarboard: 0, aft: 0 }, defense: 0, structure: 12, base: { widthIn: 1.5, lengthIn: 2 } });
  const shape = (p: Pool) => ({ base: p.base, flex: p.flex, macro: p.macro });

  it('v1.2.2 Bombing: +1 Flex only, at the bow and at the side (no short-range or side Flex)', () => {
    for (const where of ['bow', 'side'] as const) {
      const [p] = pools('1.2.2', bomber, ship, { kind: 'bombing', fc: 1, noMissileDefence: true, ignoreArmor: true }, where);
      expect(shape(p), where).toEqual({ base: 3, flex: 1, macro: 0 });
    }
  });

  it('v1.2.1 Bombing Run: the flank modifier applies (+1 base die from the side), no Flex', () => {
    expect(shape(pools('1.2.1', bomber, ship, { kind: 'bombing', fc: 1, noMissileDefence: true, ignoreArmor: false }, 'bow')[0])).toEqual({ base: 3, flex: 0, macro: 0 });
    expect(shape(pools('1.2.1', bomber, ship, { kind: 'bombing', fc: 1, noMissileDefence: true, ignoreArmor: false }, 'side')[0])).toEqual({ base: 4, flex: 0, macro: 0 });
  });

  it('dogfight windows leave Nuke and Bomb weapons out (combat.md §7); other windows use them', () => {
    const bomberWithNuke = unit({ id: 'test.nuker', name: 'Nuker', type: 'fighter', fireControl: 2, weapons: [{ name: 'Guns', cls: 'other', ac: 1, as: 2, macro: 0 }, { name: 'Nuke', cls: 'other', ac: 6, as: 6, macro: 0, traits: [['Nuke', 1]] }] });
    const prey = unit({ id: 'test.prey', name: 'Prey', type: 'fighter', weapons: [] });
    const fired = (opts: WindowOptions) => {
      const battle = new Battle(rulesFor('1.2.2'), miniScenario({ a: [bomberWithNuke], b: [prey] }));
      handBattle(battle, 'nuke');
      const [a, t] = battle.models;
      put(t, 24, 24, 0);
      put(a, 24, 25.001, 0);
      const names: string[] = [];
      watchShots(battle, (plan) => names.push(plan.weapon.name));
      (battle as unknown as { procedureHooks(rec: null): ProcedureHooks }).procedureHooks(null).attackWindow(a, t, opts);
      return [...new Set(names)].sort();
    };
    expect(fired({ kind: 'dogfight', fc: 2, noMissileDefence: true, noBombs: true })).toEqual(['Guns']);
    expect(fired({ kind: 'bombing', fc: 2, noMissileDefence: true })).toEqual(['Guns', 'Nuke']);
  });

  it('v1.2.2 dogfight: no short-range Flex between squadrons in base contact', () => {
    const fighter = unit({ id: 'test.fighter', name: 'Fighter', type: 'fighter', fireControl: 1, weapons: [{ name: 'Guns', cls: 'other', ac: 1, as: 3, macro: 0 }] });
    const [p] = pools('1.2.2', fighter, { ...fighter, id: 'test.fighter2', name: 'Fighter 2' }, { kind: 'dogfight', fc: 1, noMissileDefence: true, noBombs: true }, 'bow');
    expect(shape(p)).toEqual({ base: 3, flex: 0, macro: 0 });
  });
});

// A squadron Assaulting an enemy ship sits in base contact with it (§11.4); it does not leave
// the ship to intercept a bomber attacking its own side (that would take it off the ship while
// still Assaulting). Without the Assault the same squadron intercepts.
describe('passive interception by an Assaulting squadron', () => {
  it('an Assaulting squadron does not intercept; the same squadron not Assaulting does', () => {
    const results: string[] = [];
    for (const assaulting of [true, false]) {
      const fighter = unit({ id: 'test.fighter', name: 'Fighter', type: 'fighter', fireControl: 1, speed: 10, fuel: 3, weapons: [{ name: 'Guns', cls: 'other', ac: 1, as: 3, macro: 0 }] });
      const hull = unit({ id: 'test.hull', name: 'Hull', armor: { fore: 0, portStarboard: 0, aft: 0 }, defense: 0, structure: 12, base: { widthIn: 1.5, lengthIn: 2 } });
      const battle = new Battle(rulesFor('1.2.2'), miniScenario({ a: [hull, fighter], b: [hull, fighter] }));
      handBattle(battle, 'no-intercept');
      const [ownShip, defender, enemyShip, bomber] = battle.models;
      put(ownShip, 20, 20, 0);
      put(defender, 22, 20, 0); // within 3" of its own ship
      put(enemyShip, 23.25 + 0.001, 20, 0); // the defender touches it (x 22.5..24)
      put(bomber, 20, 21 + 0.5 + 0.001, 0); // in contact with the own ship's bow
      defender.assaulting = assaulting ? enemyShip : null;
      const intercept = (battle as unknown as { interceptFor(ship: unknown, rec: null): (s: unknown) => unknown }).interceptFor(ownShip, null);
      const r = intercept(bomber);
      results.push(r === 'none' ? 'none' : 'intercepted');
      if (assaulting) expect([defender.base.x, defender.base.y]).toEqual([22, 20]); // still on the enemy ship
    }
    expect(results).toEqual(['none', 'intercepted']);
  });
});

describe('bombing_pd_drive_off=T_PLUS (NoDriveOff122 alternative)', () => {
  it('a [T+] point defence result drives the bomber off before it attacks; a [D] does not', () => {
    const h = harness(rules122, ['[T4]']);
    const r = bombing(h.hooks, { ...NEWER, pdDrivesOff: true }, model('unknown.wraith'), model('unknown.thunderbolt'), () => 'none', always(true));
    expect(r).toMatchObject({ runs: 1, rtb: true, attacks: 0, destroyed: false });
    expect(h.windows).toHaveLength(0);
    expect(h.notes.some((l) => l.includes('driven off by point defence'))).toBe(true);
    const h2 = harness(rules122, ['[D4]']);
    const r2 = bombing(h2.hooks, { ...NEWER, pdDrivesOff: true }, model('unknown.wraith'), model('unknown.thunderbolt'), () => 'none', always(false));
    expect(h2.windows).toHaveLength(1);
    expect(r2.runs).toBe(1);
  });
});
