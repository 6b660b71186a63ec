// jwsim attack: one weapon line of one unit at another, exactly (default) or sampled.
import { Command } from 'commander';
import { exactAttack } from '../engine/attack.js';
import { firstArc, planAttack, type Aspect, type Situation } from '../engine/attackPlan.js';
import { CombatState } from '../engine/state.js';
import { PlaceholderUsage, noteTargetDamageFields } from '../engine/usage.js';
import { UserError } from '../errors.js';
import { sampledAttack } from '../sim/engagements.js';
import { findUnit, weaponLine, weaponLines } from '../units/load.js';
import type { UnitCard, WeaponLine } from '../units/types.js';
import { addEngagementOptions, aspectOption, checkSeedNeedsTrials, firingArcOption, loadUnits, optionsGiven, placeholderLines, rangeOption, refuseAspectAgainstSquadron, refuseFiringArcForSquadron } from './engagementArgs.js';
import { damageJson, damageTable, unitJson } from './engagementOutput.js';
import { rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';

interface AttackOpts extends RulesOpts {
  attacker: string;
  weapon: string;
  target: string;
  range: number;
  aspect: Aspect;
  firingArc: 'F' | 'P' | 'S' | 'R' | 'auto';
  units?: string[];
  trials?: number;
  seed: string;
  json: boolean;
}

export function attackCommand(): Command {
  const cmd = new Command('attack')
    .description('What one weapon line does to a target: P(destroyed), P(crippled), mean Structure and rating damage. Exact unless --trials is given.')
    .requiredOption('--attacker <id>', 'attacking unit id (jwsim units lists them)')
    .requiredOption('--weapon <name>', 'weapon line by name as printed on the card, or #N for the N-th line')
    .requiredOption('--target <id>', 'target unit id')
    .addOption(rangeOption())
    .addOption(aspectOption())
    .addOption(firingArcOption());
  addEngagementOptions(cmd, undefined, 'estimate by Monte Carlo with this many attacks instead of computing exactly');
  cmd.addHelpText('after', '\nExample:\n  jwsim attack --attacker cega.wyvern --weapon "Mass Driver" --target jovian.alexander --range 8 --aspect side');
  return cmd.action((opts: AttackOpts, command: Command) => {
    checkSeedNeedsTrials(command, opts.trials);
    process.stdout.write(runAttack(opts, optionsGiven(command)));
  });
}

/** The weapon line called `name` ("#2" = the second line), or a UserError listing the lines. */
export function findWeapon(unit: UnitCard, name: string): WeaponLine {
  const hit = weaponLine(unit, name);
  if (hit) return hit;
  throw new UserError(`--weapon: ${unit.name} has no weapon line "${name}"; its lines: ${weaponLines(unit)}`);
}

/** `given`: the options given on the command line (optionsGiven), to refuse those that cannot apply. */
export function runAttack(opts: AttackOpts, given: ReadonlySet<string> = new Set()): string {
  const ctx = rulesContext(opts, { command: 'jwsim attack', reads: 'attack' });
  const roster = loadUnits(opts);
  const attacker = findUnit(roster, opts.attacker, '--attacker');
  const target = findUnit(roster, opts.target, '--target');
  const weapon = findWeapon(attacker, opts.weapon);
  refuseAspectAgainstSquadron(given, 'aspect', '--aspect', target);
  refuseFiringArcForSquadron(given, opts.firingArc, attacker);
  const rules = ctx.compiled;
  const a = new CombatState(attacker);
  const t = new CombatState(target);
  const targetArc = opts.firingArc === 'auto' ? firstArc(weapon) : opts.firingArc;
  const at: Situation = { rangeInches: opts.range, aspect: opts.aspect, targetArc };
  const usage = new PlaceholderUsage(rules).unit(attacker, 'tv');
  const planned = planAttack(rules, a, weapon, t, at, usage);
  if (!planned.ok) throw new UserError(`cannot attack: ${planned.reason}`);
  const plan = planned.plan;
  noteTargetDamageFields(usage, target);
  const summary = opts.trials === undefined ? exactAttack(rules, plan, t).summary : sampledAttack(rules, plan, t, opts.seed, `attack/${attacker.id}/${weapon.index}/${target.id}`, opts.trials);
  const placeholders = usage.list();
  if (opts.json) {
    return (
      JSON.stringify(
        {
          ...rulesJson(ctx),
          method: opts.trials === undefined ? 'exact' : 'monte-carlo',
          ...(opts.trials === undefined ? {} : { trials: opts.trials, seed: opts.seed }),
          attacker: unitJson(attacker),
          target: unitJson(target),
          weapon: weapon.name,
          // Squadrons have no facing: no aspect against one, no firing arc for one.
          situation: { range_inches: opts.range, aspect: target.isCapital ? opts.aspect : null, firing_arc: attacker.isCapital ? targetArc : null, band: plan.band },
          pool: plan.pool,
          point_defence: plan.defence,
          cloak_test_dice: plan.cloakTestDice,
          ...damageJson(summary, attacker.tv),
          placeholders,
        },
        null,
        2,
      ) + '\n'
    );
  }
  const lines = [
    `jwsim attack: ${attacker.name} ${weapon.name} -> ${target.name} at ${opts.range} in${target.isCapital ? `, from its ${opts.aspect}` : ''}`,
    ...rulesHeader(ctx),
    opts.trials === undefined ? 'method: exact' : `method: Monte Carlo, ${opts.trials} attacks, seed ${opts.seed} (± is one standard error)`,
    `pool: ${plan.notes.join('; ')} -> ${plan.pool.base} base${plan.pool.flex ? ` + ${plan.pool.flex} Flex` : ''}${plan.pool.macro ? `, Macro ${plan.pool.macro}` : ''}${plan.pool.rerolls ? `, ${plan.pool.rerolls} reroll` : ''}`,
    '',
    ...damageTable(summary, attacker.tv),
    '',
    ...placeholderLines(placeholders),
  ];
  return lines.join('\n') + '\n';
}
