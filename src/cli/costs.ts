// jwsim costs: what should each unit cost? And what is +1 of a rating worth (--stat UNIT)?
import { Command, Option } from 'commander';
import { UserError } from '../errors.js';
import { STAT_RATINGS, originalPlaceholders, placeholdersUsed, statValues, suggestedTvs, withPlusOne, type StatRating } from '../report/costs.js';
import { acrossRosters, modelFitNote, ROSTER_RANGE_WORDS } from '../report/efficiency.js';
import { resultsJson } from '../report/runOutput.js';
import type { RunResults } from '../report/runFolder.js';
import { duelCell, generatedBatch, type Variant } from '../scenarios/batch.js';
import { MAX_CELLS } from '../scenarios/batchSchema.js';
import { runBatch } from '../sim/runner.js';
import { CHUNK_TRIALS } from '../sim/slots.js';
import { findUnit } from '../units/load.js';
import { MAX_POOL, MAX_STRUCTURE } from '../units/schema.js';
import type { Roster, UnitCard } from '../units/types.js';
import { intInRange, seedOption, threadsOption } from './args.js';
import { DEFAULT_SEED } from '../rng/stream.js';
import { loadOverlay } from '../rules/overlay.js';
import { addJsonOption, addUnitsOption, loadUnits, placeholderLines, rangeOption } from './engagementArgs.js';
import { formatTable } from './format.js';
import { fixed, signedPercent } from '../numbers.js';
import { addRulesOptions, rulesContext, rulesHeader, type RulesContext, type RulesOpts } from './rulesContext.js';
import { GEOM_EPSILON } from '../engine/geometry.js';
import { longRangeMax } from '../engine/geometryArcs.js';

interface CostsOpts extends RulesOpts {
  units?: string[];
  range: number;
  trials: number;
  threads: number;
  seed: string;
  stat?: string;
  json: boolean;
}

/** How --stat names each rating in its table. */
const RATING_LABEL: Record<StatRating, string> = { structure: 'Structure', fire_control: 'Fire Control', sensors: 'Sensors', thrusters: 'Thrusters', skill: 'Skill', weapon_die: 'weapon die (AC and AS of line 1)' };

export function costsCommand(): Command {
  const cmd = new Command('costs')
    .description('Suggested TV for every unit of a roster, from a duel matrix (see README "Points efficiency"); --stat UNIT: the points value of +1 to each rating.')
    .addOption(rangeOption().makeOptionMandatory(false).default(6))
    .addOption(new Option('--trials <n>', `duels per ordered pair (${CHUNK_TRIALS}..10000000)`).argParser(intInRange(CHUNK_TRIALS, 10_000_000)).default(CHUNK_TRIALS))
    .addOption(threadsOption())
    .addOption(seedOption('seed of the random streams', DEFAULT_SEED))
    .option('--stat <unit>', 'instead: the points value of +1 Structure, Fire Control, Sensors, Thrusters, Skill and one weapon die for this unit');
  addUnitsOption(cmd);
  addRulesOptions(cmd);
  addJsonOption(cmd);
  return cmd.action(async (opts: CostsOpts) => {
    process.stdout.write(await runCosts(opts));
  });
}

/**
 * Runs the ordered duel matrix of `roster`, plus `copies` of the unit `original` against the
 * roster only: the very opponents the original meets, not the original itself (a near-mirror
 * duel would measure the copy against a rival the original never faces).
 */
async function matrix(roster: Roster, variant: Variant, opts: CostsOpts, original?: UnitCard, copies: UnitCard[] = []): Promise<RunResults> {
  const ids = [...roster.units.keys()];
  checkMatrixSize(ids.length, copies.length);
  const cells = ids.flatMap((a) => ids.filter((b) => b !== a).map((b) => duelCell('costs', a, b, opts.range, opts.trials)));
  for (const u of copies) for (const b of ids) if (b !== original?.id) cells.push(duelCell('costs', u.id, b, opts.range, opts.trials), duelCell('costs', b, u.id, opts.range, opts.trials));
  const all: Roster = { files: roster.files, units: new Map([...roster.units, ...copies.map((u) => [u.id, u] as const)]) };
  const batch = generatedBatch('jwsim costs duel matrix', all, opts.seed, variant, cells);
  const run = await runBatch(batch, { threads: opts.threads, shard: null, checkpoint: null });
  return JSON.parse(resultsJson(batch, run.slots)) as RunResults;
}

/**
 * The matrix is one engagement per ordered pair (plus two per copy and opponent), each built and
 * kept in memory like a batch's: refuse more than a batch may hold before any duel is played.
 */
function checkMatrixSize(units: number, copies: number): void {
  const duels = (n: number) => n * (n - 1) + 2 * copies * (n - 1);
  if (duels(units) <= MAX_CELLS) return;
  let most = units;
  while (most > 3 && duels(most) > MAX_CELLS) most--;
  const extra = copies ? ` (with --stat, ${copies} altered copies of the unit against each opponent in both orders)` : '';
  throw new UserError(`--units: costs plays every ordered pair of the roster${extra}: ${units} units make ${duels(units)} duel match-ups; at most ${MAX_CELLS} are allowed (a roster of at most ${most} units); give fewer units with --units`);
}

/** A --range beyond every unit's reach would give a matrix of draws and no price curve: refuse it, naming the longest reach. */
function checkSomeoneReaches(ctx: RulesContext, roster: Roster, range: number): void {
  const kinds = new Set([...roster.units.values()].map((u): 'capital' | 'squadron' => (u.isCapital ? 'capital' : 'squadron')));
  let best = { inches: 0, unit: '', kind: '' };
  for (const u of roster.units.values()) {
    for (const kind of kinds) {
      const inches = longRangeMax(ctx.compiled.combat, kind, u.sensors);
      if (inches > best.inches) best = { inches, unit: u.id, kind };
    }
  }
  if (range > best.inches + GEOM_EPSILON) {
    throw new UserError(`--range: at ${range} in no unit reaches another, so every duel would be a draw and no price could be read; the longest reach is ${best.inches} in (${best.unit} against ${best.kind === 'capital' ? 'capital ships' : 'squadrons'}); give a --range of at most ${best.inches}`);
  }
}

export async function runCosts(opts: CostsOpts): Promise<string> {
  const ctx = rulesContext(opts, { command: 'jwsim costs (it plays duels)', reads: 'duel' });
  const roster = loadUnits(opts);
  if (roster.units.size < 3) throw new UserError(`--units: costs needs at least 3 units to fit a price curve; the roster has ${roster.units.size}`);
  checkSomeoneReaches(ctx, roster, opts.range);
  const variant: Variant = { name: `v${ctx.version.id}`, rules: ctx.version.id, options: opts.rule, overlay: opts.rulesOverlay ? loadOverlay(opts.rulesOverlay) : null };
  if (opts.stat) {
    const unit = findUnit(roster, opts.stat, '--stat');
    const copies = STAT_RATINGS.map((r) => withPlusOne(unit, r, { structure: MAX_STRUCTURE, pool: MAX_POOL })).filter((u) => u !== null);
    const results = await matrix(roster, variant, opts, unit, copies);
    const values = statValues(results, variant.name, unit, roster, { structure: MAX_STRUCTURE, pool: MAX_POOL });
    const used = originalPlaceholders(placeholdersUsed(results));
    if (opts.json) return JSON.stringify({ unit: unit.id, tv: unit.tv, rules: ctx.version.id, options: ctx.options, seed: opts.seed, stat_values: values, placeholders: used }, null, 2) + '\n';
    return [
      `jwsim costs --stat ${unit.id}: points value of +1 to each rating of ${unit.name} (TV ${unit.tv})`,
      ...rulesHeader(ctx),
      '',
      ...formatTable(
        ['+1 to', 'TV value', '95% interval', 'roster range', 'note'],
        values.map((v) => [RATING_LABEL[v.rating], v.value ? fixed(v.value.value, 1) : '-', v.value ? `${fixed(v.value.low, 1)} .. ${fixed(v.value.high, 1)}` : '-', v.rosterRange ? `${fixed(v.rosterRange.low, 1)} .. ${fixed(v.rosterRange.high, 1)}` : '-', v.note]),
      ),
      '',
      `The 95% interval is Monte Carlo noise; the roster range is ${ROSTER_RANGE_WORDS}, here of the copy's fair TV less the unit's: how much the value leans on which opponents this roster holds.`,
      '',
      ...placeholderLines(used),
    ].join('\n') + '\n';
  }
  const results = await matrix(roster, variant, opts);
  const suggested = suggestedTvs(results, variant.name).sort((a, b) => a.change - b.change);
  const used = placeholdersUsed(results);
  if (opts.json) return JSON.stringify({ rules: ctx.version.id, options: ctx.options, range_inches: opts.range, trials_per_pair: opts.trials, seed: opts.seed, units: suggested, placeholders: used }, null, 2) + '\n';
  const num = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
  return [
    `jwsim costs: suggested TV of ${suggested.length} units from an ordered duel matrix at ${opts.range} in (${opts.trials} duels per pair, seed ${opts.seed})`,
    ...rulesHeader(ctx),
    '',
    ...formatTable(
      ['unit', 'TV', 'suggested', '95% interval', 'roster range', 'change', 'verdict', 'across rosters', 'misfit'],
      suggested.map((s) => [
        s.id,
        String(s.tv),
        num(s.suggested.value),
        Number.isFinite(s.suggested.value) ? `${num(s.suggested.low)} .. ${num(s.suggested.high)}` : '-',
        Number.isFinite(s.rosterRange.low) ? `${num(s.rosterRange.low)} .. ${num(s.rosterRange.high)}` : '-',
        Number.isFinite(s.change) ? signedPercent(s.change) : '-',
        s.verdict,
        acrossRosters(s.holdsAcrossRosters),
        s.misfit.toFixed(3),
      ]),
    ),
    '',
    ...(suggested.some((s) => Number.isFinite(s.suggested.value)) ? [modelFitNote(suggested)!, ''] : []),
    ...suggested.filter((s) => Math.abs(s.suggested.value - s.tv) < 1e-9).flatMap((s) => [`${s.id}: the price curve passes through it (the unit with the median residual), so its suggested TV is its card TV by construction and its narrow interval says nothing about precision; its roster range does.`, '']),
    ...(suggested.every((s) => !Number.isFinite(s.suggested.value)) ? ['No price curve: strength does not grow with TV across this roster at this range, so no fair TV can be read (verdict unknown).', ''] : []),
    ...placeholderLines(used),
    `Suggested TV = the TV at which the unit would sit on the roster's price curve (README, "Points efficiency"); the 95% interval is Monte Carlo noise only; roster range = ${ROSTER_RANGE_WORDS}; across rosters = whether a flagged verdict holds over that whole range, i.e. when a random quarter of the units is dropped; misfit = the mean gap between the unit's duel scores and those the fitted strengths predict.`,
  ].join('\n') + '\n';
}
