// jwsim nightly BATCH --baseline DIR: run the batch (or, with --resume, finish an interrupted
// one), gate every metric against a baseline run, record the run in the history, keep the gate
// and trends in the run folder (nightly.json) and render the report with them.
import { Command, Option } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { unitEfficiency } from '../report/efficiency.js';
import { DEFAULT_MAX_SHIFT, byExcess, gate } from '../report/gate.js';
import { History, batchTrendKey } from '../report/history.js';
import { NIGHTLY_FILE, nightlyJson } from '../report/nightlyRecord.js';
import { renderReport } from '../report/report.js';
import { writeAtomically } from '../report/runOutput.js';
import { readRunFolder } from '../report/runFolder.js';
import { projectRoot } from '../paths.js';
import { UserError } from '../errors.js';
import { interruptNote } from '../io/interrupt.js';
import { loadBatch } from '../scenarios/batch.js';
import { pathArg, positiveNumber, seedOption, threadsOption } from './args.js';
import { RESUME_HELP, RUN_OUT_HELP, runOutFolder, runRun, shellLine } from './run.js';

interface NightlyOpts {
  baseline?: string;
  history?: string;
  maxShift: number;
  threads: number;
  out?: string;
  seed?: string;
  resume: boolean;
  progress: boolean;
}

export function nightlyCommand(): Command {
  return new Command('nightly')
    .description('Run a batch and gate it against a baseline run: exit 1 when any metric shifted significantly by more than --max-shift; record the run in the history. The first night, without --baseline, runs and records the batch without a gate.')
    .argument('<batch>', 'batch file')
    .option('--baseline <dir>', 'finished run folder to compare with (e.g. last night\'s); leave it out on the first night: the run is recorded with no gate (exit 0)')
    .addOption(new Option('--history <file>', 'SQLite history file (default: reports/history.sqlite in the jwsim folder, whatever the current folder)'))
    .addOption(new Option('--max-shift <x>', 'largest tolerated shift, a positive number below 1000: absolute for rates and probabilities; for means, relative to the baseline value counted as at least 1 (damage_per_100_tv: at least one Structure point on its scale)').argParser(positiveNumber(1000, '0.05')).default(DEFAULT_MAX_SHIFT))
    .addOption(threadsOption())
    .addOption(new Option('--out <dir>', RUN_OUT_HELP).argParser(pathArg))
    .addOption(seedOption("seed (overrides the batch's; keep it equal to the baseline's for exact comparisons)"))
    .option('--resume', `${RESUME_HELP}, then gate it and record it in the history`, false)
    .option('--progress', 'print progress on stderr even when it is not a terminal', false)
    .action(async (file: string, opts: NightlyOpts) => {
      process.exitCode = await runNightly(file, opts);
    });
}

/** The baseline run folder, validated; its problems are named as the --baseline's. */
function readBaseline(dir: string): ReturnType<typeof readRunFolder> {
  try {
    return readRunFolder(dir);
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`--baseline: ${err.message}`, err.details);
    throw err;
  }
}

/**
 * Refuses a --history that cannot be used, before the run, and without making a file: an
 * existing one must be a readable jwsim history; a new one needs its folder.
 */
function checkHistory(file: string): void {
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) throw new UserError(`--history: ${file} is a folder; give the history's file name (e.g. ${join(file, 'history.sqlite')})`);
    History.open(file).close();
  } else if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory()) {
    throw new UserError(`--history: cannot make ${file}: the folder ${dirname(file)} does not exist`);
  }
}

export async function runNightly(file: string, opts: NightlyOpts): Promise<number> {
  // Inputs that can be wrong are checked before anything runs.
  const out = runOutFolder(opts.out, opts.resume);
  // The baseline gets the report's checks: a damaged or hand-edited results.json is refused
  // (exit 2) rather than crashing the gate or passing it silently.
  const baseline = opts.baseline === undefined ? null : readBaseline(resolve(opts.baseline));
  const batch = loadBatch(file, opts.seed);
  const trendKey = batchTrendKey(readFileSync(file, 'utf8'));
  const planned = new Set(batch.cells.flatMap((c) => batch.variants.map((v) => `${c.id}\u0000${v.name}`)));
  if (baseline && !baseline.results.experiments.some((e) => planned.has(`${e.engagement}\u0000${e.variant}`))) {
    throw new UserError(`--baseline: ${baseline.dir} shares no engagement and variant with ${file}; nothing could be compared (is it a run of another batch?)`);
  }
  const historyFile = resolve(opts.history ?? join(projectRoot(), 'reports', 'history.sqlite'));
  checkHistory(historyFile);
  // After an interrupt, this same nightly continues the run, then gates and records it.
  const resumeCommand = shellLine([
    'jwsim', 'nightly', file, ...(baseline ? ['--baseline', baseline.dir] : []), '--out', out, '--resume',
    ...(opts.history !== undefined ? ['--history', historyFile] : []),
    ...(opts.maxShift !== DEFAULT_MAX_SHIFT ? ['--max-shift', String(opts.maxShift)] : []),
    ...(opts.seed ? ['--seed', opts.seed] : []),
  ]);
  const code = await runRun(file, { report: false, threads: opts.threads, out, seed: opts.seed, resume: opts.resume, progress: opts.progress, latest: opts.out === undefined, resumeCommand });
  if (code !== 0) return code;
  interruptNote(`the results are written in ${out}; the gate, the history record and the report are not (run the nightly again with a new --out)`);
  const current = readRunFolder(out);
  const result = baseline ? gate(current.results, baseline.results, opts.maxShift) : null;
  const efficiency = new Map(current.results.variants.map((v) => [v.name, unitEfficiency(current.results, v.name)]));
  const history = History.open(historyFile);
  try {
    history.record({
      runDir: out,
      batchSha256: trendKey,
      seed: current.results.seed,
      gitCommit: (current.manifest.git_commit as string | null) ?? null,
      baselineDir: baseline?.dir ?? null,
      gateFailures: result?.failures.length ?? 0,
      shiftsChecked: result?.checked ?? 0,
      efficiency,
    });
    const trends = history.trends(trendKey, (current.manifest.batch as { sha256: string }).sha256);
    // Kept in the run folder, so that the report (now, and jwsim report DIR later) shows them.
    writeAtomically(out, [[NIGHTLY_FILE, nightlyJson({ gate: result, baselineDir: baseline?.dir ?? null, trends })]]);
    process.stdout.write(`report: ${await renderReport(out)}\n`);
  } finally {
    history.close();
  }
  if (!result || !baseline) {
    process.stderr.write('nightly: first night (no --baseline): the run is recorded in the history without a gate; give this run folder as --baseline next time\n');
    return 0;
  }
  if (result.unmatched.length) {
    process.stderr.write(`note: ${result.unmatched.length} engagements are in only one of the two runs and were not compared (the report lists them)\n`);
  }
  if (result.failures.length === 0) {
    process.stderr.write(`nightly gate passed: ${result.checked} metrics against ${baseline.dir}, none shifted significantly by more than ${opts.maxShift}\n`);
    return 0;
  }
  process.stderr.write(`nightly gate FAILED: ${result.failures.length} of ${result.checked} metrics shifted significantly by more than ${opts.maxShift}:\n`);
  for (const f of byExcess(result.failures, opts.maxShift).slice(0, 50)) {
    process.stderr.write(`  ${f.engagement} (${f.variant}) ${f.metric}: ${f.baseline.toFixed(4)} -> ${f.current.toFixed(4)} (shift ${f.shift.toFixed(4)}, simultaneous 95% ${f.low.toFixed(4)} .. ${f.high.toFixed(4)})\n`);
  }
  if (result.failures.length > 50) process.stderr.write(`  ... and ${result.failures.length - 50} more (see the report)\n`);
  return 1;
}
