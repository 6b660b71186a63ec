// Options shared by the engagement commands (attack, volley, ram, duel): unit files, the
// situation, sampling, and how placeholders are reported.
import { Option, type Command } from 'commander';
import { UserError } from '../errors.js';
import type { Aspect } from '../engine/attackPlan.js';
import { DEFAULT_SEED } from '../rng/stream.js';
import { loadRoster } from '../units/load.js';
import { CARD_FIELDS } from '../units/schema.js';
import type { Roster, UnitCard } from '../units/types.js';
import { sampleRosterFiles } from '../paths.js';
import { inchesArg, intInRange, seedOption } from './args.js';
import { addRulesOptions } from './rulesContext.js';

export const MAX_RANGE_INCHES = 120;
export const MAX_ENGAGEMENT_TRIALS = 10_000_000;

export function addUnitsOption(cmd: Command, defaultText = 'the sample roster, scenarios/units/sample-roster.json'): Command {
  return cmd.addOption(new Option('--units <files...>', `unit card files (JSON, schema scenarios/schemas/units.schema.json) (default: ${defaultText})`));
}

export function loadUnits(opts: { units?: string[] }): Roster {
  return loadRoster(opts.units && opts.units.length ? opts.units : sampleRosterFiles());
}

export function rangeOption(): Option {
  return new Option('--range <inches>', `distance between the bases in inches (0..${MAX_RANGE_INCHES})`).argParser(inchesArg(MAX_RANGE_INCHES)).makeOptionMandatory();
}

export function aspectOption(flag = '--aspect <arc>', what = "the target's arc the attacker is in"): Option {
  return new Option(flag, `${what}: front, side or rear (squadrons have no facing)`).choices(['front', 'side', 'rear']).default('front');
}

export function firingArcOption(flag = '--firing-arc <arc>', what = "the attacker's arc the target is in"): Option {
  return new Option(flag, `${what}: F, P, S, R, or auto (the arc that brings the most firepower to bear)`).choices(['F', 'P', 'S', 'R', 'auto']).default('auto');
}

export function addSamplingOptions(cmd: Command, defaultTrials: number | undefined, what: string): Command {
  return cmd
    .addOption(new Option('--trials <n>', `${what} (1..${MAX_ENGAGEMENT_TRIALS})`).argParser(intInRange(1, MAX_ENGAGEMENT_TRIALS)).default(defaultTrials, defaultTrials === undefined ? 'exact, no sampling' : undefined))
    .addOption(seedOption('seed of the random streams (with sampling)', DEFAULT_SEED));
}

export function addJsonOption(cmd: Command): Command {
  return cmd.option('--json', 'print one JSON object on stdout instead of tables', false);
}

/** The options every engagement command ends with, in help order: --units, the rules options, sampling, --json. */
export function addEngagementOptions(cmd: Command, defaultTrials: number | undefined, trialsHelp: string): Command {
  return addJsonOption(addSamplingOptions(addRulesOptions(addUnitsOption(cmd)), defaultTrials, trialsHelp));
}

/** Lines telling which placeholder values a result used. */
/** "UNIT.FIELD" placeholder entries: the unit id and the card field path. */
const CARD_ENTRY = new RegExp(`^(.+?)\\.((?:${CARD_FIELDS.join('|')})(?:[.[].*)?)$`);

/**
 * The warning every text output ends with when it used invented values: one line per unit
 * card naming its placeholder fields, then one per rules table (--json lists every entry).
 */
export function placeholderLines(list: readonly string[]): string[] {
  if (!list.length) return ['placeholders used: none'];
  const cards = new Map<string, string[]>();
  const rules: string[] = [];
  for (const p of list) {
    const m = CARD_ENTRY.exec(p);
    if (!m) rules.push(p);
    else if (cards.has(m[1])) cards.get(m[1])!.push(m[2]);
    else cards.set(m[1], [m[2]]);
  }
  return [
    `WARNING: this result uses ${list.length} placeholder value${list.length > 1 ? 's' : ''} (invented, not from the published rules or cards; --json lists each):`,
    ...[...cards].map(([unit, fields]) => `  - ${unit}: ${fields.join(', ')}`),
    ...rules.map((p) => `  - ${p}`),
  ];
}

export type AspectArg = Aspect;

/** --seed only matters when sampling: refuse it without --trials, as jwsim dice does. */
export function checkSeedNeedsTrials(command: Command, trials: number | undefined): void {
  if (command.getOptionValueSource('seed') === 'cli' && trials === undefined) {
    throw new UserError('--seed: only used with --trials (the exact method draws no random numbers)');
  }
}

/** The options (by attribute name, e.g. "firingArc") given on the command line rather than left at their defaults. */
export function optionsGiven(command: Command): Set<string> {
  return new Set(command.options.map((o) => o.attributeName()).filter((k) => command.getOptionValueSource(k) === 'cli'));
}

/** An aspect option (--aspect, --b-aspect) given for a squadron target cannot apply: refuse it. */
export function refuseAspectAgainstSquadron(given: ReadonlySet<string>, key: string, flag: string, target: UnitCard): void {
  if (given.has(key) && !target.isCapital) throw new UserError(`${flag}: ${target.id} is a squadron and has no facing; leave ${flag} out`);
}

/** --firing-arc F, P, S or R for a squadron attacker cannot apply (auto is its meaning anyway): refuse it. */
export function refuseFiringArcForSquadron(given: ReadonlySet<string>, firingArc: string, attacker: UnitCard): void {
  if (given.has('firingArc') && firingArc !== 'auto' && !attacker.isCapital) {
    throw new UserError(`--firing-arc: ${attacker.id} is a squadron; squadron weapons fire in every direction; leave --firing-arc out`);
  }
}
