// jwsim dice: probabilities of one dice pool, exact or by Monte Carlo.
import { Command, Option } from 'commander';
import { MAX_MACRO_DICE, MAX_REROLLS, MAX_ROLLED_BASE_DICE, describePool, resolvePool } from '../dice/pool.js';
import { UserError } from '../errors.js';
import { DEFAULT_SEED } from '../rng/stream.js';
import { exactDice, sampledDice, type DiceEstimate } from '../sim/diceQuery.js';
import { collectInt, intInRange, seedOption } from './args.js';
import { formatTable, pct } from './format.js';
import { addRulesOptions, rulesContext, rulesHeader, rulesJson } from './rulesContext.js';

export const MAX_TRIALS = 100_000_000;

interface DiceOpts {
  base: number;
  flex: number[];
  macro: number;
  rerolls: number;
  rules: string;
  rule: string[];
  exact?: boolean;
  trials?: number;
  seed?: string;
  json?: boolean;
  outcomes?: boolean;
}

export function diceCommand(): Command {
  const cmd = new Command('dice')
    .description('Probabilities of one dice pool: best Result at least [D], [T], [Q], Results per Magnitude and per Value.')
    .requiredOption('--base <n>', `Base Pool: dice kept after rolling (0..${MAX_ROLLED_BASE_DICE})`, intInRange(0, MAX_ROLLED_BASE_DICE))
    .addOption(
      new Option('--flex <n>', 'Flex dice: rolled with the base dice, then discarded (repeatable, one per source; see flex_stacking)')
        .argParser(collectInt(0, MAX_ROLLED_BASE_DICE))
        .default([], '0'),
    )
    .addOption(new Option('--macro <n>', `signed Macro Pool; armor counts negative (-${MAX_MACRO_DICE}..${MAX_MACRO_DICE})`).argParser(intInRange(-MAX_MACRO_DICE, MAX_MACRO_DICE)).default(0))
    .addOption(new Option('--rerolls <n>', `rules sources that permit a reroll of this roll (0..${MAX_REROLLS})`).argParser(intInRange(0, MAX_REROLLS)).default(0));
  addRulesOptions(cmd)
    .addOption(new Option('--exact', 'compute the exact distribution (the default)').conflicts('trials'))
    .addOption(new Option('--trials <n>', `estimate by Monte Carlo with this many rolls (1..${MAX_TRIALS})`).argParser(intInRange(1, MAX_TRIALS)))
    .addOption(seedOption('seed of the Monte Carlo run (with --trials)', DEFAULT_SEED))
    .option('--json', 'print one JSON object on stdout instead of tables', false)
    .option('--outcomes', 'also list every distinct outcome with its probability', false)
    .addHelpText(
      'after',
      `
Examples:
  jwsim dice --base 3 --macro 1               Mass Driver AC 3, Macro 1, against no armor
  jwsim dice --base 2 --flex 1 --macro -1     short range bonus, one point of armor
  jwsim dice --base 4 --rerolls 1 --rules 1.2.1 --rule max_rerolls=ONCE
  jwsim dice --base 5 --trials 1000000 --seed 7 --json`,
    )
    .action((opts: DiceOpts, command: Command) => {
      if (command.getOptionValueSource('seed') === 'cli' && opts.trials === undefined) {
        throw new UserError('--seed: only used with --trials (the exact method draws no random numbers)');
      }
      process.stdout.write(runDice(opts));
    });
  return cmd;
}

/** The whole output of `jwsim dice`, built before anything is written. */
export function runDice(opts: DiceOpts): string {
  const ctx = rulesContext(opts, { command: 'jwsim dice', reads: 'dice' });
  const pool = resolvePool(ctx.dice, { base: opts.base, flexGrants: opts.flex, macro: opts.macro, rerollSources: opts.rerolls });
  if (pool.base + pool.flex > MAX_ROLLED_BASE_DICE) {
    throw new UserError(`--base + --flex: ${pool.base + pool.flex} dice rolled; at most ${MAX_ROLLED_BASE_DICE} base and Flex dice together are supported`);
  }
  const seed = opts.seed ?? DEFAULT_SEED;
  const est = opts.trials === undefined ? exactDice(ctx.dice, pool) : sampledDice(ctx.dice, pool, seed, opts.trials);
  const s = est.summary;
  if (opts.json) {
    const obj = {
      ...rulesJson(ctx),
      method: est.method,
      pool: { base: opts.base, flex: pool.flex, flexGrants: opts.flex, macro: pool.macro, rerollSources: opts.rerolls, rerolls: pool.rerolls },
      p: { 'D+': s.atLeast[0], 'T+': s.atLeast[1], 'Q+': s.atLeast[2] },
      ...(est.se ? { se: { 'D+': est.se[0], 'T+': est.se[1], 'Q+': est.se[2] }, trials: est.trials, seed } : {}),
      expectedResults: s.expectedResults,
      resultsPerMagnitude: s.countDist,
      byValue: s.byValue,
      outcomes: s.outcomes,
    };
    return JSON.stringify(obj, null, 2) + '\n';
  }
  return humanDice(ctx, est, describePool(pool), seed, opts.outcomes ?? false);
}

function humanDice(ctx: ReturnType<typeof rulesContext>, est: DiceEstimate, poolText: string, seed: string, outcomes: boolean): string {
  const s = est.summary;
  const mc = est.method === 'monte-carlo';
  const lines = [
    `jwsim dice: ${poolText}`,
    ...rulesHeader(ctx),
    mc ? `method: Monte Carlo, ${est.trials} rolls, seed ${seed} (± is one standard error)` : 'method: exact enumeration',
    '',
  ];
  const pRow = (label: string, i: number) => [label, pct(s.atLeast[i]) + (mc ? ` ± ${pct(est.se![i])}` : '')];
  lines.push(...formatTable(['best Result', 'probability'], [pRow('[D+]', 0), pRow('[T+]', 1), pRow('[Q+]', 2)]));
  lines.push('', `expected Results per roll: ${s.expectedResults.toFixed(3)}`, '');
  const maxK = Math.max(1, ...(['D', 'T', 'Q'] as const).map((m) => s.countDist[m].reduce((hi, p, k) => (p > 0 ? k : hi), 0)));
  const ks = Array.from({ length: maxK + 1 }, (_, k) => k);
  lines.push(...formatTable(['Results of', ...ks.map((k) => `${k}`)], (['D', 'T', 'Q'] as const).map((m) => [`[${m}]`, ...ks.map((k) => pct(s.countDist[m][k]))])));
  lines.push('');
  lines.push(...formatTable(['Value', 'P(>=D)', 'P(>=T)', 'P(Q)'], s.byValue.map((v) => [`${v.value}`, pct(v.D), pct(v.T), pct(v.Q)])));
  if (outcomes) {
    lines.push('');
    lines.push(...formatTable(['outcome', 'probability'], s.outcomes.map((o) => [o.outcome, pct(o.p)])));
  }
  return lines.join('\n') + '\n';
}
