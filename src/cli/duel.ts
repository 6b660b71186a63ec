// jwsim duel A B: two units trade volleys until one is out of the fight.
import { Command, Option } from 'commander';
import type { Aspect } from '../engine/attackPlan.js';
import { Duel, type FiringArc } from '../engine/duel.js';
import { CombatState } from '../engine/state.js';
import { arcFacing } from '../engine/arcs.js';
import { runDuel } from '../sim/engagements.js';
import { wilson } from '../stats/intervals.js';
import { findUnit } from '../units/load.js';
import type { UnitCard } from '../units/types.js';
import { intInRange } from './args.js';
import { addEngagementOptions, aspectOption, loadUnits, placeholderLines, rangeOption } from './engagementArgs.js';
import { formatTable, pct } from './format.js';
import { rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';

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
    .argument('<a>', 'unit id of side A')
    .argument('<b>', 'unit id of side B')
    .addOption(rangeOption())
    .addOption(aspectOption('--aspect <arc>', "where A stands: B's arc that A attacks from (B turns its better broadside to a side)"))
    .addOption(aspectOption('--b-aspect <arc>', "where B stands: A's arc that B attacks from (A turns its better broadside to a side)"))
    .addOption(new Option('--until <state>', 'a side is out when destroyed, or already when crippled').choices(['destroyed', 'crippled']).default('destroyed'))
    .addOption(new Option('--rounds <n>', 'round limit; a duel still open then is a draw (1..1000)').argParser(intInRange(1, 1000)).default(DEFAULT_DUEL_ROUNDS))
    .addOption(new Option('--first <side>', 'who fires first each round: a, b, or random (a coin per duel)').choices(['a', 'b', 'random']).default('random'));
  addEngagementOptions(cmd, DEFAULT_DUEL_TRIALS, 'duels to play');
  cmd.addHelpText('after', '\nExample:\n  jwsim duel cega.wyvern jovian.pathfinder --range 6 --trials 50000 --seed 7');
  return cmd.action((a: string, b: string, opts: DuelOpts) => {
    process.stdout.write(runDuelCommand(a, b, opts));
  });
}

function rateJson(k: number, n: number) {
  const ci = wilson(k, n);
  return { rate: k / n, low: ci.low, high: ci.high };
}

export function runDuelCommand(aId: string, bId: string, opts: DuelOpts): string {
  const ctx = rulesContext(opts);
  const roster = loadUnits(opts);
  const a = findUnit(roster, aId, 'A');
  const b = findUnit(roster, bId, 'B');
  const rules = ctx.compiled;
  const arcOfA = arcFacing(rules, new CombatState(a), new CombatState(b), opts.range, opts.bAspect, opts.aspect);
  const arcOfB = arcFacing(rules, new CombatState(b), new CombatState(a), opts.range, opts.aspect, opts.bAspect);
  const duel = new Duel(rules, { a, b, rangeInches: opts.range, arcOfA, arcOfB, until: opts.until, maxRounds: opts.rounds, first: opts.first });
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
      firing_arc: arc,
      weapons_not_firing: skipped,
    });
    const body = {
      ...rulesJson(ctx),
      method: 'monte-carlo',
      trials: n,
      seed: opts.seed,
      situation: { range_inches: opts.range, a_attacks_from: opts.aspect, b_attacks_from: opts.bAspect, until: opts.until, max_rounds: opts.rounds, first: opts.first },
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
      `A fires from B's ${opts.aspect} with B in its ${arcOfA} arc; B fires from A's ${opts.bAspect} with A in its ${arcOfB} arc`,
      ...duel.skippedA.map((s) => `A not firing: ${s.weapon}: ${s.reason}`),
      ...duel.skippedB.map((s) => `B not firing: ${s.weapon}: ${s.reason}`),
      '',
      ...formatTable(['outcome', 'rate', '95% interval'], [row(`${a.name} wins`, aWin), row(`${b.name} wins`, bWin), row('draw', draw)]),
      '',
      `mean rounds: ${meanRounds.toFixed(2)}`,
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}
