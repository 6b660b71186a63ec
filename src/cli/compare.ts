// jwsim compare BATCH: did a rules version or house rule move balance? Paired differences
// on common random numbers, with sequential stopping.
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { checkFolder, makeFolder, unmakeFolder } from '../io/folders.js';
import { undoOnInterrupt } from '../io/interrupt.js';
import { comparisonOutputs, fdrMoved, fdrText, hasSampledEngagements, intervalZText } from '../report/compareOutput.js';
import { writeAtomically } from '../report/runOutput.js';
import { loadOverlay, overlayVersionProblem } from '../rules/overlay.js';
import { DEFAULT_RULES_VERSION, getRulesVersion } from '../rules/registry.js';
import { loadBatch, type Variant } from '../scenarios/batch.js';
import { COMPARE_BATTLE_CHUNK, COMPARE_BATTLE_CHUNKS, COMPARE_BATTLE_SETTLE, KEY_METRIC, compareBatch, compareZ, drawRates, fdrFamily } from '../sim/compare.js';
import { CHUNK_TRIALS } from '../sim/slots.js';
import { formatTable } from './format.js';
import { placeholderLines } from './engagementArgs.js';
import { collectString, intInRange, pathArg, positiveNumber, seedOption, threadsOption } from './args.js';
import { defaultOut } from './run.js';

interface CompareOpts {
  rules?: string;
  variant: string[];
  threads: number;
  out?: string;
  seed?: string;
  minTrials: number;
  maxTrials: number;
  battleMinTrials: number;
  battleMaxTrials: number;
  settle: number;
  battleSettle: number;
  json: boolean;
}

export function compareCommand(): Command {
  return new Command('compare')
    .description("Compare rules versions or house rules on the batch's experiments: paired differences on common random numbers, each engagement stopped once its answer is settled. Each shift has a repeated 95% interval; key metrics also have a Benjamini-Hochberg q-value over the whole batch (q_value in comparison.csv), for reading many engagements at once.")
    .argument('<batch>', 'batch file')
    .option('--rules <versions>', "comma-separated rules versions to compare, e.g. 1.2.1,1.2.2; the first is the baseline (default: the batch's own variants; --rules and --variant replace them, options and overlays included)")
    .addOption(new Option('--variant <name=overlay>', 'a house-rule variant: NAME=OVERLAY_FILE, run under the first variant\'s rules version, which the overlay\'s "rules" must match if it names one (repeatable; compared with the first variant)').argParser(collectString).default([], 'none'))
    .addOption(threadsOption())
    .addOption(new Option('--out <dir>', 'folder to write (default: reports/compare-<date>-<time> in the jwsim folder, whatever the current folder)').argParser(pathArg))
    .addOption(seedOption("seed of every random stream (overrides the batch's)"))
    .addOption(new Option('--min-trials <n>', `trials per variant before the sequential test may stop, rounded up to whole chunks of ${CHUNK_TRIALS} (${2 * CHUNK_TRIALS}..10000000); the batch's trials and precision targets are not used`).argParser(intInRange(2 * CHUNK_TRIALS, 10_000_000)).default(3 * CHUNK_TRIALS))
    .addOption(new Option('--max-trials <n>', `trials per variant at most, rounded up to whole chunks of ${CHUNK_TRIALS} (${2 * CHUNK_TRIALS}..50000000)`).argParser(intInRange(2 * CHUNK_TRIALS, 50_000_000)).default(16 * CHUNK_TRIALS))
    .addOption(new Option('--battle-min-trials <n>', `battle experiments: trials per variant before the sequential test may stop, rounded up to whole chunks of ${COMPARE_BATTLE_CHUNK} (a mirrored trial is two games; ${2 * COMPARE_BATTLE_CHUNK}..1000000)`).argParser(intInRange(2 * COMPARE_BATTLE_CHUNK, 1_000_000)).default(COMPARE_BATTLE_CHUNKS.minChunks * COMPARE_BATTLE_CHUNK))
    .addOption(new Option('--battle-max-trials <n>', `battle experiments: trials per variant at most, rounded up to whole chunks of ${COMPARE_BATTLE_CHUNK} (${2 * COMPARE_BATTLE_CHUNK}..10000000)`).argParser(intInRange(2 * COMPARE_BATTLE_CHUNK, 10_000_000)).default(COMPARE_BATTLE_CHUNKS.maxChunks * COMPARE_BATTLE_CHUNK))
    .addOption(new Option('--settle <shift>', 'stop an engagement once its key metric cannot have moved by more than this: an absolute shift in the metric\'s own units, not a relative one (duels: a_win_rate, so 0.02 is 2 percentage points; attacks, volleys and rams: mean_structure_damage, in Structure points); above 0 and below 1000').argParser(positiveNumber(1000, '0.02')).default(0.02))
    .addOption(new Option('--battle-settle <shift>', `battle experiments: stop once the A win rate cannot have moved by more than this (0.05: 5 percentage points; a balanced battle's paired standard error is still about 0.0075 after 4,096 trials, so a much smaller value runs every battle that did not move to --battle-max-trials); above 0 and below 1`).argParser(positiveNumber(1, '0.05')).default(COMPARE_BATTLE_SETTLE))
    .option('--json', 'print the comparison as JSON on stdout', false)
    .action(async (file: string, opts: CompareOpts) => {
      process.stdout.write(await runCompare(file, opts));
    });
}

/** Variant names as batch files allow them (batchSchema.ts). */
const VARIANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function variantsFrom(opts: CompareOpts, batchVariants: readonly Variant[]): Variant[] {
  const out: Variant[] = [];
  const versions = opts.rules ? opts.rules.split(',').map((r) => r.trim()).filter(Boolean) : [];
  if (opts.rules !== undefined && versions.length === 0) throw new UserError('--rules: give a comma-separated list of rules versions, e.g. --rules 1.2.1,1.2.2');
  for (const r of versions) out.push({ name: `v${getRulesVersion(r).id}`, rules: getRulesVersion(r).id, options: [], overlay: null });
  for (const v of opts.variant) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UserError(`--variant: expected NAME=OVERLAY_FILE, got "${v}"`);
    const name = v.slice(0, eq), file = v.slice(eq + 1);
    if (!VARIANT_NAME.test(name)) throw new UserError(`--variant: "${name}" is not a variant name: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64`);
    if (file.trim() === '') throw new UserError(`--variant: ${name}= names no overlay file; give NAME=OVERLAY_FILE`);
    let overlay: ReturnType<typeof loadOverlay>;
    try {
      overlay = loadOverlay(file);
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`--variant ${name}: ${e.message}`, e.details);
      throw e;
    }
    // A house rule is measured against the baseline under the baseline's rules version: an
    // overlay written for another version would mix a version change into the shift.
    const baseline = out[0];
    const clash = baseline && overlayVersionProblem(overlay, baseline.rules, {
      uses: 'the baseline uses',
      allowed: (w) => `a --variant runs under the baseline's rules version (the first of --rules), so start --rules with ${w} or use an overlay written for v${baseline.rules}`,
    });
    if (clash) throw new UserError(`--variant ${name}: ${clash}`);
    out.push({ name, rules: baseline?.rules ?? overlay.rules ?? DEFAULT_RULES_VERSION, options: [], overlay });
  }
  if (out.length === 1 && opts.variant.length > 0 && versions.length === 0) out.unshift({ name: `v${out[0].rules}`, rules: out[0].rules, options: [], overlay: null });
  const chosen = out.length ? out : [...batchVariants];
  if (chosen.length < 2) throw new UserError('compare needs at least two variants: --rules 1.2.1,1.2.2, --variant NAME=OVERLAY, or a batch with several variants');
  const names = chosen.map((v) => v.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new UserError(`two variants are named "${dup}"`);
  return chosen;
}

export async function runCompare(file: string, opts: CompareOpts): Promise<string> {
  const loaded = loadBatch(file, opts.seed);
  const batch = { ...loaded, variants: variantsFrom(opts, loaded.variants) };
  if (opts.minTrials > opts.maxTrials) throw new UserError(`--min-trials ${opts.minTrials} is above --max-trials ${opts.maxTrials}`);
  if (opts.battleMinTrials > opts.battleMaxTrials) throw new UserError(`--battle-min-trials ${opts.battleMinTrials} is above --battle-max-trials ${opts.battleMaxTrials}`);
  const out = resolve(opts.out ?? defaultOut('compare-'));
  if (existsSync(join(out, 'manifest.json'))) throw new UserError(`--out: ${out} already holds a finished comparison; choose another folder`);
  checkFolder(out); // made once the comparison has run: a batch that cannot run leaves nothing
  const started = Date.now();
  const chunks = { minChunks: Math.ceil(opts.minTrials / CHUNK_TRIALS), maxChunks: Math.ceil(opts.maxTrials / CHUNK_TRIALS) };
  const battle = { minChunks: Math.ceil(opts.battleMinTrials / COMPARE_BATTLE_CHUNK), maxChunks: Math.ceil(opts.battleMaxTrials / COMPARE_BATTLE_CHUNK), settle: opts.battleSettle };
  const z = compareZ(chunks);
  const battleZ = compareZ(battle);
  const battles = batch.cells.some((c) => c.kind === 'battle');
  // The batch's trials and precision targets are for jwsim run: the output says so (per kind
  // sampled) rather than let a trial count in comparison.csv that differs from the batch's pass unexplained.
  const engagements = hasSampledEngagements(batch.cells);
  const diffs = await compareBatch(batch, { threads: opts.threads, ...chunks, battle, settle: opts.settle });
  const settings: Record<string, number> = {
    minTrials: opts.minTrials,
    maxTrials: opts.maxTrials,
    settle: opts.settle,
    sequentialZ: z.stopping,
    intervalZ: z.interval,
    ...(battles ? { battleMinTrials: battle.minChunks * COMPARE_BATTLE_CHUNK, battleMaxTrials: battle.maxChunks * COMPARE_BATTLE_CHUNK, battleSettle: opts.battleSettle, battleSequentialZ: battleZ.stopping, battleIntervalZ: battleZ.interval } : {}),
  };

  const existed = existsSync(out);
  makeFolder(out);
  // Charts are written while the page is built: a failure or an interrupt takes them back.
  const takeBack = () => unmakeFolder(out, existed);
  const forget = undoOnInterrupt(takeBack);
  let files: Awaited<ReturnType<typeof comparisonOutputs>>;
  try {
    files = await comparisonOutputs(batch, diffs, {
      threads: opts.threads,
      wallSeconds: (Date.now() - started) / 1000,
      commandLine: process.argv.slice(2),
      settings,
      dir: out,
    });
    writeAtomically(out, files);
  } catch (err) {
    takeBack();
    throw err;
  } finally {
    forget();
  }
  if (opts.json) return files.find(([n]) => n === 'comparison.json')![1] as string;
  const key = diffs.filter((d) => d.metric === KEY_METRIC[d.cell.kind]);
  const moved = key.filter((d) => d.distinguishable);
  // Battles' unit-type figures that varied (fdrFamily 'unit'): how many moved, pointing to where they are listed.
  const unitRows = diffs.filter((d) => fdrFamily(d) === 'unit');
  const drawsOf = drawRates(diffs);
  const top = [...moved].sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference)).slice(0, 15);
  // --rules and --variant replace the batch's variants: say so where those carried house rules of their own.
  const replaced = opts.rules === undefined && opts.variant.length === 0 ? [] : loaded.variants.filter((v) => v.options.length || v.overlay);
  return [
    `jwsim compare: ${batch.variants.map((v) => v.name).join(' vs ')} on ${batch.cells.length} engagements`,
    ...(replaced.length ? [`note: --rules and --variant replace the batch's variants; ${replaced.map((v) => `${v.name} (${[...v.options, ...(v.overlay ? [`overlay ${v.overlay.file}`] : [])].join(', ')})`).join('; ')} ${replaced.length > 1 ? 'are' : 'is'} not used: the variants compared are built from --rules and --variant alone`] : []),
    ...(engagements ? [`note: the batch's trials and precision targets are not used: each sampled engagement runs chunks of ${CHUNK_TRIALS} trials per variant, from ${chunks.minChunks * CHUNK_TRIALS} (--min-trials) to at most ${chunks.maxChunks * CHUNK_TRIALS} (--max-trials), stopping once its key metric is settled (--settle ${opts.settle})`] : []),
    ...(battles ? [`note: ${engagements ? 'battle experiments' : "the batch's trials and precision targets are not used: battle experiments"} run chunks of ${COMPARE_BATTLE_CHUNK} trials per variant (game t of every variant on the same dice and policy streams), from ${battle.minChunks * COMPARE_BATTLE_CHUNK} (--battle-min-trials) to at most ${battle.maxChunks * COMPARE_BATTLE_CHUNK} (--battle-max-trials), stopping once the A win rate is settled (--battle-settle ${opts.battleSettle})`] : []),
    `${moved.length} of ${key.length} key metrics moved (the 95% paired interval, ${intervalZText(settings, batch.cells)} over the repeated looks, excludes 0)`,
    ...(fdrMoved(diffs, 'key').family ? [fdrText(diffs)] : []),
    ...(unitRows.length ? [`battle unit types: ${unitRows.filter((d) => d.distinguishable).length} of ${unitRows.length} figures that varied moved (each interval 95% on its own), ${fdrMoved(diffs, 'unit').moved} at a 5% false discovery rate (Benjamini-Hochberg q <= 0.05 over those ${unitRows.length}); the report's unit tables and comparison.csv's unit:ID:FIGURE rows list them`] : []),
    '',
    ...formatTable(
      ['engagement', 'metric', 'from', 'to', 'value', 'difference', '95% interval', 'draws'],
      top.map((d) => {
        const drawn = drawsOf(d);
        return [d.cell.id, d.metric, batch.variants[d.from].name, batch.variants[d.to].name, `${d.valueFrom.toFixed(3)} -> ${d.valueTo.toFixed(3)}`, d.difference.toFixed(4), `${d.low.toFixed(4)} .. ${d.high.toFixed(4)}`, drawn ? `${drawn.valueFrom.toFixed(3)} -> ${drawn.valueTo.toFixed(3)}` : ''];
      }),
    ),
    ...(top.some((d) => drawsOf(d)) ? ['value: the key metric in each variant; draws: the draw rate of the duel or battle in each (a win rate can fall because wins became draws, not losses)'] : []),
    '',
    ...placeholderLines([...new Set(diffs.flatMap((d) => d.placeholders))].sort()),
    `seed: ${batch.seed}`,
    `report: ${join(out, 'index.html')}`,
  ].join('\n') + '\n';
}
