// Playing printed dice through the engagement engines: attack plans (planAttack + rollPlan),
// rams (planRam + rollRam) and damage (applyResults), with ScriptedDice that must be
// consumed exactly.
import { expect } from 'vitest';
import { Roller } from '../../src/dice/roll.js';
import { outcomeName, parseOutcome } from '../../src/dice/outcome.js';
import type { Pool } from '../../src/dice/pool.js';
import { rollPlan } from '../../src/engine/attack.js';
import { planAttack, type AttackPlan, type Situation } from '../../src/engine/attackPlan.js';
import { DamageTally, applyResults } from '../../src/engine/damage.js';
import { rollRam, type RamPlan, type RamRoll } from '../../src/engine/ram.js';
import { CombatState } from '../../src/engine/state.js';
import { PlaceholderUsage } from '../../src/engine/usage.js';
import type { CompiledRules } from '../../src/rules/compile.js';
import { ScriptedDice } from '../../src/rng/scripted.js';
import type { UnitCard, WeaponLine } from '../../src/units/types.js';

/** Outcome code of a canonical outcome text such as "[D2,T3]"; throws on bad text. */
export function code(text: string): number {
  const c = parseOutcome(text);
  if (c === null) throw new Error(`not an outcome: ${text}`);
  return c;
}

export const name = outcomeName;

/** The shape of a pool without its reroll count. */
export function shape(p: Pool): { base: number; flex: number; macro: number } {
  return { base: p.base, flex: p.flex, macro: p.macro };
}

/** planAttack that must succeed. */
export function mustPlan(rules: CompiledRules, attacker: CombatState | UnitCard, weapon: WeaponLine, target: CombatState | UnitCard, at: Situation): AttackPlan {
  const a = attacker instanceof CombatState ? attacker : new CombatState(attacker);
  const t = target instanceof CombatState ? target : new CombatState(target);
  const r = planAttack(rules, a, weapon, t, at, new PlaceholderUsage(rules));
  if (!r.ok) throw new Error(`planAttack refused: ${r.reason}`);
  return r.plan;
}

/** planAttack's refusal reason, or null when it plans the attack. */
export function refusal(rules: CompiledRules, attacker: CombatState | UnitCard, weapon: WeaponLine, target: CombatState | UnitCard, at: Situation): string | null {
  const a = attacker instanceof CombatState ? attacker : new CombatState(attacker);
  const t = target instanceof CombatState ? target : new CombatState(target);
  const r = planAttack(rules, a, weapon, t, at, new PlaceholderUsage(rules));
  return r.ok ? null : r.reason;
}

/** Rolls the plan with exactly these faces (attack base + Flex dice, its Macro dice, then point defence). */
export function playAttack(rules: CompiledRules, plan: AttackPlan, faces: readonly number[]): number {
  const dice = new ScriptedDice(faces);
  const out = rollPlan(rules, new Roller(rules.dice), plan, dice);
  dice.assertConsumed();
  return out;
}

/** Applies an outcome to the state; returns what it did. */
export function damage(rules: CompiledRules, target: CombatState, outcome: number): DamageTally {
  const tally = new DamageTally();
  applyResults(rules, target, outcome, tally);
  return tally;
}

export interface PlayedRam {
  roll: RamRoll;
  rammer: CombatState;
  target: CombatState;
  /** The tally rollRam was given (the target's damage). */
  tally: DamageTally;
}

/** Rolls a ram with exactly these faces: point defence, Skill Test, rammer's attack, target's return roll. */
export function playRam(rules: CompiledRules, plan: RamPlan, rammerUnit: UnitCard, targetUnit: UnitCard, faces: readonly number[]): PlayedRam {
  const rammer = new CombatState(rammerUnit);
  rammer.structure = 1;
  const target = new CombatState(targetUnit);
  const tally = new DamageTally();
  const dice = new ScriptedDice(faces);
  const roll = rollRam(rules, plan, rammer, target, new Roller(rules.dice), dice, tally);
  dice.assertConsumed();
  return { roll, rammer, target, tally };
}

/** Asserts |sampled - exact| is within 4 standard errors, and equality where exact is 0 or 1. */
export function expectProportion(sampled: number, exact: number, trials: number, what: string): void {
  if (exact === 0 || exact === 1) {
    expect(sampled, `${what}: exact ${exact}`).toBe(exact);
    return;
  }
  const se = Math.sqrt((exact * (1 - exact)) / trials);
  expect(Math.abs(sampled - exact), `${what}: sampled ${sampled} vs exact ${exact} (se ${se})`).toBeLessThan(4 * se);
}

/** Same for a mean, given the exact distribution of the quantity (P(value = k), k = 0..). */
export function expectMean(sampled: number, exactMean: number, exactHist: readonly number[], trials: number, what: string): void {
  let ex2 = 0;
  for (let k = 0; k < exactHist.length; k++) ex2 += exactHist[k] * k * k;
  const variance = Math.max(0, ex2 - exactMean * exactMean);
  if (variance < 1e-15) {
    expect(sampled, `${what}: exact mean ${exactMean} with no variance`).toBeCloseTo(exactMean, 12);
    return;
  }
  const se = Math.sqrt(variance / trials);
  expect(Math.abs(sampled - exactMean), `${what}: sampled ${sampled} vs exact ${exactMean} (se ${se})`).toBeLessThan(4 * se);
}
