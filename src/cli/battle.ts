// jwsim battle --scenario FILE: whole games between two fleets played by AI policies.
import { existsSync, statSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { UserError } from '../errors.js';
import { DEFAULT_SEED } from '../rng/stream.js';
import { makeBattle, runBattleJob, type BattleJob } from '../sim/battleJob.js';
import { traceGame } from '../sim/battles.js';
import { summarizeBattles } from '../sim/battleSummary.js';
import { REPLAY_EXTENSIONS, renderReplayHtml, renderReplaySvg, replayFormat, replayModels } from '../report/replay.js';
import { intInRange, seedOption, threadsOption } from './args.js';
import { addJsonOption, addUnitsOption, optionsGiven, placeholderLines } from './engagementArgs.js';
import { formatTable, pct } from './format.js';
import { checkOutputs, writeOutputs, type OutputFile } from './outputs.js';
import { addRulesOptions, rulesContext, rulesHeader, rulesJson, type RulesOpts } from './rulesContext.js';
import type { Scenario } from '../scenarios/scenarioTypes.js';
import { whyCrippledChangesNothing, type CrippledIrrelevance } from '../engine/duel.js';
import type { CompiledRules } from '../rules/compile.js';
import type { UnitCard } from '../units/types.js';

export const DEFAULT_BATTLE_TRIALS = 1000;
export const MAX_BATTLE_TRIALS = 10_000_000;

interface BattleOpts extends RulesOpts {
  scenario: string;
  trials: number;
  seed: string;
  threads: number;
  mirror: boolean;
  trace?: string;
  replay?: string;
  game: number;
  /** Name of the random streams (default: the scenario id). */
  streams?: string;
  allowInvalidFleets: boolean;
  units?: string[];
  json: boolean;
  /** Options given on the command line (optionsGiven), to refuse ones that would have no effect. */
  given?: ReadonlySet<string>;
}

export function battleCommand(): Command {
  const cmd = new Command('battle')
    .description('Who wins this scenario with these fleets? Plays whole games (deployment, movement, attacks, actions, scoring) between two AI policies; win and draw rates with 95% intervals, Objective and Victory Points, surviving TV, and per unit type fates and damage per 100 TV.')
    .requiredOption('--scenario <file>', 'scenario file (schema: scenarios/schemas/scenario.schema.json; samples in scenarios/battles/)')
    .addOption(new Option('--trials <n>', `games to play (with --mirror: pairs of games) (1..${MAX_BATTLE_TRIALS})`).argParser(intInRange(1, MAX_BATTLE_TRIALS)).default(DEFAULT_BATTLE_TRIALS))
    .addOption(seedOption('seed of the random streams', DEFAULT_SEED))
    .addOption(threadsOption())
    .option('--mirror', 'play every game twice with the fleets swapped on the same dice, so first-player and deployment advantages cancel (off unless given here; battle experiments in a batch mirror unless "mirror": false)', false)
    .option('--trace <out.json>', 'play one game and write every activation (positions, actions, attacks with dice, damage, states) to this file')
    .option('--replay <out.svg|out.html>', 'play one game and draw it (zones, tracks, attacks, final bases) as an SVG picture, or an HTML page with the picture and a table of fates; with --trace: the same game')
    .addOption(new Option('--streams <name>', "name of the random streams the games play on (default: the scenario's id); a batch names a battle experiment's streams after its engagement id, so --seed SEED --streams ID plays that run's games (its report names both)").argParser(streamsName))
    .addOption(new Option('--game <n>', 'with --trace or --replay: which game of a `jwsim battle` run to play (0-based, unmirrored, on that run\'s streams; batch runs name their streams after the experiment, see --streams, and their HTML report draws game 0)').argParser(intInRange(0, MAX_BATTLE_TRIALS)).default(0))
    .option('--allow-invalid-fleets', 'run fleets that break the fleet-building rules (the problems are printed with the results)', false);
  addUnitsOption(cmd, 'the scenario\'s own "units" list, else the sample roster; given, it replaces that list');
  addRulesOptions(cmd);
  addJsonOption(cmd);
  cmd.addHelpText(
    'after',
    '\nExamples:\n  jwsim battle --scenario scenarios/battles/standard-engagement.json --trials 2000 --mirror\n  jwsim battle --scenario scenarios/battles/beacon-assault.json --trace game.json --seed 7\n  jwsim battle --scenario scenarios/battles/standard-engagement.json --replay game.svg --game 3',
  );
  return cmd.action(async (opts: BattleOpts, command: Command) => {
    process.stdout.write(await runBattleCommand({ ...opts, given: optionsGiven(command) }));
  });
}

/** --streams: an engagement id as batches write them (an experiment id, maybe with "/" parts). */
function streamsName(v: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(v)) throw new InvalidArgumentError(`"${v}" is not a stream name: 1 to 200 letters, digits, '.', '_', '-' or '/', starting with a letter or digit (a batch engagement id, as its report prints it)`);
  return v;
}

export async function runBattleCommand(opts: BattleOpts): Promise<string> {
  // Checked before anything runs or is written.
  const oneGame = opts.trace !== undefined || opts.replay !== undefined;
  const given = opts.given ?? new Set<string>();
  for (const k of ['trials', 'mirror', 'json', 'threads']) {
    if (oneGame && given.has(k)) throw new UserError(`--${k}: has no effect with --trace or --replay, which play one game (pick it with --game); leave --${k} out`);
  }
  if (!oneGame && given.has('game')) throw new UserError('--game: applies only with --trace or --replay (it picks the game they play)');
  const replayAs = opts.replay === undefined ? null : replayFormat(opts.replay);
  if (opts.replay !== undefined && !replayAs) {
    throw new UserError(`--replay: ${opts.replay}: the file name must end in ${REPLAY_EXTENSIONS.join(' or ')} (the extension picks the format)`);
  }
  // (An empty name or a folder is named as such by checkOutputs below.)
  if (opts.trace && !opts.trace.toLowerCase().endsWith('.json') && !(existsSync(opts.trace) && statSync(opts.trace).isDirectory())) {
    throw new UserError(`--trace: ${opts.trace}: the file name must end in .json (the trace is JSON; --replay draws the game as .svg or .html)`);
  }
  const ctx = rulesContext(opts, { command: 'jwsim battle', reads: 'battle' });
  const job: BattleJob = {
    scenarioFile: opts.scenario,
    rules: ctx.version.id,
    rule: opts.rule,
    rulesOverlay: opts.rulesOverlay,
    units: opts.units,
    allowInvalidFleets: opts.allowInvalidFleets,
    seed: opts.seed,
    mirror: opts.mirror,
    ...(opts.streams !== undefined ? { streams: opts.streams } : {}),
  };
  const local = makeBattle(job);
  const { scenario, battle } = local;
  const warnings = scenario.fleetWarnings.map((w) => `WARNING: invalid fleet (--allow-invalid-fleets): ${w}`);
  if (oneGame) {
    const outputs: OutputFile[] = [];
    if (opts.trace !== undefined) outputs.push({ flag: '--trace', path: opts.trace });
    if (opts.replay !== undefined) outputs.push({ flag: '--replay', path: opts.replay });
    checkOutputs(outputs, inputFiles(scenario, opts.rulesOverlay));
    const g = traceGame(local.rules, scenario, opts.seed, opts.game, false, opts.streams);
    const files: Array<OutputFile & { text: string }> = [];
    const written: string[] = [];
    if (opts.trace !== undefined) {
      const body = {
        ...rulesJson(ctx),
        scenario: { id: scenario.id, file: scenario.file, sha256: scenario.sha256 },
        seed: opts.seed,
        streams: opts.streams ?? scenario.id,
        game: opts.game,
        fleets: { a: scenario.sides[0].name, b: scenario.sides[1].name },
        result: g.result,
        fates: g.fates,
        ...g.trace,
        placeholders: g.battle.usage.list(),
        fleet_warnings: scenario.fleetWarnings,
      };
      files.push({ flag: '--trace', path: opts.trace, text: JSON.stringify(body, null, 2) + '\n' });
      written.push(`trace written to ${opts.trace}`);
    }
    if (opts.replay !== undefined) {
      const input = { scenario, seed: opts.seed, game: opts.game, models: replayModels(g.battle), trace: g.trace, result: g.result, fates: g.fates };
      files.push({ flag: '--replay', path: opts.replay, text: replayAs === 'html' ? renderReplayHtml(input) : renderReplaySvg(input) });
      written.push(`replay written to ${opts.replay}`);
    }
    writeOutputs(files);
    const winner = g.result.winner === 2 ? 'draw' : `${g.result.winner === 0 ? 'A' : 'B'} (${scenario.sides[g.result.winner].name}) wins`;
    return [
      `jwsim battle: one game of ${scenario.id}, seed ${opts.seed}, game ${opts.game}: ${winner}`,
      `  OP ${g.result.op.join(' : ')}, VP ${g.result.vp.join(' : ')}, ${g.result.activations} activations; ${g.result.endedEarly ? `ended early: ${g.result.endReason}` : g.result.endReason}`,
      ...written,
      ...warnings,
      '',
    ].join('\n');
  }
  const started = Date.now();
  const counts = await runBattleJob(job, local, opts.trials, opts.threads);
  const seconds = (Date.now() - started) / 1000;
  const s = summarizeBattles(battle, counts, opts.mirror);
  const placeholders = battle.usage.list();
  if (opts.json) {
    return (
      JSON.stringify(
        {
          ...rulesJson(ctx),
          method: 'monte-carlo',
          scenario: { id: scenario.id, file: scenario.file, sha256: scenario.sha256, zone: scenario.zone, deployment: scenario.deployment, turns: scenario.turns },
          seed: opts.seed,
          streams: opts.streams ?? scenario.id,
          trials: opts.trials,
          mirror: opts.mirror,
          ...s,
          fleet_warnings: scenario.fleetWarnings,
          placeholders,
        },
        null,
        2,
      ) + '\n'
    );
  }
  const side = (x: typeof s.a, label: string) => [`${label} wins: ${x.name}`, pct(x.win.rate), `${pct(x.win.low)} .. ${pct(x.win.high)}`];
  const f1 = (x: number) => x.toFixed(1);
  return (
    [
      `jwsim battle: ${scenario.id} (${scenario.file})`,
      ...rulesHeader(ctx),
      `scenario: ${scenario.zone} zone, ${scenario.deployment} deployment, ${scenario.turns} turns, table ${scenario.table.width}x${scenario.table.height} in, ${scenario.objectives.length} objective marker(s)`,
      `A: ${s.a.name}, ${s.a.tv} TV, policy ${s.a.policy}   B: ${s.b.name}, ${s.b.tv} TV, policy ${s.b.policy}`,
      `method: Monte Carlo, ${s.games} games${opts.mirror ? ` (${opts.trials} mirrored pairs)` : ''}, seed ${opts.seed}${opts.streams !== undefined ? `, streams ${opts.streams}` : ''}, ${opts.threads === 0 ? 'no worker threads' : `${opts.threads} worker thread${opts.threads === 1 ? '' : 's'}`}, ${seconds.toFixed(1)} s`,
      ...warnings,
      '',
      ...formatTable(['outcome', 'rate', '95% interval'], [side(s.a, 'A'), side(s.b, 'B'), ['draw', pct(s.draw.rate), `${pct(s.draw.low)} .. ${pct(s.draw.high)}`]]),
      '',
      ...formatTable(
        ['per game (mean)', 'A', 'B'],
        [
          ['Objective Points', f1(s.a.op.mean), f1(s.b.op.mean)],
          ['Victory Points', f1(s.a.vp.mean), f1(s.b.vp.mean)],
          ['surviving TV', f1(s.a.surviving_tv.mean), f1(s.b.surviving_tv.mean)],
        ],
      ),
      `turns played: ${s.turns.mean.toFixed(2)}; activations per game: ${s.activations_per_game.toFixed(1)}`,
      '',
      ...formatTable(
        ['unit', 'TV', 'sides', 'appearances', 'destroyed', 'crippled', 'withdrawn', 'captured', 'damage / 100 TV', '95% interval'],
        s.units.map((u) => {
          const d = u.intervals.damage_per_100_tv;
          return [u.id, String(u.tv), u.sides.join('+'), String(u.appearances), pct(u.destroyed_rate), pct(u.crippled_rate), pct(u.withdrawn_rate), pct(u.captured_rate), u.damage_per_100_tv.toFixed(2), `${d.low.toFixed(2)} .. ${d.high.toFixed(2)}`];
        }),
      ),
      'sides: the fleets that field the type (a+b: both, pooled); appearances: models of that type over all games (a type fielded 3 times counts 3 a game); the rates are per appearance',
      `95% interval: the ${opts.mirror ? 'mirrored pair' : 'game'} is the sampling unit, as models of one type in a game${opts.mirror ? ' (and the two games of a pair)' : ''} are not independent; --json gives every rate its interval too (units[].intervals)`,
      ...neverCrippled(local.rules, battle.units),
      '',
      ...placeholderLines(placeholders),
    ].join('\n') + '\n'
  );
}

const NEVER_CRIPPLED: Partial<Record<CrippledIrrelevance, string>> = {
  'capital-never': 'a capital ship at 0 Structure is Destroyed (Catastrophic Damage Table)',
  'squadron-never': 'squadrons have no Crippled state (crippled_squadrons)',
  'no-small-boxes': 'a squadron without small damage boxes is Destroyed, never Crippled',
};

/** A note when no unit type of the battle can ever be Crippled, so that the crippled column's zeros are not read as a finding. */
function neverCrippled(rules: CompiledRules, units: readonly UnitCard[]): string[] {
  const why = units.map((u) => whyCrippledChangesNothing(rules, u));
  if (why.some((w) => w === null || !NEVER_CRIPPLED[w])) return [];
  return [`crippled: no type here can be Crippled under these rules: ${[...new Set(why.map((w) => NEVER_CRIPPLED[w!]))].join('; ')}`];
}

/** The files a battle reads (scenario, fleet files, unit files, rules overlay): no output may replace one. */
function inputFiles(scenario: Scenario, overlay: string | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [['the scenario file', scenario.file]];
  for (const side of scenario.sides) if (side.fleetFile) out.push(['a fleet file', side.fleetFile]);
  for (const f of scenario.roster.files) out.push(['a unit file', f]);
  if (overlay) out.push(['the rules overlay', overlay]);
  return out;
}
