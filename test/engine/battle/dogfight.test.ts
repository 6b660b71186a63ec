// Dogfight procedure (game.md §7.5, GM-69/71/72, §10.2 GM-77; combat.md §10, §8.1, §9.1/9.2)
// with scripted hooks: Attack Windows apply scripted outcomes, Skill Tests and Point Defense
// attacks roll scripted dice through the real Roller.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOutcome } from '../../../src/dice/outcome.js';
import { Roller } from '../../../src/dice/roll.js';
import { applyResults, DamageTally } from '../../../src/engine/damage.js';
import { battleRules } from '../../../src/engine/battle/battleRules.js';
import {
  dogfight,
  dogfightFireControl,
  legalDogfightChoices,
  mayIntercept,
  type DogfightChoice,
  type DogfightChooser,
  type DogfightRules,
} from '../../../src/engine/battle/dogfight.js';
import type { Participant, ProcedureHooks, WindowOptions } from '../../../src/engine/battle/procedures.js';
import { CombatState } from '../../../src/engine/state.js';
import { sampleRosterFiles } from '../../../src/paths.js';
import { compileRules, type CompiledRules } from '../../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../../src/rules/interpretations.js';
import { getRulesVersion } from '../../../src/rules/registry.js';
import { ScriptedDice } from '../../../src/rng/scripted.js';
import type { RandomStream } from '../../../src/rng/stream.js';
import type { TraitName } from '../../../src/units/catalogue.js';
import { loadRoster } from '../../../src/units/load.js';
import type { UnitCard } from '../../../src/units/types.js';

/** Fixtures: the dogfight rules of each edition, as the version data will hold them. */
export const DOGFIGHT_V121: DogfightRules = {
  breakOffTest: 'skill_or_fuel',
  breakOffFailAllowsRtb: false,
  breakerMayAttackAgain: false,
  afterwards: 'free_move',
  stayOnTarget: 'active_only',
};
export const DOGFIGHT_V122: DogfightRules = {
  breakOffTest: 'skill',
  breakOffFailAllowsRtb: true,
  breakerMayAttackAgain: true,
  afterwards: 'rtb_if_no_fuel',
  stayOnTarget: 'either',
};

const roster = loadRoster(sampleRosterFiles());
function card(id: string, patch: Partial<UnitCard> = {}, traits: TraitName[] = []): UnitCard {
  const base = roster.units.get(id);
  if (!base) throw new Error(`no unit ${id}`);
  const t = new Map(base.traits);
  for (const name of traits) t.set(name, 1);
  return { ...base, ...patch, traits: t };
}

const compiled = new Map<string, CompiledRules>();
function rulesOf(version: '1.2.1' | '1.2.2'): CompiledRules {
  let r = compiled.get(version);
  if (!r) compiled.set(version, (r = compileRules(getRulesVersion(version), DEFAULT_INTERPRETATIONS)));
  return r;
}

function model(unit: UnitCard, label: string, structure?: number): Participant {
  const state = new CombatState(unit);
  if (structure !== undefined) state.structure = structure;
  return { unit, state, fuel: unit.fuel, label };
}

interface WindowCall {
  att: string;
  tgt: string;
  opts: WindowOptions;
}

/** Hooks whose Attack Windows play back `windows` (outcome texts, one per attack) in order. */
function scriptedHooks(rules: CompiledRules, windows: string[][], rng: RandomStream = new ScriptedDice([])) {
  const calls: WindowCall[] = [];
  const lines: string[] = [];
  const tally = new DamageTally();
  let next = 0;
  const hooks: ProcedureHooks = {
    rules,
    roller: new Roller(rules.dice),
    rng,
    tally,
    attackWindow(att, tgt, opts) {
      calls.push({ att: att.label, tgt: tgt.label, opts });
      const script = windows[next++];
      if (!script) throw new Error(`unscripted Attack Window #${next}`);
      if (script.length > opts.fc) throw new Error(`${script.length} attacks scripted but FC is ${opts.fc}`);
      for (const text of script) {
        const code = parseOutcome(text);
        if (code === null) throw new Error(`bad outcome ${text}`);
        applyResults(rules, tgt.state, code, tally);
      }
      return script.length;
    },
    note(line) {
      lines.push(line);
    },
  };
  return { hooks, calls, lines, windowsUsed: () => next };
}

/** A chooser that plays back a list of choices per label and records what was offered. */
function scriptedChooser(plan: Record<string, DogfightChoice[]>) {
  const offered: Array<{ who: string; round: number; legal: readonly DogfightChoice[] }> = [];
  const choose: DogfightChooser = (self, _other, round, legal) => {
    offered.push({ who: self.label, round, legal: [...legal] });
    const c = plan[self.label]?.shift();
    if (!c) throw new Error(`no choice scripted for ${self.label} in round ${round} (legal: ${legal.join(', ')})`);
    return c;
  };
  return { choose, offered };
}

const alwaysEngage: DogfightChooser = (_s, _o, _r, legal) => (legal.includes('engage') ? 'engage' : legal[0]);

describe('worked example: Wyvern vs a damaged Pathfinder (game.md §7.5; combat.md TV-14)', () => {
  // The Pathfinder has 3 Structure left: 1 damage, then 2 more destroy it.
  const script = [['[N]', '[D2]'], ['[D4]'], ['[D1]', '[D5]']];

  for (const [version, dr] of [['1.2.1', DOGFIGHT_V121], ['1.2.2', DOGFIGHT_V122]] as const) {
    it(`${version}: Engage, reply, Engage; the Pathfinder is destroyed`, () => {
      const rules = rulesOf(version);
      const wyvern = model(card('cega.wyvern'), 'Wyvern');
      const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder', 3);
      expect(wyvern.fuel).toBe(2);
      expect(pathfinder.fuel).toBe(3);
      const { hooks, calls, lines } = scriptedHooks(rules, script);
      const r = dogfight(hooks, dr, wyvern, pathfinder, alwaysEngage);

      expect(calls.map((c) => `${c.att}->${c.tgt}`)).toEqual(['Wyvern->Pathfinder', 'Pathfinder->Wyvern', 'Wyvern->Pathfinder']);
      for (const c of calls) {
        expect(c.opts.noMissileDefence).toBe(true);
        expect(c.opts.noBombs).toBe(true);
      }
      expect(calls[0].opts.fc).toBe(2);
      // combat.md TV-14 step by step: the Wyvern's first Engage ([N], [D]) costs the Pathfinder 1
      // (3 -> 2), its reply [D] costs the Wyvern 1, the second Engage ([D], [D]) destroys it.
      const engages = lines.filter((l) => l.includes(' Engages '));
      expect(engages).toHaveLength(3);
      expect(engages[0]).toMatch(/Wyvern Engages Pathfinder .*Fuel 2->1.*Pathfinder Structure 2$/);
      expect(engages[1]).toMatch(new RegExp(`Pathfinder Engages Wyvern .*Fuel 3->2.*Wyvern Structure ${wyvern.unit.structure - 1}$`));
      expect(engages[2]).toMatch(/Wyvern Engages Pathfinder .*Fuel 1->0.*Pathfinder destroyed$/);
      // The fixture is the version's own dogfight data, so this is the procedure a battle runs.
      expect(battleRules(rules).dogfight).toEqual(dr);
      expect(r.ended).toBe('destroyed');
      expect(r.rounds).toBe(2);
      expect(r.actions).toBe(3);
      expect(pathfinder.state.destroyed).toBe(true);
      expect(wyvern.state.structure).toBe(wyvern.unit.structure - 1);
      expect(wyvern.fuel).toBe(0);
      expect(pathfinder.fuel).toBe(2);
      expect(r.breaker).toBeNull();
      if (version === '1.2.1') {
        // The Wyvern may move once (or make an RTB move, which is the caller's call).
        expect(r.freeMove).toEqual([wyvern]);
        expect(r.rtb).toEqual([]);
      } else {
        // No Fuel left: Return to Base.
        expect(r.freeMove).toEqual([]);
        expect(r.rtb).toEqual([wyvern]);
      }
      expect(lines.length).toBeGreaterThanOrEqual(5);
      expect(lines.some((l) => l.includes('Wyvern Engages Pathfinder'))).toBe(true);
    });
  }

  it('1.2.1: the Pathfinder, crippled by the first hit, replies at FC 1', () => {
    const rules = rulesOf('1.2.1');
    expect(rules.flags.squadronCrippling).toBe(true);
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder', 3);
    const { hooks, calls } = scriptedHooks(rules, script);
    dogfight(hooks, DOGFIGHT_V121, wyvern, pathfinder, alwaysEngage);
    expect(calls[1].opts.fc).toBe(1);
  });
});

describe('Break Off', () => {
  // The Pathfinder (Skill 2, Fuel 3) breaks off against the Wyvern. Faces 1, 2, 2: with
  // three dice (Fuel 3 beats Skill 2) the 2s pair up, with two dice (Skill only) it is [N].
  it('1.2.1: the better of Skill and Fuel; [D+] ends the dogfight; Fuel spent; the breaker attacks no more', () => {
    const rules = rulesOf('1.2.1');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const dice = new ScriptedDice([1, 2, 2]);
    const { hooks, calls } = scriptedHooks(rules, [], dice);
    const { choose } = scriptedChooser({ Pathfinder: ['break_off'] });
    const r = dogfight(hooks, DOGFIGHT_V121, pathfinder, wyvern, choose);
    dice.assertConsumed();
    expect(calls).toEqual([]);
    expect(r.ended).toBe('break_off');
    expect(r.breaker).toBe(pathfinder);
    expect(r.breakOffPassed).toBe(true);
    expect(pathfinder.fuel).toBe(2);
    expect(r.freeMove).toEqual([pathfinder, wyvern]);
    expect(r.rtb).toEqual([]);
    expect(r.noMoreAttacks).toEqual([pathfinder]);
  });

  it('1.2.1: a failed Break Off spends the Fuel and the dogfight goes on', () => {
    const rules = rulesOf('1.2.1');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const dice = new ScriptedDice([1, 2, 3]); // [N]
    const { hooks } = scriptedHooks(rules, [[], [], [], []], dice);
    let asked = 0;
    const { choose } = scriptedChooser({ Pathfinder: ['break_off', 'engage', 'engage'], Wyvern: ['engage', 'engage'] });
    const r = dogfight(hooks, DOGFIGHT_V121, pathfinder, wyvern, choose, {
      rtbOnFailedBreakOff: () => {
        asked++;
        return true;
      },
    });
    dice.assertConsumed();
    expect(asked).toBe(0); // no Return to Base exit in these rules
    expect(r.ended).toBe('out_of_fuel');
    expect(pathfinder.fuel).toBe(0);
    expect(wyvern.fuel).toBe(0);
    expect(r.breaker).toBeNull();
  });

  it('1.2.2: Skill only; [N] may drop Fuel to 0 and enter Return to Base', () => {
    const rules = rulesOf('1.2.2');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const dice = new ScriptedDice([1, 2]); // Skill 2: two dice, [N]
    const { hooks } = scriptedHooks(rules, [], dice);
    const { choose } = scriptedChooser({ Pathfinder: ['break_off'] });
    const r = dogfight(hooks, DOGFIGHT_V122, pathfinder, wyvern, choose);
    dice.assertConsumed();
    expect(r.ended).toBe('break_off');
    expect(r.breaker).toBe(pathfinder);
    expect(r.breakOffPassed).toBe(false);
    expect(pathfinder.fuel).toBe(0);
    expect(r.rtb).toEqual([pathfinder]);
    expect(r.freeMove).toEqual([wyvern]); // the Wyvern still has Fuel 2
    expect(r.noMoreAttacks).toEqual([]);
  });

  it('1.2.2: a breaker may decline the Return to Base exit; the Fuel is still spent', () => {
    const rules = rulesOf('1.2.2');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const dice = new ScriptedDice([1, 2, 4, 4]); // [N], then [D4]
    const { hooks } = scriptedHooks(rules, [[]], dice);
    const { choose } = scriptedChooser({ Pathfinder: ['break_off', 'break_off'], Wyvern: ['engage'] });
    const r = dogfight(hooks, DOGFIGHT_V122, pathfinder, wyvern, choose, { rtbOnFailedBreakOff: () => false });
    dice.assertConsumed();
    expect(r.ended).toBe('break_off');
    expect(r.breakOffPassed).toBe(true);
    expect(r.rounds).toBe(2);
    expect(pathfinder.fuel).toBe(1);
    expect(wyvern.fuel).toBe(1);
    expect(r.freeMove).toEqual([pathfinder, wyvern]);
    expect(r.rtb).toEqual([]);
  });

  it('1.2.2: a successful breaker with no Fuel left enters Return to Base', () => {
    const rules = rulesOf('1.2.2');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    wyvern.fuel = 1;
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const dice = new ScriptedDice([6, 6]);
    const { hooks } = scriptedHooks(rules, [], dice);
    const r = dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, scriptedChooser({ Wyvern: ['break_off'] }).choose);
    expect(r.breakOffPassed).toBe(true);
    expect(r.rtb).toEqual([wyvern]);
    expect(r.freeMove).toEqual([pathfinder]);
  });

  it('Fast adds one Flex die to the test', () => {
    const rules = rulesOf('1.2.2');
    for (const [traits, faces, passed] of [
      [['Fast'], [1, 2, 2], true],
      [[], [1, 2], false],
    ] as const) {
      const wyvern = model(card('cega.wyvern', {}, [...traits]), 'Wyvern');
      const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
      const dice = new ScriptedDice([...faces]);
      const { hooks } = scriptedHooks(rules, [], dice);
      const r = dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, scriptedChooser({ Wyvern: ['break_off'] }).choose, {
        rtbOnFailedBreakOff: () => true,
      });
      dice.assertConsumed();
      expect(r.breakOffPassed).toBe(passed);
    }
  });
});

describe('Stay on Target', () => {
  it('a Heavy squadron, once per dogfight: a Point Defense attack of its Defense dice, squadron damage', () => {
    const rules = rulesOf('1.2.2');
    const wraith = model(card('unknown.wraith', { defense: 3 }), 'Wraith');
    expect(wraith.unit.traits.has('Heavy')).toBe(true);
    const pathfinder = model(card('jovian.pathfinder', {}, ['Heavy']), 'Pathfinder');
    // [D5] from the Point Defense attack (1 Structure), the Pathfinder's two failed Break
    // Offs ([N] with two dice each), then the Wraith's successful Break Off [D4].
    const dice = new ScriptedDice([5, 5, 1, 1, 2, 1, 3, 4, 4]);
    const { hooks, calls } = scriptedHooks(rules, [[]], dice);
    const { choose, offered } = scriptedChooser({
      Wraith: ['stay_on_target', 'engage', 'break_off'],
      Pathfinder: ['break_off', 'break_off'],
    });
    const r = dogfight(hooks, DOGFIGHT_V122, wraith, pathfinder, choose, { rtbOnFailedBreakOff: () => false });
    dice.assertConsumed();
    expect(offered[0]).toEqual({ who: 'Wraith', round: 1, legal: ['engage', 'break_off', 'stay_on_target'] });
    // The passive Pathfinder is Heavy too, but Stay on Target is made once per dogfight.
    expect(offered[1].legal).toEqual(['engage', 'break_off']);
    // Once per dogfight.
    expect(offered[2].legal).toEqual(['engage', 'break_off']);
    expect(pathfinder.state.structure).toBe(5);
    expect(calls).toHaveLength(1);
    expect(r.stayOnTargetUsed).toBe(true);
    expect(r.ended).toBe('break_off');
    expect(r.breaker).toBe(wraith);
    expect(wraith.fuel).toBe(0); // Engage and Break Off; Stay on Target was free
    expect(pathfinder.fuel).toBe(1);
    expect(r.rtb).toEqual([wraith]);
    expect(r.freeMove).toEqual([pathfinder]);
  });

  it('not for a squadron without Heavy; offered at 0 Fuel, next to pass', () => {
    const dr = DOGFIGHT_V121;
    const wyvern = model(card('cega.wyvern', { defense: 2 }), 'Wyvern');
    expect(legalDogfightChoices(dr, wyvern, true, 2, false)).toEqual(['engage', 'break_off']);
    const heavy = model(card('cega.wyvern', { defense: 2 }, ['Heavy']), 'Heavy Wyvern');
    heavy.fuel = 0;
    expect(legalDogfightChoices(dr, heavy, true, 2, false)).toEqual(['stay_on_target', 'pass']);
    expect(legalDogfightChoices(dr, heavy, true, 2, true)).toEqual(['pass']);
    expect(legalDogfightChoices(dr, heavy, false, 2, false)).toEqual(['pass']);
    expect(legalDogfightChoices({ ...dr, stayOnTarget: 'either' }, heavy, false, 2, false)).toEqual(['stay_on_target', 'pass']);
  });
});

describe('Fire Control in a dogfight', () => {
  it('crippled: FC 1 unless Rugged; after a Boost: FC 1 in the first round only', () => {
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    expect(dogfightFireControl(wyvern, false)).toBe(2);
    expect(dogfightFireControl(wyvern, true)).toBe(1);
    wyvern.state.crippled = true;
    expect(dogfightFireControl(wyvern, false)).toBe(1);
    const rugged = model(card('cega.wyvern', {}, ['Rugged']), 'Rugged Wyvern');
    rugged.state.crippled = true;
    expect(dogfightFireControl(rugged, false)).toBe(2);
    expect(dogfightFireControl(rugged, true)).toBe(1);
  });

  it('the Boosted active model gets FC 1 in round 1 and its full FC in round 2; the other is not affected', () => {
    const rules = rulesOf('1.2.2');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const { hooks, calls } = scriptedHooks(rules, [[], [], [], [], []]);
    dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, alwaysEngage, { activeBoosted: true });
    expect(calls.map((c) => `${c.att} ${c.opts.fc}`)).toEqual(['Wyvern 1', 'Pathfinder 2', 'Wyvern 2', 'Pathfinder 2', 'Pathfinder 2']);
  });

  it('a crippled, non-Rugged squadron Engages at FC 1 (crippling as a state, whatever the edition)', () => {
    const rules = rulesOf('1.2.2');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    wyvern.state.crippled = true;
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    pathfinder.fuel = 0;
    const { hooks, calls } = scriptedHooks(rules, [[], []]);
    dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, alwaysEngage);
    expect(calls.map((c) => c.opts.fc)).toEqual([1, 1]);
  });
});

describe('Fuel, passing and the end of the dogfight', () => {
  it('a model at 0 Fuel passes without being asked; the other acts until its Fuel is gone', () => {
    const rules = rulesOf('1.2.1');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    pathfinder.fuel = 0;
    const { hooks, calls, lines } = scriptedHooks(rules, [['[D1]'], ['[D2]']]);
    const { choose, offered } = scriptedChooser({ Wyvern: ['engage', 'engage'] });
    const r = dogfight(hooks, DOGFIGHT_V121, wyvern, pathfinder, choose);
    expect(offered.every((o) => o.who === 'Wyvern')).toBe(true);
    expect(calls).toHaveLength(2);
    expect(lines.filter((l) => l.includes('Pathfinder passes'))).toHaveLength(1);
    expect(r.ended).toBe('out_of_fuel');
    expect(r.rounds).toBe(2);
    expect(r.actions).toBe(3); // Engage, pass, Engage
    expect(pathfinder.state.structure).toBe(4);
    expect(r.freeMove).toEqual([wyvern, pathfinder]);
    expect(r.rtb).toEqual([]);
  });

  it('1.2.2: both out of Fuel at the end: both enter Return to Base', () => {
    const rules = rulesOf('1.2.2');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    pathfinder.fuel = 1;
    const { hooks } = scriptedHooks(rules, [[], [], []]);
    const r = dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, alwaysEngage);
    expect(r.ended).toBe('out_of_fuel');
    expect(r.rtb).toEqual([wyvern, pathfinder]);
    expect(r.freeMove).toEqual([]);
  });

  it('nobody with Fuel or Stay on Target: the dogfight ends before any action', () => {
    const rules = rulesOf('1.2.1');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    wyvern.fuel = 0;
    pathfinder.fuel = 0;
    const { hooks } = scriptedHooks(rules, []);
    const r = dogfight(hooks, DOGFIGHT_V121, wyvern, pathfinder, alwaysEngage);
    expect(r).toMatchObject({ ended: 'out_of_fuel', rounds: 0, actions: 0 });
  });

  it('a Heavy model at 0 Fuel that passes instead of Staying on Target does not loop', () => {
    const rules = rulesOf('1.2.1');
    const heavy = model(card('unknown.wraith', { defense: 2 }), 'Wraith');
    heavy.fuel = 0;
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    pathfinder.fuel = 0;
    const { hooks } = scriptedHooks(rules, []);
    const { choose, offered } = scriptedChooser({ Wraith: ['pass'] });
    const r = dogfight(hooks, DOGFIGHT_V121, heavy, pathfinder, choose);
    expect(offered).toHaveLength(1);
    expect(r).toMatchObject({ ended: 'out_of_fuel', actions: 2, stayOnTargetUsed: false });
  });

  it('Fuel is kept within 0..printed; an illegal choice is an error', () => {
    const rules = rulesOf('1.2.2');
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    wyvern.fuel = 9;
    const pathfinder = model(card('jovian.pathfinder'), 'Pathfinder');
    const { hooks } = scriptedHooks(rules, []);
    expect(() => dogfight(hooks, DOGFIGHT_V122, wyvern, pathfinder, () => 'stay_on_target')).toThrow(/chose stay_on_target/);
    expect(wyvern.fuel).toBe(2);
  });

  it('GM-69: Interception needs Fuel >= 1 and not crippled', () => {
    const wyvern = model(card('cega.wyvern'), 'Wyvern');
    expect(mayIntercept(wyvern)).toBe(true);
    wyvern.fuel = 0;
    expect(mayIntercept(wyvern)).toBe(false);
    wyvern.fuel = 1;
    wyvern.state.crippled = true;
    expect(mayIntercept(wyvern)).toBe(false);
  });
});

describe('data, not version ids', () => {
  it('the procedure source names no rules version', () => {
    const src = readFileSync(new URL('../../../src/engine/battle/dogfight.ts', import.meta.url), 'utf8');
    expect(src).not.toMatch(/\d+\.\d+\.\d+/);
    expect(src).not.toMatch(/\bv1\b|V12\d/);
  });
});
