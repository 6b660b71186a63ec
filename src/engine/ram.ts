// Ramming (rules v1.2.1 /special_actions/ramming, seed 003; game.md §8; v1.2.2 by GM-25).
// The rammer must have exactly 1 Structure left, so it is set to 1 here. Three cases:
//   capital -> capital: Skill Test [D+]; both ships roll their starting Structure, every
//     success Escalated; +1d6 each when head-on; side/rear bonus to the rammer.
//   squadron -> capital: the ship's point defence attack; Skill + 1d6 test [D+]; the rammer
//     is destroyed and attacks with X base + X Flex dice, X = half its starting Structure.
//   squadron -> squadron: point defence; Skill test [D+]; X base + X Macro dice.
// A capital ship may not ram a squadron. Every roll is independent, so the result is exact.
import { exactDistribution, mapDistribution, type Distribution } from '../dice/exact.js';
import { BEST_MAG, ESCALATE_ALL, MAG_D, OUTCOME_CODES } from '../dice/outcome.js';
import type { Roller } from '../dice/roll.js';
import type { RandomStream } from '../rng/stream.js';
import { MAX_ROLLED_BASE_DICE, resolvePool, type Pool } from '../dice/pool.js';
import { pAtLeast } from '../dice/summary.js';
import { UserError } from '../errors.js';
import type { CompiledRules } from '../rules/compile.js';
import type { UnitCard } from '../units/types.js';
import type { Aspect } from './attackPlan.js';
import { DamageTally, applyResults } from './damage.js';
import { CombatState } from './state.js';
import { DamageStats, type DamageSummary } from './stats.js';
import { PlaceholderUsage, noteTargetDamageFields } from './usage.js';

export type RamCase = 'capital-capital' | 'squadron-capital' | 'squadron-squadron';

export interface RamPlan {
  readonly kind: RamCase;
  /** Defence roll against the rammer before it strikes (point defence), or null. */
  readonly defence: Pool | null;
  /** The rammer's Skill Test pool ([D+] needed). */
  readonly skill: Pool;
  /** The rammer's attack on the target (Results escalated in the capital case). */
  readonly rammerAttack: Pool;
  /** The target's return roll (capital case only). */
  readonly targetAttack: Pool | null;
  readonly escalate: boolean;
  readonly notes: readonly string[];
}

/** X for squadron rams: half the starting Structure/Damage, rounded up, at least 1 (GM-24). */
export function squadronRamDice(start: number): number {
  return Math.max(1, Math.ceil(start / 2));
}

/** What a battle knows about a ram beyond the two cards and the struck arc. */
export interface RamContact {
  /** Both front arcs face each other (GM-22); without it, a hit on the target's front arc counts as head-on. */
  readonly headOn?: boolean;
  /** The target's current Defense for its point defence (without it, the card's). */
  readonly targetDefense?: number;
}

export function planRam(rules: CompiledRules, rammer: UnitCard, target: UnitCard, aspect: Aspect, usage: PlaceholderUsage, contact: RamContact = {}): RamPlan {
  const c = rules.combat;
  const dice = rules.dice;
  if (rammer.isCapital && !target.isCapital) throw new UserError(`--target: a capital ship may not ram a squadron (${rammer.name} -> ${target.name})`);
  usage.unit(rammer, 'skill', 'structure').unit(target, 'structure');
  if (rammer.isCapital) {
    const headOn = contact.headOn ?? aspect === 'front';
    const rammerBase: number[] = [];
    const rammerFlex: number[] = [];
    const notes = [`rammer ${rammer.structure} dice (starting Structure)`, `target ${target.structure} dice`];
    let targetBonus = 0;
    if (rules.flags.ramFrontAlways) {
      rammerBase.push(c.ramHeadOnBonus); // the v1.2.1 example's "+1D6 for front arc"
      notes.push(`rammer +${c.ramHeadOnBonus} for its front arc (ram_front_bonus=RAMMER_ALWAYS)`);
      if (headOn) targetBonus = c.ramHeadOnBonus;
    } else if (headOn) {
      rammerBase.push(c.ramHeadOnBonus);
      targetBonus = c.ramHeadOnBonus;
      notes.push(`head-on: both +${c.ramHeadOnBonus}`);
    }
    if (!rules.flags.ramFrontAlways && aspect !== 'front') {
      if (rules.flags.ramFlankGeneral) {
        const b = aspect === 'side' ? c.sideBonus : c.rearBonus;
        if (b.base) rammerBase.push(b.base);
        if (b.flex) rammerFlex.push(b.flex);
        usage.rule(aspect === 'side' ? 'combat.sideBonus' : 'combat.rearBonus');
      } else {
        rammerBase.push(aspect === 'side' ? c.ramSideBonus : c.ramRearBonus);
        usage.rule(aspect === 'side' ? 'combat.ramSideBonus' : 'combat.ramRearBonus');
      }
      notes.push(`rammer strikes the target's ${aspect}`);
    }
    noteTargetDamageFields(usage, target);
    noteTargetDamageFields(usage, rammer);
    return checkPools({
      kind: 'capital-capital',
      defence: null,
      skill: resolvePool(dice, { base: rammer.skill }),
      rammerAttack: resolvePool(dice, { base: rammer.structure, baseModifiers: rammerBase, flexGrants: rammerFlex }),
      targetAttack: resolvePool(dice, { base: target.structure + targetBonus }),
      escalate: true,
      notes,
    });
  }
  const x = squadronRamDice(rammer.structure);
  const defense = contact.targetDefense ?? target.defense;
  usage.unit(target, 'defense');
  noteTargetDamageFields(usage, target);
  const toCapital = target.isCapital;
  return checkPools({
    kind: toCapital ? 'squadron-capital' : 'squadron-squadron',
    defence: defense > 0 ? resolvePool(dice, { base: Math.min(defense, MAX_ROLLED_BASE_DICE) }) : null,
    skill: resolvePool(dice, { base: rammer.skill, baseModifiers: toCapital ? [1] : [] }),
    rammerAttack: toCapital ? resolvePool(dice, { base: x, flexGrants: [x] }) : resolvePool(dice, { base: x, macro: x }),
    targetAttack: null,
    escalate: false,
    notes: [`point defence ${defense}`, `Skill Test ${rammer.skill}${toCapital ? ' + 1' : ''} dice`, toCapital ? `attack ${x} base + ${x} Flex` : `attack ${x} base + ${x} Macro`],
  });
}

/** A ram whose pools exceed the dice kernel is refused (bonus dice from overlays can push them there). */
function checkPools(plan: RamPlan): RamPlan {
  for (const [what, pool] of [['rammer', plan.rammerAttack], ['target', plan.targetAttack], ['Skill Test', plan.skill], ['point defence', plan.defence]] as const) {
    if (pool && (pool.base + pool.flex > MAX_ROLLED_BASE_DICE || Math.abs(pool.macro) > 6)) {
      throw new UserError(`ram: the ${what} pool of ${pool.base + pool.flex} base and Flex dice with Macro ${pool.macro} exceeds the dice kernel (at most ${MAX_ROLLED_BASE_DICE} and ±6)`);
    }
  }
  return plan;
}

export interface RamResult {
  /** P(the ram is made): the rammer survives point defence and passes its Skill Test. */
  pRams: number;
  /** P(the rammer is destroyed by point defence / by a failed Skill Test). */
  pShotDown: number;
  pSkillFails: number;
  target: DamageSummary;
  rammer: DamageSummary;
}

/** Exact result of a ram. */
export function exactRam(rules: CompiledRules, plan: RamPlan, rammerUnit: UnitCard, targetUnit: UnitCard): RamResult {
  const rammer = new CombatState(rammerUnit);
  rammer.structure = 1; // the rule requires exactly 1 Structure left
  let pSurvives = 1;
  if (plan.defence) {
    const pd = exactDistribution(rules.dice, plan.defence);
    pSurvives = 0;
    const probe = new CombatState(rammerUnit);
    const tally = new DamageTally();
    for (let code = 0; code < OUTCOME_CODES; code++) {
      if (pd[code] === 0) continue;
      probe.copyFrom(rammer);
      applyResults(rules, probe, code, tally);
      if (!probe.destroyed) pSurvives += pd[code];
    }
  }
  const clamp = (p: number) => Math.min(1, Math.max(0, p)); // sums of exact probabilities can stray by 1e-15
  pSurvives = clamp(pSurvives);
  const pSkill = clamp(pAtLeast(exactDistribution(rules.dice, plan.skill), MAG_D));
  const pRams = pSurvives * pSkill;
  const targetStats = damageOf(rules, targetUnit, null, attackDist(rules, plan.rammerAttack, plan.escalate), pRams);
  const rammerStats = new DamageStats();
  if (plan.targetAttack) {
    // Both ships roll at once (GM-78); the return roll hits the rammer at 1 Structure.
    damageOf(rules, rammerUnit, rammer, attackDist(rules, plan.targetAttack, true), pRams, rammerStats);
    addUntouched(rammerStats, rammer, 1 - pRams);
  } else {
    // A squadron rammer is destroyed either way: by point defence, by failing, or by ramming.
    const gone = new CombatState(rammerUnit);
    gone.structure = 0;
    gone.destroyed = true;
    const t = new DamageTally();
    t.structure = 1;
    rammerStats.add(1, gone, t);
  }
  return { pRams, pShotDown: 1 - pSurvives, pSkillFails: pSurvives * (1 - pSkill), target: targetStats.summary(false), rammer: rammerStats.summary(false) };
}

function attackDist(rules: CompiledRules, pool: Pool, escalate: boolean): Distribution {
  const d = exactDistribution(rules.dice, pool);
  return escalate ? mapDistribution(d, ESCALATE_ALL) : d;
}

/** Damage stats of `dist` landing with probability `pHit` (untouched otherwise). */
function damageOf(rules: CompiledRules, unit: UnitCard, from: CombatState | null, dist: Distribution, pHit: number, stats = new DamageStats()): DamageStats {
  const start = from ?? new CombatState(unit);
  const s = new CombatState(unit);
  const tally = new DamageTally();
  for (let code = 0; code < OUTCOME_CODES; code++) {
    if (dist[code] === 0) continue;
    s.copyFrom(start);
    tally.reset();
    applyResults(rules, s, code, tally);
    stats.add(dist[code] * pHit, s, tally);
  }
  if (!from) addUntouched(stats, start, 1 - pHit);
  return stats;
}

function addUntouched(stats: DamageStats, state: CombatState, p: number): void {
  if (p > 0) stats.add(p, state, new DamageTally());
}

/** Damage that lands on the rammer during a rolled ram is not the caller's to count. */
const SCRATCH = new DamageTally();

/** What one rolled ram did. */
export interface RamRoll {
  /** 'shot-down' by point defence, 'failed' Skill Test, or 'rammed'. */
  readonly result: 'shot-down' | 'failed' | 'rammed';
  readonly rammerCode: number;
  readonly targetCode: number;
}

/**
 * Rolls a ram with dice, in table order: point defence, Skill Test, the rammer's attack,
 * then the target's return roll. Damage lands on the given states (the rammer at 1).
 */
export function rollRam(rules: CompiledRules, plan: RamPlan, rammer: CombatState, target: CombatState, roller: Roller, rng: RandomStream, tally: DamageTally): RamRoll {
  rammer.structure = Math.min(rammer.structure, 1);
  if (plan.defence) {
    // Point defence damages the rammer, not the target: its own tally.
    SCRATCH.reset();
    applyResults(rules, rammer, roller.unopposed(plan.defence, rng), SCRATCH);
    if (rammer.destroyed) return { result: 'shot-down', rammerCode: 0, targetCode: 0 };
  }
  const skill = roller.unopposed(plan.skill, rng);
  if (BEST_MAG[skill] < MAG_D) {
    if (plan.kind !== 'capital-capital') {
      rammer.structure = 0; // the ram fails and the squadron is destroyed
      rammer.destroyed = true;
    }
    return { result: 'failed', rammerCode: 0, targetCode: 0 };
  }
  let rammerCode = roller.unopposed(plan.rammerAttack, rng);
  if (plan.escalate) rammerCode = ESCALATE_ALL[rammerCode];
  let targetCode = 0;
  if (plan.targetAttack) targetCode = ESCALATE_ALL[roller.unopposed(plan.targetAttack, rng)];
  // Simultaneous (GM-78): both rolls are made, then both land.
  applyResults(rules, target, rammerCode, tally);
  SCRATCH.reset();
  if (plan.kind === 'capital-capital') applyResults(rules, rammer, targetCode, SCRATCH);
  else {
    rammer.structure = 0;
    rammer.destroyed = true; // a ramming squadron is destroyed
  }
  return { result: 'rammed', rammerCode, targetCode };
}
