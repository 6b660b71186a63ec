// jwsim volley: every weapon of one unit that bears on another, within Fire Control.
import { Command } from 'commander';
import type { Aspect, Situation } from '../engine/attackPlan.js';
import { CombatState } from '../engine/state.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../engine/usage.js';
import { planVolley, type VolleyPlan } from '../engine/volley.js';
import { exactAttack } from '../engine/attack.js';
import { UserError } from '../errors.js';
import type { CompiledRules } from '../rules/compile.js';
import { sampledVolley } from '../sim/engagements.js';
import { findUnit } from '../units/load.js';
import { addJsonOption, addSamplingOptions, addUnitsOption, aspectOption, firingArcOption, loadUnits, placeholderLines, rangeOption } from './engagementArgs.js';
import { damageJson, damageTable, unitJson } from './engagementOutput.js';
import { addRulesOptions, rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';

export const DEFAULT_VOLLEY_TRIALS = 100_000;
const ARCS = ['F', 'P', 'S', 'R'] as const;

interface VolleyOpts extends RulesOpts {
  attacker: string;
  target: string;
  range: number;
  aspect: Aspect;
  firingArc: (typeof ARCS)[number] | 'auto';
  units?: string[];
  trials: number;
  seed: string;
  json: boolean;
}

/** Expected Structure damage of the first Fire Control attacks, each on the fresh target. */
function firepower(rules: CompiledRules, plan: VolleyPlan, attacker: CombatState, target: CombatState): number {
  return plan.attacks.slice(0, attacker.fireControl()).reduce((sum, p) => sum + exactAttack(rules, p, target).summary.meanStructureDamage + 1e-6, 0);
}

/**
 * The arc the attacker presents: the one given, or with `auto` the arc bringing the most
 * expected Structure damage to bear (ties to F, P, S, R in that order).
 */
export function chooseVolleyArc(rules: CompiledRules, attacker: CombatState, target: CombatState, range: number, aspect: Aspect, arc: VolleyOpts['firingArc'], usage: PlaceholderUsage) {
  const arcs = arc === 'auto' ? (attacker.unit.isCapital ? ARCS : (['F'] as const)) : [arc];
  let best: { at: Situation; plan: VolleyPlan; power: number } | null = null;
  for (const targetArc of arcs) {
    const at: Situation = { rangeInches: range, aspect, targetArc };
    const plan = planVolley(rules, attacker, target, at, arc === 'auto' ? new PlaceholderUsage(rules) : usage);
    const power = firepower(rules, plan, attacker, target);
    if (!best || power > best.power) best = { at, plan, power };
  }
  if (arc === 'auto') planVolley(rules, attacker, target, best!.at, usage); // record the placeholders of the chosen arc
  return best!;
}

export function volleyCommand(): Command {
  const cmd = new Command('volley')
    .description('What a whole volley does: every weapon that bears, at most Fire Control attacks, highest expected damage first.')
    .requiredOption('--attacker <id>', 'attacking unit id')
    .requiredOption('--target <id>', 'target unit id')
    .addOption(rangeOption())
    .addOption(aspectOption())
    .addOption(firingArcOption());
  addUnitsOption(cmd);
  addRulesOptions(cmd);
  addSamplingOptions(cmd, DEFAULT_VOLLEY_TRIALS, 'Monte Carlo volleys');
  addJsonOption(cmd);
  return cmd.action((opts: VolleyOpts) => {
    process.stdout.write(runVolley(opts));
  });
}

export function runVolley(opts: VolleyOpts): string {
  const ctx = rulesContext(opts);
  const roster = loadUnits(opts);
  const attacker = findUnit(roster, opts.attacker, '--attacker');
  const target = findUnit(roster, opts.target, '--target');
  const rules = ctx.compiled;
  const a = new CombatState(attacker);
  const t = new CombatState(target);
  const usage = new PlaceholderUsage(rules).unit(attacker, 'tv', 'fire_control');
  const { at, plan } = chooseVolleyArc(rules, a, t, opts.range, opts.aspect, opts.firingArc, usage);
  if (plan.attacks.length === 0) {
    throw new UserError(`cannot attack: no weapon of ${attacker.name} can fire at ${target.name}: ${plan.skipped.map((s) => `${s.weapon}: ${s.reason}`).join('; ')}`);
  }
  noteTargetDamageFields(usage, target);
  const { summary, meanAttacks } = sampledVolley(rules, plan, a, t, opts.seed, `volley/${attacker.id}/${target.id}`, opts.trials);
  const placeholders = usage.list();
  const order = plan.attacks.slice(0, a.fireControl()).map((p) => p.weapon.name);
  if (opts.json) {
    const body = {
      ...rulesJson(ctx),
      method: 'monte-carlo',
      trials: opts.trials,
      seed: opts.seed,
      attacker: unitJson(attacker),
      target: unitJson(target),
      situation: { range_inches: opts.range, aspect: opts.aspect, firing_arc: at.targetArc },
      attacks: order,
      skipped: plan.skipped,
      mean_attacks: meanAttacks,
      ...damageJson(summary, attacker.tv),
      placeholders,
    };
    return JSON.stringify(body, null, 2) + '\n';
  }
  return (
    [
      `jwsim volley: ${attacker.name} -> ${target.name} at ${opts.range} in, from its ${opts.aspect}, target in the attacker's ${at.targetArc} arc`,
      ...rulesHeader(ctx),
      `method: Monte Carlo, ${opts.trials} volleys, seed ${opts.seed} (± is one standard error)`,
      `attacks in order (Fire Control ${a.fireControl()}): ${order.join(', ')}`,
      ...plan.skipped.map((s) => `not firing: ${s.weapon}: ${s.reason}`),
      '',
      ...damageTable(summary, attacker.tv),
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}
