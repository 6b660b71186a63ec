// jwsim run BATCH: run a batch on a worker pool into a run folder; sharding and resume.
import { Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { checkFolder, makeFolder } from '../io/folders.js';
import { interruptNote } from '../io/interrupt.js';
import { projectRoot } from '../paths.js';
import { renderReport } from '../report/report.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../report/runOutput.js';
import { inputsSha256, loadBatch } from '../scenarios/batch.js';
import { JWSIM_VERSION } from '../version.js';
import { CHECKPOINT_FILE, Checkpoint } from '../sim/checkpoint.js';
import { batchWarnings, buildEngines, enginesByRun } from '../sim/cells.js';
import { ChunkFailed, Interrupted, runBatch, type Progress } from '../sim/runner.js';
import { partialJson } from '../sim/shards.js';
import { pathArg, seedOption, threadsOption } from './args.js';

interface RunOpts {
  report: boolean;
  /** Point reports/latest at the run folder (default: when --out is not given). */
  latest?: boolean;
  threads: number;
  out?: string;
  seed?: string;
  shard?: { index: number; count: number };
  resume: boolean;
  progress: boolean;
  /** The command that continues this run after an interrupt (default: jwsim run ... --resume). */
  resumeCommand?: string;
}

/** K/N with 0 <= K < N; K may be "auto": JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID. */
export function shardArg(value: string): { index: number; count: number } {
  const m = /^(auto|\d+)\/(\d+)$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('must be K/N (e.g. 0/4) or auto/N');
  const count = Number(m[2]);
  let k = m[1];
  let from = '';
  if (k === 'auto') {
    const name = process.env.JOB_COMPLETION_INDEX !== undefined ? 'JOB_COMPLETION_INDEX' : process.env.SLURM_ARRAY_TASK_ID !== undefined ? 'SLURM_ARRAY_TASK_ID' : null;
    if (name === null) throw new InvalidArgumentError('auto needs JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm) in the environment');
    k = process.env[name]!;
    from = ` (K from ${name}=${JSON.stringify(k)})`;
  }
  const index = Number(k);
  if (!Number.isInteger(index) || count < 1 || count > 10_000 || index < 0 || index >= count) throw new InvalidArgumentError(`shard ${k}/${count}${from}: need 0 <= K < N <= 10000`);
  return { index, count };
}

/** --out's help: where the run goes by default (reports/latest follows default folders only). */
export const RUN_OUT_HELP = 'run folder to write (default: reports/<date>-<time> in the jwsim folder, whatever the current folder, and reports/latest points to it)';
/** --resume's help, the same for every command that runs a batch. */
export const RESUME_HELP = 'continue an interrupted run in --out from its checkpoint (--out is required)';

export function runCommand(): Command {
  return new Command('run')
    .description('Run a batch file (scenarios/nightly.json is the sample) on a worker pool; write results.csv, results.json and manifest.json.')
    .argument('<batch>', 'batch file (JSON, schema scenarios/schemas/batch.schema.json)')
    .addOption(threadsOption())
    .addOption(new Option('--out <dir>', RUN_OUT_HELP).argParser(pathArg))
    .addOption(seedOption("seed of every random stream (overrides the batch's)"))
    .addOption(new Option('--shard <K/N>', 'run only shard K of N (0 <= K < N) and write a partial result for jwsim merge; K may be auto: taken from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)').argParser(shardArg))
    .option('--resume', RESUME_HELP, false)
    .option('--progress', 'print progress on stderr even when it is not a terminal', false)
    .option('--no-report', 'skip the charts and index.html (jwsim report DIR makes them later)')
    .action(async (file: string, opts: RunOpts) => {
      process.exitCode = await runRun(file, opts);
    });
}

/** reports/latest -> the run folder just written (a relative symbolic link, replaced atomically). */
export function pointLatest(out: string): void {
  const latest = join(projectRoot(), 'reports', 'latest');
  const tmp = `${latest}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(basename(out), tmp);
  renameSync(tmp, latest);
}

/** reports/<prefix><date>-<time> in the jwsim folder, local time (2026-11-30-085349): where runs and compares go by default. */
export function defaultOut(prefix = ''): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return join(projectRoot(), 'reports', `${prefix}${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`);
}

/** A rate for the progress line: thousands for engagements, plain for battles (hundreds of games a second). */
function rateText(rate: number): string {
  return rate >= 1e4 ? `${(rate / 1e3).toFixed(0)}k` : rate >= 10 ? rate.toFixed(0) : rate.toFixed(1);
}

export function progressLine(p: Progress): string {
  const s = p.elapsedMs / 1000;
  const rate = s > 0 ? p.trials / s : 0;
  const eta = p.chunksDone > 0 ? (p.chunksLeft * s) / p.chunksDone : 0;
  return `\r${p.slotsDone}/${p.slots} engagements, ${rateText(rate)} trials/s, ETA ${Math.ceil(eta)} s   `;
}

/**
 * The run folder --out names (default: a new dated folder under reports/), refused where a
 * run may not write it. --resume continues a run in the folder it was given, so it needs
 * --out: a default folder would be a new, empty one.
 */
export function runOutFolder(out: string | undefined, resume: boolean): string {
  if (resume && out === undefined) throw new UserError('--resume needs --out DIR, the folder of the interrupted run to continue');
  const dir = resolve(out ?? defaultOut());
  checkRunOut(dir, resume);
  return dir;
}

/** Refuses an --out folder a run may not write (a finished run, an interrupted one without --resume, other files). */
function checkRunOut(out: string, resume: boolean): void {
  if (existsSync(join(out, 'manifest.json'))) throw new UserError(`--out: ${out} already holds a finished run; choose another folder`);
  if (!resume && existsSync(join(out, CHECKPOINT_FILE))) throw new UserError(`--out: ${out} holds an interrupted run; add --resume to continue it, or choose another folder`);
  if (!resume) checkFolder(out);
}

/** From here on an interrupt leaves the run folder `out` finished but without its report: say so. */
export function noteResultsWritten(out: string): void {
  interruptNote(`the results are written in ${out}, the report is not (jwsim report ${shellLine([out])} makes it)`);
}

/** Words joined into a command line a POSIX shell reads back as the same words. */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_.,:=@%+/-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Engine warnings printed before a run; the rest are counted (results.json lists them all). */
const MAX_WARNINGS_SHOWN = 10;

export async function runRun(file: string, opts: RunOpts): Promise<number> {
  const out = runOutFolder(opts.out, opts.resume);
  const batch = loadBatch(file, opts.seed);
  const engines = buildEngines(batch); // every engagement checked before anything is written
  const warnings = batchWarnings(batch, enginesByRun(batch, engines));
  for (const w of warnings.slice(0, MAX_WARNINGS_SHOWN)) process.stderr.write(`jwsim: warning: ${w}\n`);
  if (warnings.length > MAX_WARNINGS_SHOWN) process.stderr.write(`jwsim: warning: and ${warnings.length - MAX_WARNINGS_SHOWN} more (every one is listed in results.json and manifest.json)\n`);
  const shardText = opts.shard ? `${opts.shard.index}/${opts.shard.count}` : 'none';
  const checkpoint = new Checkpoint(join(out, CHECKPOINT_FILE), { batchSha256: inputsSha256(batch, JWSIM_VERSION), seed: batch.seed, shard: shardText });
  if (!opts.resume) makeFolder(out);
  checkpoint.open(opts.resume);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const showProgress = opts.progress || process.stderr.isTTY === true;
  let lastShown = 0;
  const onProgress = (p: Progress) => {
    const now = Date.now();
    if (now - lastShown < 500) return;
    lastShown = now;
    process.stderr.write(progressLine(p));
  };
  const started = Date.now();
  try {
    const result = await runBatch(batch, {
      threads: opts.threads,
      shard: opts.shard ?? null,
      checkpoint,
      engines,
      signal: controller.signal,
      onProgress: showProgress ? onProgress : undefined,
    });
    if (showProgress) process.stderr.write('\n');
    // The run is over: Ctrl-C from here on stops jwsim at once (no chunk to save).
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    const facts = { threads: opts.threads, shard: opts.shard ?? null, wallSeconds: (Date.now() - started) / 1000, commandLine: process.argv.slice(2), resumed: opts.resume };
    const files: Array<[string, string]> = opts.shard
      ? [['partial.json', partialJson(batch, result, opts.shard)]]
      : [
          ['results.csv', resultsCsv(batch, result.slots)],
          ['results.json', resultsJson(batch, result.slots)],
        ];
    files.push(['manifest.json', manifest(batch, result.slots, facts)]);
    writeAtomically(out, files);
    rmSync(join(out, CHECKPOINT_FILE), { force: true });
    noteResultsWritten(out);
    process.stdout.write(`seed: ${batch.seed}\n`);
    if (opts.shard) {
      process.stdout.write(`shard ${shardText} written (merge with: jwsim merge DIR... --out DIR): ${out}\n`);
      return 0;
    }
    if (opts.latest ?? opts.out === undefined) pointLatest(out);
    process.stdout.write(opts.report ? `report: ${await renderReport(out)}\n` : `results written: ${out}\n`);
    return 0;
  } catch (err) {
    if (showProgress) process.stderr.write('\n');
    if (err instanceof Interrupted) {
      const resume = opts.resumeCommand ?? shellLine(['jwsim', 'run', file, '--out', out, '--resume', ...(opts.seed ? ['--seed', opts.seed] : []), ...(opts.shard ? ['--shard', shardText] : []), ...(opts.report ? [] : ['--no-report'])]);
      process.stderr.write(`jwsim: interrupted; ${err.chunksSaved} chunks saved in ${out}. Resume with: ${resume}\n`);
      return 130;
    }
    if (err instanceof ChunkFailed) {
      process.stderr.write(`jwsim: error: ${err.message}; no results were written (the checkpoint in ${out} keeps finished chunks)\n`);
      return 70;
    }
    throw err;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}
