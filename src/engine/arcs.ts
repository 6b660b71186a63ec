// Which of its arcs an attacker presents to its target. Given explicitly, or `auto`: the
// arc bringing the most expected Structure damage to bear with the first Fire Control
// attacks (ties go to F, P, S, R in that order). Squadrons have no facing: always F.
import type { CompiledRules } from '../rules/compile.js';
import { exactAttack } from './attack.js';
import type { Aspect, Situation } from './attackPlan.js';
import type { CombatState } from './state.js';
import { PlaceholderUsage } from './usage.js';
import { planVolley, type VolleyPlan } from './volley.js';

/** An arc, `auto` (the one with the most firepower) or `side` (the better of P and S). */
export type ArcChoice = Situation['targetArc'] | 'auto' | 'side';
const ARCS = ['F', 'P', 'S', 'R'] as const;

function firepower(rules: CompiledRules, plan: VolleyPlan, attacker: CombatState, target: CombatState): number {
  let sum = 0;
  for (const p of plan.attacks.slice(0, attacker.fireControl())) sum += exactAttack(rules, p, target).summary.meanStructureDamage + 1e-6;
  return sum;
}

/** The volley plan for the chosen arc; its placeholders are recorded in `usage`. */
export function bestVolley(rules: CompiledRules, attacker: CombatState, target: CombatState, range: number, aspect: Aspect, arc: ArcChoice, usage: PlaceholderUsage): { at: Situation; plan: VolleyPlan } {
  const arcs = !attacker.unit.isCapital ? (['F'] as const) : arc === 'auto' ? ARCS : arc === 'side' ? (['P', 'S'] as const) : [arc];
  let best: { at: Situation; plan: VolleyPlan; power: number } | null = null;
  for (const targetArc of arcs) {
    const at: Situation = { rangeInches: range, aspect, targetArc };
    const plan = planVolley(rules, attacker, target, at, arcs.length > 1 ? new PlaceholderUsage(rules) : usage);
    const power = arcs.length > 1 ? firepower(rules, plan, attacker, target) : 0;
    if (!best || power > best.power) best = { at, plan, power };
  }
  if (arcs.length > 1) planVolley(rules, attacker, target, best!.at, usage); // record the chosen arc's placeholders
  return { at: best!.at, plan: best!.plan };
}

export function chooseArc(rules: CompiledRules, attacker: CombatState, target: CombatState, range: number, aspect: Aspect, arc: ArcChoice): Situation['targetArc'] {
  return bestVolley(rules, attacker, target, range, aspect, arc, new PlaceholderUsage(rules)).at.targetArc;
}

/**
 * The arc of `self` that `other` stands in, when `other` is at `self`'s front, side or rear:
 * F, R, or at the side the better broadside (P or S) for self's own attacks, at the aspect
 * from which self attacks other. Squadrons have no facing: F.
 */
export function arcFacing(rules: CompiledRules, self: CombatState, other: CombatState, range: number, otherStandsAt: Aspect, selfAttacksFrom: Aspect): Situation['targetArc'] {
  if (otherStandsAt === 'front') return 'F';
  if (otherStandsAt === 'rear') return 'R';
  return chooseArc(rules, self, other, range, selfAttacksFrom, 'side');
}
