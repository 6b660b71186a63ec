// jwsim duel A B: two units trade volleys until one is out of the fight.
import { Command, Option } from 'commander';
import type { Aspect } from '../engine/attackPlan.js';
import { Duel, whyCrippledChangesNothing, whyNobodyFires, type CrippledIrrelevance, type FiringArc } from '../engine/duel.js';
import { UserError } from '../errors.js';
import type { CompiledRules } from '../rules/compile.js';
import { CombatState } from '../engine/state.js';
import { arcFacing } from '../engine/arcs.js';
import { skippedText } from '../engine/volley.js';
import { runDuel } from '../sim/engagements.js';
import { wilson } from '../stats/intervals.js';
import { findUnit } from '../units/load.js';
import type { UnitCard } from '../units/types.js';
import { intInRange } from './args.js';
import { addEngagementOptions, aspectOption, loadUnits, optionsGiven, placeholderLines, rangeOption, refuseAspectAgainstSquadron } from './engagementArgs.js';
import { formatTable, pct } from './format.js';
import { rulesContext, rulesHeader, rulesJson, type RulesContext, type RulesOpts } from './rulesContext.js';

export const DEFAULT_DUEL_TRIALS = 20_000;
export const DEFAULT_DUEL_ROUNDS = 20;

interface DuelOpts extends RulesOpts {
  range: number;
  aspect: Aspect;
  bAspect: Aspect;
  until: 'destroyed' | 'crippled';
  rounds: number;
  first: 'a' | 'b' | 'random';
  units?: string[];
  trials: number;
  seed: string;
  json: boolean;
}

export function duelCommand(): Command {
  const cmd = new Command('duel')
    .description('Is A worth its TV against B? A and B trade volleys at a fixed distance until one is out of the fight; win, loss and draw rates with 95% intervals.')
    // Optional for commander, required by the action, so that a missing id can be explained
    // (--units takes every following word as a file, unit ids included).
    .usage('[options] <a> <b>')
    .argument('[a]', 'unit id of side A')
    .argument('[b]', 'unit id of side B')
    .addOption(rangeOption())
    .addOption(aspectOption('--aspect <arc>', "which of B's arcs A stands in, and so fires into (at side, B shows A its better broadside)"))
    .addOption(aspectOption('--b-aspect <arc>', "which of A's arcs B stands in, and so fires into (at side, A shows B its better broadside)"))
    .addOption(new Option('--until <state>', 'a side is out when destroyed, or already when crippled (this differs only where a side can be Crippled and fight on, e.g. v1.2.1 squadrons; otherwise it is refused, saying why)').choices(['destroyed', 'crippled']).default('destroyed'))
    .addOption(new Option('--rounds <n>', 'round limit; a duel still open then is a draw (1..1000)').argParser(intInRange(1, 1000)).default(DEFAULT_DUEL_ROUNDS))
    .addOption(new Option('--first <side>', 'who fires first each round: a, b, or random (a coin per duel)').choices(['a', 'b', 'random']).default('random'));
  addEngagementOptions(cmd, DEFAULT_DUEL_TRIALS, 'duels to play');
  cmd.addHelpText(
    'after',
    '\nExample:\n  jwsim duel cega.wyvern jovian.pathfinder --range 6 --trials 50000 --seed 7\n' +
      '\n--units takes every word after it as a unit file, so give the unit ids before it:\n' +
      '  jwsim duel cega.wyvern jovian.pathfinder --range 6 --units my-units.json\n' +
      'or end the file list with -- and give the ids last:\n' +
      '  jwsim duel --units my-units.json --range 6 -- cega.wyvern jovian.pathfinder',
  );
  return cmd.action((a: string | undefined, b: string | undefined, opts: DuelOpts, command: Command) => {
    if (a === undefined || b === undefined) throw new UserError(missingIdMessage(a === undefined ? 'a' : 'b', opts.units));
    process.stdout.write(runDuelCommand(a, b, opts, optionsGiven(command)));
  });
}

/** A unit id is missing; when --units was given it most likely took the ids as file names. */
function missingIdMessage(arg: 'a' | 'b', units: string[] | undefined): string {
  const base = `missing required argument '${arg}' (the unit id of side ${arg.toUpperCase()})`;
  if (!units?.length) return base;
  return (
    `${base}: --units takes every word after it as a unit file, and here it took ${units.map((u) => `"${u}"`).join(', ')}; ` +
    'give the unit ids before --units (jwsim duel A B --units FILE ...), or end the file list with -- and give the ids last (jwsim duel --units FILE ... -- A B)'
  );
}

const CRIPPLED_REASONS: Record<CrippledIrrelevance, (ctx: RulesContext, u: UnitCard) => string> = {
  inert: (ctx) => `a Crippled capital ship is out of the fight anyway (crippled_capital=${ctx.options.crippled_capital})`,
  'capital-never': (ctx) => `a capital ship at 0 Structure is always Destroyed under rules v${ctx.version.id} (Catastrophic Damage Table), whatever crippled_capital says`,
  'squadron-never': (ctx) => `squadrons have no Crippled state under rules v${ctx.version.id} (crippled_squadrons=${ctx.options.crippled_squadrons})`,
  'no-small-boxes': (_ctx, u) =>
    `it has no small damage boxes (${u.crippledAt === 0 ? 'its crippled_at is 0' : `half its Structure ${u.structure}, rounded down, is 0`}), so it is Destroyed, never Crippled`,
};
const CRIPPLED_FIXES: Partial<Record<CrippledIrrelevance, string>> = {
  inert: '--rule crippled_capital=FIGHTS_ON',
  'squadron-never': '--rule crippled_squadrons=ALWAYS',
};

/** --until crippled must be able to end some duel earlier than --until destroyed would. */
function checkUntilCrippled(ctx: RulesContext, a: UnitCard, b: UnitCard): void {
  const why = [a, b].map((u) => whyCrippledChangesNothing(ctx.compiled, u));
  if (why[0] === null || why[1] === null) return;
  // One clause per reason, naming every model it applies to.
  const clauses = new Map<string, string[]>();
  [a, b].forEach((u, i) => {
    const text = CRIPPLED_REASONS[why[i]!](ctx, u);
    clauses.set(text, [...new Set([...(clauses.get(text) ?? []), u.name])]);
  });
  const parts = [...clauses].map(([text, names]) => `${names.join(' and ')}: ${text}`);
  const fixes = [...new Set(why.map((r) => CRIPPLED_FIXES[r!]).filter((f) => f !== undefined))];
  throw new UserError(
    `--until crippled: neither side can become Crippled and stay in the fight, so the duel would be the same as --until destroyed: ${parts.join('; ')}; ` +
      `leave --until out${fixes.length ? `, or change the rules (${fixes.join(', ')})` : ''}`,
  );
}

/** A duel in which neither side ever fires is all draws: refuse it, saying why each side cannot fire. */
function checkSomeoneFires(rules: CompiledRules, duel: Duel, range: number): void {
  const silent = whyNobodyFires(rules, duel);
  if (!silent) return;
  const parts = silent.reasons.join('; ');
  if (silent.reach !== null) throw new UserError(`--range: at ${range} in neither side can fire, so every duel would be a draw: ${parts}; give a --range of at most ${silent.reach}`);
  throw new UserError(`cannot duel: neither side can fire at the other, so every duel would be a draw: ${parts}`);
}

/** "A fires from B's rear with B in its P arc": only what facing means (squadrons have none). */
function positionLine(a: UnitCard, b: UnitCard, aspect: string, bAspect: string, arcOfA: string, arcOfB: string): string {
  if (!a.isCapital && !b.isCapital) return 'both sides are squadrons: no facing, every weapon bears';
  const side = (label: string, self: UnitCard, other: UnitCard, otherLabel: string, from: string, arc: string) =>
    [`${label} fires`, ...(other.isCapital ? [`from ${otherLabel}'s ${from}`] : []), ...(self.isCapital ? [`with ${otherLabel} in its ${arc} arc`] : [])].join(' ');
  return `${side('A', a, b, 'B', aspect, arcOfA)}; ${side('B', b, a, 'A', bAspect, arcOfB)}`;
}

function rateJson(k: number, n: number) {
  const ci = wilson(k, n);
  return { rate: k / n, low: ci.low, high: ci.high };
}

/** `given`: the options given on the command line (optionsGiven), to refuse those that cannot apply. */
export function runDuelCommand(aId: string, bId: string, opts: DuelOpts, given: ReadonlySet<string> = new Set()): string {
  const ctx = rulesContext(opts, { command: 'jwsim duel', reads: 'duel' });
  const roster = loadUnits(opts);
  const a = findUnit(roster, aId, 'A');
  const b = findUnit(roster, bId, 'B');
  const rules = ctx.compiled;
  // --aspect is B's arc that A stands in, --b-aspect A's arc that B stands in.
  refuseAspectAgainstSquadron(given, 'aspect', '--aspect', b);
  refuseAspectAgainstSquadron(given, 'bAspect', '--b-aspect', a);
  if (opts.until === 'crippled') checkUntilCrippled(ctx, a, b);
  const arcOfA = arcFacing(rules, new CombatState(a), new CombatState(b), opts.range, opts.bAspect, opts.aspect);
  const arcOfB = arcFacing(rules, new CombatState(b), new CombatState(a), opts.range, opts.aspect, opts.bAspect);
  const duel = new Duel(rules, { a, b, rangeInches: opts.range, arcOfA, arcOfB, until: opts.until, maxRounds: opts.rounds, first: opts.first });
  checkSomeoneFires(rules, duel, opts.range);
  const counts = runDuel(duel, opts.seed, `duel/${a.id}/${b.id}`, opts.trials);
  const placeholders = duel.usage.list();
  const n = counts.trials;
  const aWin = rateJson(counts.aWins, n);
  const bWin = rateJson(counts.bWins, n);
  const draw = rateJson(counts.draws, n);
  const meanRounds = counts.roundsTotal / n;
  if (opts.json) {
    const side = (u: UnitCard, w: ReturnType<typeof rateJson>, arc: FiringArc, skipped: typeof duel.skippedA) => ({
      id: u.id,
      name: u.name,
      tv: u.tv,
      win_rate: w.rate,
      win_rate_95: { low: w.low, high: w.high },
      firing_arc: u.isCapital ? arc : null,
      weapons_not_firing: skipped,
    });
    const body = {
      ...rulesJson(ctx),
      method: 'monte-carlo',
      trials: n,
      seed: opts.seed,
      // Squadrons have no facing: no aspect to attack one from, no firing arc of one.
      situation: { range_inches: opts.range, a_attacks_from: b.isCapital ? opts.aspect : null, b_attacks_from: a.isCapital ? opts.bAspect : null, until: opts.until, max_rounds: opts.rounds, first: opts.first },
      a: side(a, aWin, arcOfA, duel.skippedA),
      b: side(b, bWin, arcOfB, duel.skippedB),
      draw_rate: draw.rate,
      draw_rate_95: { low: draw.low, high: draw.high },
      mean_rounds: meanRounds,
      rounds_histogram: counts.roundsHistogram.map((c) => c / n),
      placeholders,
    };
    return JSON.stringify(body, null, 2) + '\n';
  }
  const row = (label: string, r: ReturnType<typeof rateJson>) => [label, pct(r.rate), `${pct(r.low)} .. ${pct(r.high)}`];
  return (
    [
      `jwsim duel: ${a.name} (A, TV ${a.tv}) vs ${b.name} (B, TV ${b.tv}) at ${opts.range} in, until ${opts.until}, at most ${opts.rounds} rounds`,
      ...rulesHeader(ctx),
      `method: Monte Carlo, ${n} duels, seed ${opts.seed}; first to fire: ${opts.first}`,
      positionLine(a, b, opts.aspect, opts.bAspect, arcOfA, arcOfB),
      ...duel.skippedA.map((s) => `A not firing: ${skippedText([s])}`),
      ...duel.skippedB.map((s) => `B not firing: ${skippedText([s])}`),
      '',
      ...formatTable(['outcome', 'rate', '95% interval'], [row(`${a.name} wins`, aWin), row(`${b.name} wins`, bWin), row('draw', draw)]),
      '',
      `mean rounds: ${meanRounds.toFixed(2)}`,
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}
