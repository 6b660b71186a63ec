// The interface between the battle engine and the AI policies that play it. The engine
// offers bounded sets of legal choices; a policy scores and picks. Policies draw from their
// own random stream (never the dice stream), so a policy's choices never shift the dice.
import type { BattleModel } from '../engine/battle/model.js';
import type { Pose } from '../engine/battle/movement.js';
import type { RandomStream } from '../rng/stream.js';
import type { ObjectiveMarker, PolicyName } from '../scenarios/scenarioTypes.js';

/** PolicyView.firepowerOfMoves' answers: what it left out below its floor. */
export const LEFT_NONE = 0, LEFT_BELOW = 1, LEFT_TIE = 2;
export type LeftOut = typeof LEFT_NONE | typeof LEFT_BELOW | typeof LEFT_TIE;

export type ActionName = 'none' | 'station_keep' | 'withdraw' | 'evade' | 'concentrated_fire' | 'ram' | 'boost' | 'return_to_base' | 'intercept' | 'bombing' | 'assault' | 'engage_point_defence' | 'board' | 'repair';

export interface MoveOption {
  readonly pose: Pose;
  readonly action: ActionName;
  /** Inches the move covers. */
  readonly travelled: number;
  /** Boost: Fuel it spends (squadrons; 0 for a capital ship). */
  readonly fuel?: number;
  /**
   * A turn at Thrusters 0 (v1.2.2, GM-12): it needs a Skill Test [D+] first; on a failure the
   * ship makes the same distance straight ahead (this pose) instead.
   */
  readonly failPose?: Pose;
}

/** A legal deployment spot; `front` runs from 0 (back of the zone) to 1 (nearest the enemy). */
export interface DeployCandidate {
  readonly pose: Pose;
  readonly front: number;
}

/**
 * A list of deployment candidates as the engine hands it out, with `version`: the same number
 * each time the list is offered with the same fronts (the engine changes it whenever it refills
 * them), so a policy that kept something about the list may skip comparing its fronts. A list
 * without one (a caller's own) is compared candidate by candidate. An engine list also has
 * `memo`, a slot where a policy may keep what it found about the list (pickByDepth's order).
 */
export type DeployCandidates = readonly DeployCandidate[] & { readonly version?: number; memo?: unknown };

/** What a policy may look at: the table, and cheap estimates the engine computes for it. */
export interface PolicyView {
  readonly turn: number;
  readonly turns: number;
  readonly width: number;
  readonly height: number;
  readonly models: readonly BattleModel[];
  readonly objectives: readonly ObjectiveMarker[];
  /** Enemy models of `side` that can still fight. */
  enemiesOf(side: 0 | 1): readonly BattleModel[];
  /** The three enemies nearest to `m` where it stands (cheap distance estimates for move scoring). */
  nearestEnemies(m: BattleModel): readonly BattleModel[];
  /** Enemies `m` could attack this activation from some move (a cheap upper bound on its reach). */
  reachable(m: BattleModel): readonly BattleModel[];
  /** Estimated Structure damage `att` would deal to `tgt` with all its Fire Control from `pose`. */
  estimate(att: BattleModel, pose: Pose, tgt: BattleModel): number;
  /**
   * The best estimate over the enemies `m` can reach, from `pose`: with `focus`, each divided by
   * the target's Structure (at least 1) and weighted by its TV / 10 (the policies' firepower).
   */
  firepower(m: BattleModel, pose: Pose, focus: number): number;
  /**
   * firepower(m, options[j].pose, focus) for every move option j, written to out[j]. Entries
   * from options.length on are left as they were (a reused scratch array is not cut to length).
   * With `floor` >= 0 the engine may leave out enemies that cannot be worth more than `floor`
   * from anywhere: then a value above `floor` is exact, and one at or below it only says the
   * exact value is at or below `floor` too. The answer says what was left out: LEFT_NONE
   * nothing; LEFT_BELOW only parts worth less than `floor` (a value below `floor` then stands
   * for one below it, and a value equal to it is exact); LEFT_TIE something that may be worth
   * exactly `floor`.
   */
  firepowerOfMoves(m: BattleModel, options: readonly MoveOption[], focus: number, out: number[], floor?: number): LeftOut;
  /** Whether a Boost halves `m`'s Fire Control under the rules in force (GM-60). */
  boostHalvesFc(m: BattleModel): boolean;
  /** Longest reach of `m`'s weapons against capital ships or squadrons (from its Sensors). */
  maxRange(m: BattleModel, vsCapital: boolean): number;
  /** Estimated Structure damage the enemy could deal to `m` standing at `pose` in their next activations. */
  threat(m: BattleModel, pose: Pose): number;
}

export interface Policy {
  readonly name: PolicyName;
  /** Which of the side's unactivated models activates next. */
  pickActivation(view: PolicyView, candidates: readonly BattleModel[], rng: RandomStream): number;
  /**
   * Which move to make (index, or -1 when no option is legal), and whether to fire before
   * moving (true) or after (false). `legal(i)` checks option i's end position; the engine
   * checks lazily, so a policy should ask only about the options it would take, best first.
   */
  pickMove(view: PolicyView, m: BattleModel, options: readonly MoveOption[], legal: (i: number) => boolean, rng: RandomStream): { index: number; fireBefore: boolean };
  /** Targets in the order the model should fire at them (the engine skips those out of reach). */
  targetOrder(view: PolicyView, m: BattleModel, from: Pose, enemies: readonly BattleModel[], rng: RandomStream): BattleModel[];
  /** Which deployment spot to take, from candidates inside the zone (-1: none is legal); `legal(i)` checks one. */
  pickDeployment(view: PolicyView, m: BattleModel, candidates: DeployCandidates, legal: (i: number) => boolean, rng: RandomStream): number;
  /** Beacon zones: where to place the next beacon, from legal candidates. */
  pickBeacon(view: PolicyView, side: 0 | 1, home: { x: number; y: number }, candidates: ReadonlyArray<{ x: number; y: number }>, rng: RandomStream): number;
  /**
   * Squadrons kept In Reserve at deployment, the turn whose Deployment Phase brings them in, and
   * how many squadrons to deploy Embarked on carriers when the Deployment Type allows (GM-18).
   */
  holdBack(): { squadrons: number; untilTurn: number; embark?: number };
  /** Whether to declare an action when the engine finds it available. */
  wants(view: PolicyView, m: BattleModel, action: Exclude<ActionName, 'none'>, rng: RandomStream): boolean;
  /**
   * True when pickDeployment and holdBack depend only on what they are given (no random draws,
   * nothing remembered from one call to the next): the engine may then reuse a whole first
   * Deployment Phase from an earlier game that started the same way.
   */
  readonly deploysByRule?: boolean;
  /**
   * True when targetOrder depends only on what it is given and the table (no random draws,
   * nothing remembered between calls): asked twice with nothing changed in between, it gives
   * the same list, so the engine may keep the first answer instead of asking again.
   */
  readonly targetsByRule?: boolean;
}

/** A parameter a policy accepts: its default and allowed range. */
export interface ParamSpec {
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /** Whole numbers only (counts, turns, and 0/1 switches). */
  readonly integer?: boolean;
  readonly summary: string;
}
