// jwsim volley: every weapon of one unit that bears on another, within Fire Control.
import { Command } from 'commander';
import type { Aspect } from '../engine/attackPlan.js';
import { CombatState } from '../engine/state.js';
import { skippedText } from '../engine/volley.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../engine/usage.js';
import { bestVolley, type ArcChoice } from '../engine/arcs.js';
import { UserError } from '../errors.js';
import { sampledVolley } from '../sim/engagements.js';
import { findUnit } from '../units/load.js';
import { addEngagementOptions, aspectOption, firingArcOption, loadUnits, optionsGiven, placeholderLines, rangeOption, refuseAspectAgainstSquadron, refuseFiringArcForSquadron } from './engagementArgs.js';
import { damageJson, damageTable, unitJson } from './engagementOutput.js';
import { rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';

export const DEFAULT_VOLLEY_TRIALS = 100_000;

interface VolleyOpts extends RulesOpts {
  attacker: string;
  target: string;
  range: number;
  aspect: Aspect;
  firingArc: ArcChoice;
  units?: string[];
  trials: number;
  seed: string;
  json: boolean;
}

export function volleyCommand(): Command {
  const cmd = new Command('volley')
    .description('What a whole volley does: every weapon that bears, at most Fire Control attacks, highest expected damage first.')
    .requiredOption('--attacker <id>', 'attacking unit id')
    .requiredOption('--target <id>', 'target unit id')
    .addOption(rangeOption())
    .addOption(aspectOption())
    .addOption(firingArcOption());
  addEngagementOptions(cmd, DEFAULT_VOLLEY_TRIALS, 'Monte Carlo volleys');
  cmd.addHelpText('after', '\nExample:\n  jwsim volley --attacker jovian.alexander --target unknown.tengu --range 9 --aspect side');
  return cmd.action((opts: VolleyOpts, command: Command) => {
    process.stdout.write(runVolley(opts, optionsGiven(command)));
  });
}

/** `given`: the options given on the command line (optionsGiven), to refuse those that cannot apply. */
export function runVolley(opts: VolleyOpts, given: ReadonlySet<string> = new Set()): string {
  const ctx = rulesContext(opts, { command: 'jwsim volley', reads: 'volley' });
  const roster = loadUnits(opts);
  const attacker = findUnit(roster, opts.attacker, '--attacker');
  const target = findUnit(roster, opts.target, '--target');
  refuseAspectAgainstSquadron(given, 'aspect', '--aspect', target);
  refuseFiringArcForSquadron(given, opts.firingArc, attacker);
  const rules = ctx.compiled;
  const a = new CombatState(attacker);
  const t = new CombatState(target);
  const usage = new PlaceholderUsage(rules).unit(attacker, 'tv', 'fire_control');
  const { at, plan } = bestVolley(rules, a, t, opts.range, opts.aspect, opts.firingArc, usage);
  if (attacker.weapons.length === 0) throw new UserError(`cannot attack: ${attacker.name} has no weapons (its card lists no weapon lines)`);
  if (plan.attacks.length === 0) {
    throw new UserError(`cannot attack: no weapon of ${attacker.name} can fire at ${target.name}: ${skippedText(plan.skipped)}`);
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
      // Squadrons have no facing: no aspect against one, no firing arc for one.
      situation: { range_inches: opts.range, aspect: target.isCapital ? opts.aspect : null, firing_arc: attacker.isCapital ? at.targetArc : null },
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
      `jwsim volley: ${attacker.name} -> ${target.name} at ${opts.range} in${target.isCapital ? `, from its ${opts.aspect}` : ''}${attacker.isCapital ? `, target in the attacker's ${at.targetArc} arc` : ''}`,
      ...rulesHeader(ctx),
      `method: Monte Carlo, ${opts.trials} volleys, seed ${opts.seed} (± is one standard error)`,
      `attacks in order (Fire Control ${a.fireControl()}): ${order.join(', ')}`,
      ...plan.skipped.map((s) => `not firing: ${skippedText([s])}`),
      '',
      ...damageTable(summary, attacker.tv),
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}
