// One attack, exactly or by Monte Carlo. The exact path sums the damage of every distinct
// outcome weighted by its probability (the damage rules are deterministic given the
// outcome); the sampled path rolls the dice, and must agree with it.
import { AliasSampler } from '../dice/alias.js';
import { exactDistribution, opposedDistribution, supportOf, type Distribution } from '../dice/exact.js';
import { resolveOpposed } from '../dice/opposed.js';
import { BEST_MAG, MAG_D, NO_RESULT, OUTCOME_CODES } from '../dice/outcome.js';
import { resolvePool } from '../dice/pool.js';
import type { Roller } from '../dice/roll.js';
import { pAtLeast } from '../dice/summary.js';
import type { CompiledRules } from '../rules/compile.js';
import type { RandomStream } from '../rng/stream.js';
import type { AttackPlan } from './attackPlan.js';
import { DamageTally, applyResults } from './damage.js';
import { CombatState } from './state.js';
import { DamageStats } from './stats.js';

/** P(the attacker passes the Skill Test [D+] a Cloaked target demands); 1 when none is needed. */
export function cloakPass(rules: CompiledRules, plan: AttackPlan): number {
  if (plan.cloakTestDice === 0) return 1;
  return pAtLeast(exactDistribution(rules.dice, resolvePool(rules.dice, { base: plan.cloakTestDice })), MAG_D);
}

/**
 * Distribution of the Results that reach the target: the attack roll, less what point
 * defence diminishes (Opposed Roll), with a failed Cloak test counting as no Result.
 */
export function planDistribution(rules: CompiledRules, plan: AttackPlan, withCloakTest = true): Distribution {
  const dist = plan.defence ? opposedDistribution(rules.dice, plan.pool, null, plan.defence) : exactDistribution(rules.dice, plan.pool);
  const pass = withCloakTest ? cloakPass(rules, plan) : 1;
  if (pass === 1) return dist;
  const out = new Float64Array(OUTCOME_CODES);
  for (let c = 0; c < OUTCOME_CODES; c++) out[c] = dist[c] * pass;
  out[NO_RESULT] += 1 - pass;
  return out;
}

/** Exact damage of one attack on a target in the given state. */
export function exactAttack(rules: CompiledRules, plan: AttackPlan, target: CombatState) {
  return exactResults(rules, planDistribution(rules, plan), target);
}

/** exactAttack from the distribution of the Results that reach the target (planDistribution). */
export function exactResults(rules: CompiledRules, dist: Distribution, target: CombatState) {
  const stats = new DamageStats();
  const scratch = new CombatState(target.unit);
  const tally = new DamageTally();
  // The nonzero codes in ascending order, as a full scan would visit them (the same sums).
  const support = supportOf(dist);
  for (let i = 0; i < support.length; i++) {
    const code = support[i];
    scratch.copyFrom(target);
    tally.reset();
    applyResults(rules, scratch, code, tally);
    stats.add(dist[code], scratch, tally);
  }
  return { dist, summary: stats.summary(false) };
}

/** One attack rolled with dice: the Results that reach the target. */
export function rollPlan(rules: CompiledRules, roller: Roller, plan: AttackPlan, rng: RandomStream): number {
  if (plan.cloakTestDice) {
    const test = roller.unopposed(resolvePool(rules.dice, { base: plan.cloakTestDice }), rng);
    if (BEST_MAG[test] < MAG_D) return NO_RESULT;
  }
  const code = roller.unopposed(plan.pool, rng);
  if (!plan.defence) return code;
  return resolveOpposed(rules.dice, code, null, roller.unopposed(plan.defence, rng));
}

/**
 * The same Results drawn with one random number from the exact distribution (alias table).
 * Volleys make the Cloak test once for all their attacks, so they leave it out here.
 */
export function planSampler(rules: CompiledRules, plan: AttackPlan, withCloakTest: boolean): AliasSampler {
  return new AliasSampler(planDistribution(rules, plan, withCloakTest));
}
