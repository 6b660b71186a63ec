// Interception and Dogfight (game.md §7.5 with GM-69, GM-71, GM-72; combat.md §10 with the
// Dogfight121 / Dogfight122 interpretations), as a pure procedure over ProcedureHooks.
//
// Everything that differs between rules editions comes in through a DogfightRules object
// (the caller builds it from the version data); this file never looks at a version id.
//
// Procedure:
// - The squadron whose activation is in progress acts first (DogfightFirst); then the two
//   alternate, one action each. A round is one action by the active model followed by one by
//   the other model.
// - Engage (Fuel 1, needs Fire Control >= 1): one Attack Window against the opponent, with
//   no missile defence for the target and no Nuke/Bomb weapons.
// - Break Off (Fuel 1): a Skill Test (or the better of Skill and Fuel), Fast adds one Flex
//   die. [D+] ends the dogfight. On [N] the Fuel stays spent; where the rules allow it the
//   breaker may drop its Fuel to 0 to end the dogfight and enter Return to Base.
// - Stay on Target (no Fuel, Heavy trait, once per dogfight): one Point Defense attack
//   against the opponent, base pool = current Defense (combat.md PDAttackPool), results by
//   the squadron damage table.
// - A model with 0 Fuel passes (GM-72). A model with Fuel must act (Break Off is always open
//   to it). The dogfight ends when a model is destroyed, a Break Off ends it, or neither
//   model can do anything but pass.
import { BEST_MAG, MAG_D, outcomeName } from '../../dice/outcome.js';
import { resolvePool, type Pool } from '../../dice/pool.js';
import type { DiceConfig } from '../../dice/config.js';
import { applyResults } from '../damage.js';
import type { Participant, ProcedureHooks, WindowOptions } from './procedures.js';

export type DogfightChoice = 'engage' | 'break_off' | 'stay_on_target' | 'pass';

/** Edition-dependent parts of the dogfight; the caller derives them from the rules version data. */
export interface DogfightRules {
  /**
   * Pool of the Break Off test: 'skill' = the card's Skill; 'skill_or_fuel' = the better of
   * Skill and the Fuel the breaker has when it declares Break Off (before paying its cost).
   */
  readonly breakOffTest: 'skill_or_fuel' | 'skill';
  /** On a failed ([N]) Break Off the breaker may drop its Fuel to 0, end the dogfight and enter Return to Base. */
  readonly breakOffFailAllowsRtb: boolean;
  /** A model that broke off successfully may still attack later this turn. */
  readonly breakerMayAttackAgain: boolean;
  /**
   * What the survivors get when the dogfight is over:
   * - 'free_move': each survivor may move once up to its Speed in any direction (for a
   *   successful breaker that move is its Break Off move); an RTB move instead is the
   *   caller's choice, not a state.
   * - 'rtb_if_no_fuel': a survivor with 0 Fuel enters Return to Base; one with Fuel left
   *   gets the free move (GM-72).
   */
  readonly afterwards: 'free_move' | 'rtb_if_no_fuel';
  /** Who may Stay on Target: only the active squadron (Dogfight121 table) or either Heavy squadron. */
  readonly stayOnTarget: 'active_only' | 'either';
}

/**
 * Picks one Dogfight action for `self`. `legal` is never empty and always contains what the
 * rules allow right now; returning anything else is an error. Not called when the only legal
 * choice is 'pass'.
 */
export type DogfightChooser = (self: Participant, other: Participant, round: number, legal: readonly DogfightChoice[]) => DogfightChoice;

/** Whether a breaker that failed its test takes the Return to Base way out (only asked where the rules allow it). */
export type RtbChooser = (breaker: Participant, other: Participant, round: number) => boolean;

export interface DogfightOptions {
  /** The active model Boosted before the dogfight: Fire Control 1 in the first round. */
  readonly activeBoosted?: boolean;
  /** The same for the other model. */
  readonly otherBoosted?: boolean;
  /** Default: always take Return to Base after a failed Break Off, when the rules offer it. */
  readonly rtbOnFailedBreakOff?: RtbChooser;
}

export interface DogfightResult {
  /**
   * 'destroyed': one model was destroyed; 'break_off': a Break Off ended it (successful, or a
   * failed one turned into Return to Base); 'out_of_fuel': neither model could act any more.
   */
  readonly ended: 'destroyed' | 'break_off' | 'out_of_fuel';
  /** The model whose Break Off ended the dogfight. */
  readonly breaker: Participant | null;
  /** The breaker passed its test ([D+]); false when it left through Return to Base, or no one broke off. */
  readonly breakOffPassed: boolean;
  /** Survivors now in the Return to Base state. */
  readonly rtb: readonly Participant[];
  /** Survivors that may make one free move up to their Speed in any direction. */
  readonly freeMove: readonly Participant[];
  /** Survivors that may make no more attacks this turn. */
  readonly noMoreAttacks: readonly Participant[];
  /** Rounds begun (a round = the active model's action and the other's reply). */
  readonly rounds: number;
  /** Actions taken, passes included. */
  readonly actions: number;
  readonly stayOnTargetUsed: boolean;
}

/** GM-69: a squadron may declare an Interception with Fuel >= 1 and not crippled. Interception itself costs no Fuel. */
export function mayIntercept(p: Participant): boolean {
  return !p.unit.isCapital && !p.state.destroyed && !p.state.crippled && p.fuel >= 1;
}

/**
 * Fire Control in a dogfight: a crippled squadron fights at FC 1 unless it is Rugged (so the
 * general crippled cap of CombatState.fireControl() is not used here), and a model that
 * Boosted before the dogfight has FC 1 in the first round.
 */
export function dogfightFireControl(p: Participant, boostedThisRound: boolean): number {
  let fc = Math.max(0, p.unit.fireControl - p.state.fireControlLost);
  if (p.state.crippled && !p.state.hasWorking('Rugged')) fc = Math.min(fc, 1);
  if (boostedThisRound) fc = Math.min(fc, 1);
  return fc;
}

/** The choices open to `self` now. 'pass' is open only to a model with 0 Fuel. */
export function legalDogfightChoices(
  dr: DogfightRules,
  self: Participant,
  isActive: boolean,
  fc: number,
  stayOnTargetUsed: boolean,
): readonly DogfightChoice[] {
  let set = 0;
  if (self.fuel >= 1 && fc >= 1) set |= ENGAGE;
  if (self.fuel >= 1) set |= BREAK_OFF;
  if (mayStayOnTarget(dr, self, isActive, stayOnTargetUsed)) set |= STAY_ON_TARGET;
  if (self.fuel <= 0) set |= PASS;
  return CHOICE_LISTS[set];
}

// The lists legalDogfightChoices hands out, one per set of open choices, each in the order
// engage, break_off, stay_on_target, pass: made once, as a dogfight asks for one on every
// action (tens per game) and a fresh array each time was a dogfight's main garbage. Readonly
// by type only: Array.prototype.includes, which the choosers use, is slower on frozen arrays.
const ENGAGE = 1, BREAK_OFF = 2, STAY_ON_TARGET = 4, PASS = 8;
const CHOICE_LISTS: ReadonlyArray<readonly DogfightChoice[]> = Array.from({ length: 16 }, (_, set) => {
  const out: DogfightChoice[] = [];
  if (set & ENGAGE) out.push('engage');
  if (set & BREAK_OFF) out.push('break_off');
  if (set & STAY_ON_TARGET) out.push('stay_on_target');
  if (set & PASS) out.push('pass');
  return out;
});

/**
 * The options of an Engage's Attack Window at Fire Control `fc`: one object per value (readonly
 * by type), made on first use, rather than a new one for every Engage (the commonest dogfight
 * action).
 */
function dogfightWindow(fc: number): WindowOptions {
  if (!(fc >>> 0 === fc && fc < 64)) return { kind: 'dogfight', fc, noMissileDefence: true, noBombs: true }; // never on printed cards
  return (DOGFIGHT_WINDOWS[fc] ??= { kind: 'dogfight', fc, noMissileDefence: true, noBombs: true });
}
const DOGFIGHT_WINDOWS: WindowOptions[] = [];

/**
 * The pool resolvePool(cfg, { base, flexGrants: fast ? [1] : [] }) makes (a Break Off test; a
 * Stay on Target attack, whose request has no Flex grants, is the same as one with none), kept
 * per base and Fast for the dice configuration last used: a dogfight otherwise made the request,
 * its grant list and the pool for every such roll. The roller reads only the pool's numbers.
 */
function dogfightPool(cfg: DiceConfig, base: number, fast: boolean): Pool {
  if (!(base >>> 0 === base && base < 64)) return resolvePool(cfg, { base, flexGrants: fast ? [1] : [] }); // never on printed cards
  if (cfg !== poolCfg) {
    poolCfg = cfg;
    pools = [];
  }
  const slot = base * 2 + (fast ? 1 : 0);
  return (pools[slot] ??= resolvePool(cfg, { base, flexGrants: fast ? [1] : [] }));
}
let poolCfg: DiceConfig | null = null;
let pools: Pool[] = [];

/** The trace's words for a Break Off test (only made for a trace). */
function breakOffText(base: number, fast: boolean, code: number): string {
  return `Break Off test (${base} dice${fast ? ' + 1 Flex, Fast' : ''}): ${outcomeName(code)}`;
}

/** The options of a dogfight called without any (shared, rather than a new empty object per call). */
const NO_OPTIONS: DogfightOptions = Object.freeze({});

/**
 * Resolves one dogfight between `active` (the model whose activation is in progress) and
 * `other`. Mutates Fuel on both participants and their CombatStates (through the hooks and
 * applyResults); returns who ended where.
 */
export function dogfight(
  hooks: ProcedureHooks,
  dr: DogfightRules,
  active: Participant,
  other: Participant,
  choose: DogfightChooser,
  opts: DogfightOptions = NO_OPTIONS,
): DogfightResult {
  const { rules, roller, rng, tally } = hooks;
  // Fuel stays within 0..printed.
  active.fuel = Math.max(0, Math.min(active.fuel, active.unit.fuel));
  other.fuel = Math.max(0, Math.min(other.fuel, other.unit.fuel));

  let round = 0;
  let actions = 0;
  let stayOnTargetUsed = false;
  let consecutivePasses = 0;
  let breaker: Participant | null = null;
  let breakOffPassed = false;
  let ended: DogfightResult['ended'] | null = null;
  // Who is in Return to Base, as two flags rather than a Set (one dogfight or more per squadron activation).
  let activeRtb = false;
  let otherRtb = false;

  if (hooks.tracing !== false) hooks.note(`dogfight: ${active.label} (Fuel ${active.fuel}) vs ${other.label} (Fuel ${other.fuel})`);

  for (let turn = 0; ended === null; turn++) {
    if (active.state.destroyed || other.state.destroyed) {
      ended = 'destroyed';
      break;
    }
    if (!canAct(dr, active, true, stayOnTargetUsed) && !canAct(dr, other, false, stayOnTargetUsed)) {
      ended = 'out_of_fuel';
      break;
    }
    const moverIsActive = turn % 2 === 0;
    if (moverIsActive) round++;
    const self = moverIsActive ? active : other;
    const opp = moverIsActive ? other : active;
    const boosted = round === 1 && (moverIsActive ? opts.activeBoosted === true : opts.otherBoosted === true);
    const fc = dogfightFireControl(self, boosted);
    const legal = legalDogfightChoices(dr, self, moverIsActive, fc, stayOnTargetUsed);
    const choice = legal.length === 1 && legal[0] === 'pass' ? 'pass' : choose(self, opp, round, legal);
    if (!isListed(legal, choice)) {
      throw new Error(`dogfight: ${self.label} chose ${choice}, but only ${legal.join(', ')} is open`);
    }
    actions++;

    switch (choice) {
      case 'engage': {
        const before = self.fuel;
        self.fuel = before - 1;
        const made = hooks.attackWindow(self, opp, dogfightWindow(fc));
        if (hooks.tracing !== false) hooks.note(
          `round ${round}: ${self.label} Engages ${opp.label} (FC ${fc}${boosted ? ', Boosted' : ''}, Fuel ${before}->${self.fuel}): ` +
            `${made} attack${made === 1 ? '' : 's'}; ${opp.label} ${opp.state.destroyed ? 'destroyed' : `Structure ${opp.state.structure}`}`,
        );
        break;
      }
      case 'break_off': {
        const before = self.fuel;
        const base = dr.breakOffTest === 'skill_or_fuel' ? Math.max(self.unit.skill, before) : self.unit.skill;
        self.fuel = before - 1; // paid whether or not the test passes
        const fast = self.state.hasWorking('Fast');
        const pool = dogfightPool(rules.dice, base, fast);
        // No base dice: no result can be kept, so the test fails without a roll.
        const code = pool.base > 0 ? roller.unopposed(pool, rng) : 0;
        const passed = BEST_MAG[code] >= MAG_D;
        if (passed) {
          breaker = self;
          breakOffPassed = true;
          ended = 'break_off';
          if (hooks.tracing !== false) hooks.note(`round ${round}: ${self.label} ${breakOffText(base, fast, code)}, passed (Fuel ${before}->${self.fuel}); the dogfight ends`);
        } else if (dr.breakOffFailAllowsRtb && (opts.rtbOnFailedBreakOff?.(self, opp, round) ?? true)) {
          self.fuel = 0;
          breaker = self;
          ended = 'break_off';
          if (moverIsActive) activeRtb = true;
          else otherRtb = true;
          if (hooks.tracing !== false) hooks.note(`round ${round}: ${self.label} ${breakOffText(base, fast, code)}, failed; drops its Fuel to 0 and enters Return to Base`);
        } else {
          if (hooks.tracing !== false) hooks.note(`round ${round}: ${self.label} ${breakOffText(base, fast, code)}, failed (Fuel ${before}->${self.fuel})`);
        }
        break;
      }
      case 'stay_on_target': {
        stayOnTargetUsed = true;
        const pool = dogfightPool(rules.dice, self.state.defense, false);
        const code = roller.unopposed(pool, rng);
        applyResults(rules, opp.state, code, tally);
        if (hooks.tracing !== false) hooks.note(
          `round ${round}: ${self.label} Stays on Target: Point Defense attack (${pool.base} dice) ${outcomeName(code)}; ` +
            `${opp.label} ${opp.state.destroyed ? 'destroyed' : `Structure ${opp.state.structure}`}`,
        );
        break;
      }
      case 'pass':
        if (hooks.tracing !== false) hooks.note(`round ${round}: ${self.label} passes (Fuel ${self.fuel})`);
        break;
    }

    consecutivePasses = choice === 'pass' ? consecutivePasses + 1 : 0;
    if (ended !== null) break;
    if (consecutivePasses >= 2) {
      // Two passes in a row change nothing (Fuel never comes back mid-fight): it would loop.
      ended = 'out_of_fuel';
    }
  }

  // Afterwards: what each survivor may or must do. Each list is made at its final length (one
  // shared empty list where none is in it), not grown by push from an empty array.
  const a = afterDogfight(dr, active, activeRtb, breaker, breakOffPassed);
  const o = afterDogfight(dr, other, otherRtb, breaker, breakOffPassed);
  const freeMove = listOf((a & AFTER_FREE) !== 0 ? active : null, (o & AFTER_FREE) !== 0 ? other : null);
  const noMoreAttacks = listOf((a & AFTER_NO_MORE) !== 0 ? active : null, (o & AFTER_NO_MORE) !== 0 ? other : null);
  const rtbList = listOf((a & AFTER_RTB) !== 0 ? active : null, (o & AFTER_RTB) !== 0 ? other : null);
  if (hooks.tracing !== false) {
    const endLine =
      ended === 'destroyed'
        ? `${active.state.destroyed ? active.label : other.label} destroyed`
        : ended === 'break_off'
          ? `${breaker?.label ?? '?'} broke off`
          : 'no Fuel left to act';
    const tail = [
      freeMove.length ? `free move: ${freeMove.map((p) => p.label).join(', ')}` : '',
      rtbList.length ? `Return to Base: ${rtbList.map((p) => p.label).join(', ')}` : '',
    ].filter((s) => s);
    hooks.note(`dogfight over after ${round} round${round === 1 ? '' : 's'}: ${endLine}${tail.length ? '; ' + tail.join('; ') : ''}`);
  }

  return { ended: ended!, breaker, breakOffPassed, rtb: rtbList, freeMove, noMoreAttacks, rounds: round, actions, stayOnTargetUsed };
}

/** legal.includes(choice), as a short loop (the list has at most four entries). */
function isListed(legal: readonly DogfightChoice[], choice: DogfightChoice): boolean {
  for (let i = 0; i < legal.length; i++) if (legal[i] === choice) return true;
  return false;
}

/** afterDogfight's answer: bits for the lists of the result a survivor goes in (0 for a destroyed model). */
const AFTER_RTB = 1, AFTER_FREE = 2, AFTER_NO_MORE = 4;

/**
 * What survivor `p` may or must do when the dogfight is over: Return to Base, or a free move;
 * no more attacks for a breaker that may not attack again. (A function of its own: as a
 * closure in dogfight it put that function's variables in a context object made every call.)
 */
function afterDogfight(dr: DogfightRules, p: Participant, inRtb: boolean, breaker: Participant | null, breakOffPassed: boolean): number {
  if (p.state.destroyed) return 0;
  let out = inRtb || (dr.afterwards === 'rtb_if_no_fuel' && p.fuel <= 0) ? AFTER_RTB : AFTER_FREE;
  if (p === breaker && breakOffPassed && !dr.breakerMayAttackAgain) out |= AFTER_NO_MORE;
  return out;
}

/** The empty list of a dogfight result (shared: the result's lists are readonly). */
const NO_ONE: readonly Participant[] = Object.freeze([]);

/** The list of the models given (null: left out), in that order: the active model, then the other. */
function listOf(x: Participant | null, y: Participant | null): readonly Participant[] {
  if (x !== null) return y !== null ? [x, y] : [x];
  return y !== null ? [y] : NO_ONE;
}

/**
 * Whether the model has anything to do but pass (Fuel for Engage / Break Off, or an unused Stay
 * on Target): legalDogfightChoices at Fire Control 1 offers something else than 'pass'. Asked
 * twice per round, so worked out without building that list and a closure to search it.
 */
function canAct(dr: DogfightRules, p: Participant, isActive: boolean, stayOnTargetUsed: boolean): boolean {
  if (p.fuel >= 1) return true; // Engage and Break Off
  return mayStayOnTarget(dr, p, isActive, stayOnTargetUsed);
}

/** Stay on Target is open to this model (a Point Defense attack with no Defense dice cannot do anything, so it is not offered then). */
function mayStayOnTarget(dr: DogfightRules, p: Participant, isActive: boolean, stayOnTargetUsed: boolean): boolean {
  return !stayOnTargetUsed && (isActive || dr.stayOnTarget === 'either') && p.state.hasWorking('Heavy') && p.state.defense >= 1;
}
