// jwsim ram: what happens when a model at its last point of Structure rams another.
import { Command } from 'commander';
import type { Aspect } from '../engine/attackPlan.js';
import { exactRam, planRam } from '../engine/ram.js';
import { CombatState } from '../engine/state.js';
import { PlaceholderUsage } from '../engine/usage.js';
import { sampledRam } from '../sim/engagements.js';
import { findUnit } from '../units/load.js';
import { UserError } from '../errors.js';
import { addEngagementOptions, aspectOption, checkSeedNeedsTrials, loadUnits, optionsGiven, placeholderLines, refuseAspectAgainstSquadron } from './engagementArgs.js';
import { damageJson, damageTable, unitJson } from './engagementOutput.js';
import { pct } from './format.js';
import { rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';

interface RamOpts extends RulesOpts {
  rammer: string;
  target: string;
  aspect: Aspect;
  units?: string[];
  trials?: number;
  seed: string;
  json: boolean;
}

export function ramCommand(): Command {
  const cmd = new Command('ram')
    .description('A ram by a model at its last point of Structure (capital/capital, squadron/capital, squadron/squadron). Exact unless --trials is given.')
    .requiredOption('--rammer <id>', 'ramming unit id (taken to have exactly 1 Structure left, as the rule requires)')
    .requiredOption('--target <id>', 'rammed unit id')
    .addOption(aspectOption('--aspect <arc>', "the target's arc a capital-ship rammer strikes (front = head-on; a squadron's ram gets no arc bonus)"));
  addEngagementOptions(cmd, undefined, 'estimate by Monte Carlo with this many rams instead of computing exactly');
  cmd.addHelpText('after', '\nExample:\n  jwsim ram --rammer jovian.valiant --target unknown.tengu --aspect side --rules 1.2.1');
  return cmd.action((opts: RamOpts, command: Command) => {
    checkSeedNeedsTrials(command, opts.trials);
    process.stdout.write(runRam(opts, optionsGiven(command)));
  });
}

/** `given`: the options given on the command line (optionsGiven), to refuse those that cannot apply. */
export function runRam(opts: RamOpts, given: ReadonlySet<string> = new Set()): string {
  const ctx = rulesContext(opts, { command: 'jwsim ram', reads: 'ram' });
  const roster = loadUnits(opts);
  const rammer = findUnit(roster, opts.rammer, '--rammer');
  const target = findUnit(roster, opts.target, '--target');
  const rules = ctx.compiled;
  const usage = new PlaceholderUsage(rules).unit(rammer, 'tv');
  const plan = planRam(rules, rammer, target, opts.aspect, usage);
  // The arc struck only counts when a capital ship rams one: a squadron has no facing, and a
  // squadron's ram on a capital ship gets no arc bonus (game.md GM-91).
  const aspectCounts = plan.kind === 'capital-capital';
  refuseAspectAgainstSquadron(given, 'aspect', '--aspect', target);
  if (given.has('aspect') && !aspectCounts) {
    throw new UserError(`--aspect: ${rammer.id} is a squadron, and a squadron's ram gets no arc bonus (game.md GM-91); leave --aspect out`);
  }
  const result =
    opts.trials === undefined
      ? exactRam(rules, plan, rammer, target)
      : sampledRam(rules, plan, new CombatState(rammer), new CombatState(target), opts.seed, `ram/${rammer.id}/${target.id}`, opts.trials);
  const placeholders = usage.list();
  if (opts.json) {
    const body = {
      ...rulesJson(ctx),
      method: opts.trials === undefined ? 'exact' : 'monte-carlo',
      ...(opts.trials === undefined ? {} : { trials: opts.trials, seed: opts.seed }),
      case: plan.kind,
      rammer: unitJson(rammer),
      target: unitJson(target),
      aspect: aspectCounts ? opts.aspect : null,
      pools: { point_defence: plan.defence, skill: plan.skill, rammer_attack: plan.rammerAttack, target_attack: plan.targetAttack, escalate: plan.escalate },
      p_rams: result.pRams,
      p_shot_down: result.pShotDown,
      p_skill_fails: result.pSkillFails,
      ...damageJson(result.target, rammer.tv),
      rammer_damage: damageJson(result.rammer, target.tv),
      placeholders,
    };
    return JSON.stringify(body, null, 2) + '\n';
  }
  return (
    [
      `jwsim ram: ${rammer.name} (1 Structure left) rams ${target.name}${aspectCounts ? ` in its ${opts.aspect}` : ''} (${plan.kind})`,
      ...rulesHeader(ctx),
      opts.trials === undefined ? 'method: exact' : `method: Monte Carlo, ${opts.trials} rams, seed ${opts.seed}`,
      `pools: ${plan.notes.join('; ')}`,
      `P(ram made) ${pct(result.pRams)}   P(shot down by point defence) ${pct(result.pShotDown)}   P(Skill Test fails) ${pct(result.pSkillFails)}`,
      '',
      `damage to ${target.name}:`,
      ...damageTable(result.target, rammer.tv),
      '',
      `damage to ${rammer.name} (from 1 Structure):`,
      ...damageTable(result.rammer, target.tv),
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}
