// Squadrons striking capital ships, and capital ships shooting back at squadrons:
//   * Point Defense Attacks (combat.md §8.1 PDAttackPool) and the Engage Point Defense action
//     (combat.md §8.3 EngagePD);
//   * Bombing Runs / Bombing (game.md §7.6, combat.md §11.1, §11.2);
//   * Assault (game.md §7.7, combat.md §11.3; newer rules only).
// Every procedure is pure over ProcedureHooks: dice come from hooks.roller/hooks.rng, attacks
// from hooks.attackWindow, and every choice the rules leave to a player is a callback, so tests
// can script each step. Where the rules versions differ, the difference is a field of
// StrikeRules, never a version check here.
import { BEST_MAG, DIMINISH_ALL, MAG_D, MAG_T, NO_RESULT, outcomeName } from '../../dice/outcome.js';
import { resolvePool, type Pool } from '../../dice/pool.js';
import type { DiceConfig } from '../../dice/config.js';
import { applyResults } from '../damage.js';
import type { Participant, ProcedureHooks } from './procedures.js';

/** How the bombing procedure differs between rules versions. */
export interface StrikeRules {
  /**
   * 'either': in each run the defender EITHER makes a PD attack OR has a squadron intercept
   * (combat.md §11.1). 'pd_each_run': an interception, if any, happens once before the runs,
   * and the target may make a PD attack at the start of every run (combat.md §11.2).
   */
  readonly interceptOrPd: 'either' | 'pd_each_run';
  /** Armor does not apply to the bomber's attacks (newer rules, attack page). */
  readonly bombingIgnoresArmor: boolean;
  /** What ending a bombing brings: a Return to Base move at once, or the Return to Base state (GM-77). */
  readonly returnToBase: 'move' | 'state';
  /** Extra base dice on the post-interception Skill Test for a bomber with the Heavy trait (combat.md §16 item 15). */
  readonly heavySkillDice: number;
  /** A [T+] point defence result drives the bomber off: no attack in that run, then home (option bombing_pd_drive_off; default none, NoDriveOff122). */
  readonly pdDrivesOff?: boolean;
}

/** What an interception did: none was declared, or a dogfight was fought (elsewhere) and the model survived it or not. */
export type Interception = 'none' | { readonly survived: boolean; /** It broke off and may make no more attacks this turn (v1.2.1 Break Off, combat.md §10.1). */ readonly noMoreAttacks?: boolean };
/** Declares (or not) an interception of the striking squadron and resolves the dogfight, Fuel included. */
export type InterceptFn = (striker: Participant) => Interception;

/** Results of a Point Defense Attack of at least this Magnitude drive an assaulting squadron off (§11.3). */
export const ASSAULT_DRIVE_OFF_MAG = MAG_T;
/** Flex dice on every Assault attack (§11.3). */
export const ASSAULT_FLEX = 2;

// Point Defense pools by Defense rating, per dice configuration: procedures run inside Monte
// Carlo battles, so they should not build a pool object for every roll.
const pdPools = new WeakMap<DiceConfig, Pool[]>();

function basePool(cfg: DiceConfig, dice: number): Pool {
  const n = Math.max(0, dice);
  let list = pdPools.get(cfg);
  if (!list) pdPools.set(cfg, (list = []));
  return (list[n] ??= resolvePool(cfg, { base: n }));
}

/**
 * One Point Defense Attack of `defender` on the squadron `target` (combat.md §8.1 PDAttackPool):
 * the defender's current Defense as the Base Pool, no Macro, no positional or short-range
 * bonuses; the Results hit the target on the squadron damage table (§9.1/§9.2).
 * With `diminish` (Engage Point Defense against an Assaulting squadron) every Result drops one
 * Magnitude step and a [D] disappears. Returns the outcome code that was applied; a destroyed
 * defender or target rolls nothing and returns [N].
 */
export function pointDefenceAttack(hooks: ProcedureHooks, defender: Participant, target: Participant, opts?: { diminish?: boolean }): number {
  if (defender.state.destroyed || target.state.destroyed) return NO_RESULT;
  const rolled = hooks.roller.unopposed(basePool(hooks.rules.dice, defender.state.defense), hooks.rng);
  const code = opts?.diminish ? DIMINISH_ALL[rolled] : rolled;
  const before = target.state.structure;
  applyResults(hooks.rules, target.state, code, hooks.tally);
  if (hooks.tracing !== false) {
    // The trace line's parts are worked out only for a trace (most games keep none).
    const shown = opts?.diminish ? `${outcomeName(rolled)} diminished to ${outcomeName(code)}` : outcomeName(code);
    const effect = target.state.destroyed ? 'destroyed' : before > target.state.structure ? `-${before - target.state.structure} Structure` : 'no damage';
    hooks.note(`${defender.label} point defence (${defender.state.defense} dice) on ${target.label}: ${shown}, ${effect}`);
  }
  return code;
}

/**
 * The Engage Point Defense action (combat.md §8.3 EngagePD): one PD Attack by `ship` on each
 * listed enemy squadron, in the order given. The caller picks the squadrons (within 3", 6" with
 * a v1.2.3 Barrier). `diminish` says which of them are Assaulting, whose Results are
 * Diminished (§11.4). Returns the applied outcome code per squadron, [N] for a squadron
 * already destroyed.
 */
export function engagePointDefence(
  hooks: ProcedureHooks,
  ship: Participant,
  squadronsWithin: readonly Participant[],
  opts: { diminish?: (squadron: Participant) => boolean } = {},
): number[] {
  if (hooks.tracing !== false) hooks.note(`${ship.label} engages point defence against ${squadronsWithin.length} squadron${squadronsWithin.length === 1 ? '' : 's'}`);
  return squadronsWithin.map((sq) => pointDefenceAttack(hooks, ship, sq, { diminish: opts.diminish?.(sq) ?? false }));
}

/** A Skill Test [D+] with `dice` base dice (combat.md §2.7). */
function skillTest(hooks: ProcedureHooks, dice: number): number {
  return hooks.roller.unopposed(basePool(hooks.rules.dice, dice), hooks.rng);
}

/** What a bomber does after an interception: carry on, make one last attack at FC 1, or stop. */
type AfterInterception = 'go_on' | 'untested' | 'last_run' | 'destroyed' | 'out_of_fuel' | 'broke_off';

function afterInterception(hooks: ProcedureHooks, br: StrikeRules, bomber: Participant, i: Exclude<Interception, 'none'>): AfterInterception {
  if (!i.survived || bomber.state.destroyed) {
    if (hooks.tracing !== false) hooks.note(`${bomber.label} is destroyed in the dogfight`);
    return 'destroyed';
  }
  if (i.noMoreAttacks) {
    if (hooks.tracing !== false) hooks.note(`${bomber.label} broke off from the dogfight and may make no more attacks this turn`);
    return 'broke_off';
  }
  if (bomber.fuel < 1) {
    if (br.interceptOrPd === 'either') {
      // v1.2.1 (game.md §7.6): the Skill Test is for a survivor with Fuel left; a survivor
      // attacks in the run it began, and then, out of Fuel, makes its RTB move.
      if (hooks.tracing !== false) hooks.note(`${bomber.label} survives the dogfight with no Fuel left: it attacks in this run`);
      return 'untested';
    }
    // v1.2.2 (game.md §7.5): a dogfight survivor with 0 Fuel enters Return to Base, making no attack.
    if (hooks.tracing !== false) hooks.note(`${bomber.label} survives the dogfight with no Fuel left`);
    return 'out_of_fuel';
  }
  const heavy = bomber.state.hasWorking('Heavy') ? br.heavySkillDice : 0;
  const code = skillTest(hooks, bomber.unit.skill + heavy);
  const pass = BEST_MAG[code] >= MAG_D;
  if (hooks.tracing !== false) hooks.note(
    `${bomber.label} survives the dogfight with ${bomber.fuel} Fuel; Skill Test (${bomber.unit.skill}${heavy ? ` + ${heavy} Heavy` : ''} dice) ${outcomeName(code)}: ` +
      (pass ? 'carries on' : 'one attack at FC 1, then back to base'),
  );
  return pass ? 'go_on' : 'last_run';
}

export interface BombingResult {
  /** Runs begun (each paid for, or the free first one). */
  runs: number;
  /** The bomber survived and must Return to Base (a move or the state: StrikeRules.returnToBase). */
  rtb: boolean;
  /** Fuel spent on runs (Fuel the dogfight cost is the intercept callback's business). */
  fuelSpent: number;
  /** The bomber was destroyed (by the dogfight or by point defence). */
  destroyed: boolean;
  /** Attacks made, summed over the Attack Windows. */
  attacks: number;
  /** The post-interception Skill Test: passed, failed, or none taken. */
  skillTest: 'passed' | 'failed' | null;
}

/**
 * A Bombing Run (older rules) / Bombing (newer rules) of `bomber` against the capital ship
 * `target`, which the bomber has already reached (game.md §7.6, combat.md §11.1/§11.2).
 *
 * Runs cost 1 Fuel each, paid as the run begins; the first is free when the bomber's Speed is at
 * least the target's. Before every run after the first the owner may stop
 * (`choose.continueRun`, given the 0-based index of the run about to begin); running out of Fuel
 * stops it too. Either way a surviving bomber then Returns to Base.
 *
 * In a run the bomber is met by point defence (both versions), or instead by an interception
 * ('either'), or by an interception once before the first run ('pd_each_run'). A bomber that
 * survives a dogfight with Fuel takes a Skill Test [D+]: on [N] it makes just one more attack
 * window, at FC 1 ('either': in the current run; 'pd_each_run': one run, PD first), then RTB.
 * A survivor with no Fuel attacks in the current run and then returns ('either'), or returns at
 * once ('pd_each_run'); one that broke off (v1.2.1) makes no more attacks and returns.
 * A survivor gets an Attack Window at its Fire Control; the target has no missile defence
 * and, with `bombingIgnoresArmor`, no Armor. Point defence only deals damage: it never drives
 * the bomber off (combat.md NoDriveOff122; the older rules have no drive-off either), unless
 * `pdDrivesOff` (option bombing_pd_drive_off=T_PLUS) lets a [T+] result do so.
 */
export function bombing(
  hooks: ProcedureHooks,
  br: StrikeRules,
  bomber: Participant,
  target: Participant,
  intercept: InterceptFn,
  choose: { continueRun(bomber: Participant, runIndex: number): boolean },
): BombingResult {
  const res: BombingResult = { runs: 0, rtb: false, fuelSpent: 0, destroyed: false, attacks: 0, skillTest: null };
  const freeFirst = bomber.unit.speed >= target.unit.speed;
  const rtbName = br.returnToBase === 'move' ? 'makes a Return to Base move' : 'enters Return to Base';
  if (hooks.tracing !== false) hooks.note(`${bomber.label} bombs ${target.label} (Fuel ${bomber.fuel}; first run ${freeFirst ? 'free' : 'costs 1 Fuel'})`);

  const destroyed = (): BombingResult => {
    res.destroyed = true;
    return res;
  };
  const goHome = (why: string): BombingResult => {
    res.rtb = true;
    if (hooks.tracing !== false) hooks.note(`${bomber.label} ${why} and ${rtbName}`);
    return res;
  };
  // Applies a dogfight's aftermath; returns an ending, or null to go on.
  let lastRun = false;
  const handle = (i: Exclude<Interception, 'none'>): BombingResult | null => {
    const next = afterInterception(hooks, br, bomber, i);
    if (next === 'destroyed') return destroyed();
    if (next === 'out_of_fuel') return goHome('is out of Fuel');
    if (next === 'broke_off') return goHome('broke off');
    if (next === 'untested') return null;
    res.skillTest = next === 'go_on' ? 'passed' : 'failed';
    if (next === 'last_run') lastRun = true;
    return null;
  };

  if (br.interceptOrPd === 'pd_each_run') {
    const i = intercept(bomber);
    if (i !== 'none') {
      const end = handle(i);
      if (end) return end;
    }
  }

  for (let run = 0; ; run++) {
    if (target.state.destroyed) return goHome(`has destroyed ${target.label}`);
    if (run > 0) {
      if (lastRun) return goHome('has made its one attack');
      if (bomber.fuel < 1) return goHome('is out of Fuel');
      if (!choose.continueRun(bomber, run)) return goHome('stops bombing');
    }
    const free = run === 0 && freeFirst;
    if (!free) {
      if (bomber.fuel < 1) return goHome('has no Fuel for a run');
      bomber.fuel--;
      res.fuelSpent++;
    }
    res.runs++;
    if (hooks.tracing !== false) hooks.note(`${bomber.label} run ${run + 1} (${free ? 'free' : '1 Fuel'}, Fuel left ${bomber.fuel})`);

    // Step 1: the defender's answer.
    let intercepted = false;
    if (br.interceptOrPd === 'either') {
      const i = intercept(bomber);
      if (i !== 'none') {
        intercepted = true;
        const end = handle(i);
        if (end) return end;
      }
    }
    if (!intercepted) {
      const pd = pointDefenceAttack(hooks, target, bomber);
      if (bomber.state.destroyed) return destroyed();
      if (br.pdDrivesOff && BEST_MAG[pd] >= MAG_T) return goHome('is driven off by point defence');
    }

    // Step 2: the bomber's Attack Window.
    const fc = lastRun ? Math.min(1, bomber.state.fireControl()) : bomber.state.fireControl();
    if (fc > 0) res.attacks += hooks.attackWindow(bomber, target, { kind: 'bombing', fc, noMissileDefence: true, ignoreArmor: br.bombingIgnoresArmor });
    if (bomber.state.destroyed) return destroyed();
  }
}

/** How an Assault ended; 'undecided' when no chooser was given (the caller picks Assaulting or Return to Base). */
export type AssaultEnd = 'destroyed' | 'driven_off' | 'return_to_base' | 'assaulting' | 'undecided';

export interface AssaultResult {
  end: AssaultEnd;
  /** The point defence outcome applied, or null when none was rolled. */
  pd: number | null;
  /** The exo-armor got its Attack Window. */
  window: boolean;
  /** Attacks made in that window. */
  attacks: number;
}

/**
 * An Assault by the Exo-Armor squadron `exo` on the capital ship (or terrain model) `target`
 * it is in base contact with (game.md §7.7, combat.md §11.3; newer rules only):
 *   1. defending squadrons within 3" may intercept (`intercept` declares and fights the
 *      dogfight); a survivor with no Fuel left returns to base, one with Fuel goes on;
 *   2. the target makes a PD Attack; a [T+] drives the exo-armor off and ends its activation,
 *      the damage of that roll still applying (combat.md §16 item 26);
 *   3. a survivor gets ONE Attack Window: +2 Flex, max(AC, AS) per weapon, Lance allowed,
 *      no missile defence, Armor ignored (ASasAC);
 *   4. the owner chooses Assaulting or Return to Base (`choose`; without it the result is
 *      'undecided' and the caller chooses).
 */
export function assault(
  hooks: ProcedureHooks,
  exo: Participant,
  target: Participant,
  intercept: InterceptFn,
  choose?: { stayAssaulting(exo: Participant, target: Participant): boolean },
): AssaultResult {
  if (exo.unit.type !== 'exo_armor') throw new RangeError(`${exo.label}: only Exo-Armor squadrons may Assault`);
  const res: AssaultResult = { end: 'destroyed', pd: null, window: false, attacks: 0 };
  if (hooks.tracing !== false) hooks.note(`${exo.label} assaults ${target.label}`);

  const i = intercept(exo);
  if (i !== 'none') {
    if (!i.survived || exo.state.destroyed) {
      if (hooks.tracing !== false) hooks.note(`${exo.label} is destroyed in the dogfight`);
      return res;
    }
    if (exo.fuel < 1 || i.noMoreAttacks) {
      if (hooks.tracing !== false) hooks.note(`${exo.label} survives the dogfight with ${i.noMoreAttacks ? 'a Break Off' : 'no Fuel left'} and enters Return to Base`);
      res.end = 'return_to_base';
      return res;
    }
    if (hooks.tracing !== false) hooks.note(`${exo.label} survives the dogfight and presses the assault`);
  }

  res.pd = pointDefenceAttack(hooks, target, exo);
  if (exo.state.destroyed) return res;
  if (BEST_MAG[res.pd] >= ASSAULT_DRIVE_OFF_MAG) {
    if (hooks.tracing !== false) hooks.note(`${exo.label} is driven off; its activation ends`);
    res.end = 'driven_off';
    return res;
  }

  const fc = exo.state.fireControl();
  res.window = true;
  if (fc > 0) res.attacks = hooks.attackWindow(exo, target, { kind: 'assault', fc, flex: ASSAULT_FLEX, assault: true, noMissileDefence: true, ignoreArmor: true });
  if (hooks.tracing !== false) hooks.note(`${exo.label} makes ${res.attacks} assault attack${res.attacks === 1 ? '' : 's'}`);
  if (exo.state.destroyed) return res;

  if (!choose) {
    res.end = 'undecided';
    return res;
  }
  res.end = choose.stayAssaulting(exo, target) ? 'assaulting' : 'return_to_base';
  if (hooks.tracing !== false) hooks.note(`${exo.label} ${res.end === 'assaulting' ? 'stays Assaulting' : 'enters Return to Base'}`);
  return res;
}
