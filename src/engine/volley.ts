// A volley: every weapon of the attacker that bears on the target, one attack per weapon
// instance, at most Fire Control attacks (v1.2.1 /attack: each attack costs 1 Fire Control).
// Order policy, stated: the attacks with the highest expected Structure damage against the
// target as it stands go first, ties to more expected criticals, then card order.
import { AliasSampler } from '../dice/alias.js';
import { BEST_MAG, MAG_D } from '../dice/outcome.js';
import { resolvePool } from '../dice/pool.js';
import { exactDistribution } from '../dice/exact.js';
import type { CompiledRules } from '../rules/compile.js';
import type { RandomStream } from '../rng/stream.js';
import { exactAttack, planSampler } from './attack.js';
import { planAttack, type AttackPlan, type Situation } from './attackPlan.js';
import { applyResults, type DamageTally } from './damage.js';
import { COUNTERMEASURES, CombatState } from './state.js';
import type { PlaceholderUsage } from './usage.js';

/**
 * The attacks of a volley in firing order, one per weapon instance that can fire, with
 * their alias samplers. Point defence depends on the target's Defense at the moment of each
 * attack, so samplers of defended attacks are kept per (Defense, Countermeasures) and built
 * the first time that state occurs.
 */
export class VolleyPlan {
  /** By attack, then by Defense * 2 + Countermeasures. */
  private readonly defended: Array<Array<AliasSampler | undefined>>;
  constructor(
    private readonly rules: CompiledRules,
    readonly attacks: readonly AttackPlan[],
    /** Cloak: one Skill Test for the whole volley; null when none is needed. */
    readonly cloakTest: AliasSampler | null,
    /** Weapons that cannot fire, with the reason. */
    readonly skipped: ReadonlyArray<{ weapon: string; reason: string }>,
    private readonly plain: ReadonlyArray<AliasSampler | null>,
  ) {
    this.defended = attacks.map(() => []);
  }

  /** Sampler of attack i against the target as it is now. */
  sampler(i: number, target: CombatState): AliasSampler {
    const plain = this.plain[i];
    if (plain) return plain;
    const cm = target.systemWorking(COUNTERMEASURES) ? 1 : 0;
    const key = target.defense * 2 + cm;
    let s = this.defended[i][key];
    if (!s) {
      const defence = target.defense > 0 ? resolvePool(this.rules.dice, { base: target.defense, rerollSources: cm }) : null;
      s = planSampler(this.rules, { ...this.attacks[i], defence }, false);
      this.defended[i][key] = s;
    }
    return s;
  }
}

/**
 * The weapons a volley skips, for a message: "Name: reason; ...". Most reasons already open with
 * the weapon's name ("Missiles (arcs P, S) does not bear ..."); those are not prefixed again.
 */
export function skippedText(skipped: ReadonlyArray<{ weapon: string; reason: string }>): string {
  return skipped.map((s) => (s.reason.startsWith(s.weapon) ? s.reason : `${s.weapon}: ${s.reason}`)).join('; ');
}

export function planVolley(rules: CompiledRules, attacker: CombatState, target: CombatState, at: Situation, usage: PlaceholderUsage): VolleyPlan {
  const ranked: Array<{ plan: AttackPlan; damage: number; crits: number; order: number }> = [];
  const skipped: Array<{ weapon: string; reason: string }> = [];
  const fresh = new CombatState(target.unit);
  for (const weapon of attacker.unit.weapons) {
    const r = planAttack(rules, attacker, weapon, target, at, usage);
    if (!r.ok) {
      skipped.push({ weapon: weapon.name, reason: r.reason });
      continue;
    }
    // Ranked against the undamaged target, so the order does not depend on when (in a duel:
    // in which trial) the plan is made; the plan itself follows the target's working systems.
    const { summary } = exactAttack(rules, { ...r.plan, cloakTestDice: 0 }, fresh);
    for (let k = 0; k < weapon.count; k++) ranked.push({ plan: r.plan, damage: summary.meanStructureDamage, crits: summary.meanCriticals, order: weapon.index });
  }
  ranked.sort((x, y) => y.damage - x.damage || y.crits - x.crits || x.order - y.order);
  const attacks = ranked.map((x) => x.plan);
  const cloakDice = attacks.length ? attacks[0].cloakTestDice : 0;
  const cloakTest = cloakDice ? new AliasSampler(exactDistribution(rules.dice, resolvePool(rules.dice, { base: cloakDice }))) : null;
  return new VolleyPlan(rules, attacks, cloakTest, skipped, attacks.map((p) => (p.defence ? null : planSampler(rules, p, false))));
}

/** Fires the volley with the attacker's current Fire Control; damage lands attack by attack. */
export function fireVolley(rules: CompiledRules, plan: VolleyPlan, attacker: CombatState, target: CombatState, rng: RandomStream, tally: DamageTally): number {
  if (plan.cloakTest && BEST_MAG[plan.cloakTest.sample(rng)] < MAG_D) return 0;
  const shots = Math.min(attacker.fireControl(), plan.attacks.length);
  for (let i = 0; i < shots && !target.destroyed; i++) applyResults(rules, target, plan.sampler(i, target).sample(rng), tally);
  return shots;
}
