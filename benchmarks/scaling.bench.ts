// Worker-pool scaling of whole runs, for machines with more cores than the 2 the project is
// developed on. Runs `jwsim run` as a user would (a fresh process each time, pool start-up and
// worker warm-up included) on the nightly batch and on a larger battle batch, once per thread
// count, and reports wall time, speed-up over 1 thread and efficiency (speed-up / threads). It
// also checks the promise of ARCHITECTURE.md: results.csv and results.json are byte-identical
// whatever the thread count. Not part of `npm run bench` (it takes minutes);
// `npm run bench:scaling`, with JWSIM_BENCH_THREADS=1,2,4,8,16 on a bigger machine.
// JSON in reports/bench/scaling.json.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/paths.js';
import { printTable, writeSummary } from './harness.js';

const root = projectRoot();
const cores = availableParallelism();
const threadCounts = (process.env.JWSIM_BENCH_THREADS ?? `1,${cores}`).split(',').map(Number);
if (threadCounts.some((t) => !Number.isInteger(t) || t < 1 || t > 256)) {
  console.error(`JWSIM_BENCH_THREADS must list thread counts from 1 to 256, e.g. 1,2,4; got "${process.env.JWSIM_BENCH_THREADS}"`);
  process.exit(2);
}
/** Trials per battle experiment (each trial is a mirrored pair of games). */
const battleTrials = Number(process.env.JWSIM_SCALING_TRIALS ?? 1024);
if (!Number.isInteger(battleTrials) || battleTrials < 1 || battleTrials > 1_000_000) {
  console.error(`JWSIM_SCALING_TRIALS must be an integer from 1 to 1000000 (trials per battle experiment); got "${process.env.JWSIM_SCALING_TRIALS}"`);
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'jwsim-scaling-'));
const battleBatch = join(dir, 'battles.json');
writeFileSync(
  battleBatch,
  JSON.stringify({
    format: 'jwsim-batch/1',
    seed: 'scaling',
    variants: [{ name: 'v1.2.2', rules: '1.2.2' }],
    experiments: ['standard-engagement', 'beacon-assault', 'corner-escalation'].map((id) => ({
      id,
      kind: 'battle',
      scenario: join(root, 'scenarios', 'battles', `${id}.json`),
      trials: battleTrials,
    })),
  }),
);
const jobs: Record<string, string> = { nightly: join(root, 'scenarios', 'nightly.json'), battles: battleBatch };

interface Run {
  threads: number;
  seconds: number;
  digest: string;
}

function runOnce(name: string, file: string, threads: number): Run {
  const out = join(dir, `${name}-${threads}`);
  const start = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'jwsim.js'), 'run', file, '--threads', String(threads), '--out', out, '--no-report'], { encoding: 'utf8' });
  const seconds = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`jwsim run ${name} --threads ${threads} failed (exit ${r.status}): ${r.stderr}`);
  const hash = createHash('sha256');
  for (const f of ['results.csv', 'results.json']) hash.update(readFileSync(join(out, f)));
  rmSync(out, { recursive: true, force: true });
  return { threads, seconds, digest: hash.digest('hex').slice(0, 16) };
}

try {
  const rows: string[][] = [];
  const results: Record<string, unknown> = {};
  let identical = true;
  for (const [name, file] of Object.entries(jobs)) {
    const runs = threadCounts.map((t) => runOnce(name, file, t));
    const base = runs.find((r) => r.threads === 1) ?? runs[0];
    for (const r of runs) {
      const speedup = (base.seconds / r.seconds) * (base.threads === 1 ? 1 : base.threads);
      const same = r.digest === base.digest;
      identical &&= same;
      rows.push([name, String(r.threads), r.seconds.toFixed(2), speedup.toFixed(2), (speedup / r.threads).toFixed(3), r.digest, same ? 'yes' : 'NO']);
    }
    results[name] = { runs };
  }
  printTable(['batch', 'threads', 'seconds', 'speed-up', 'efficiency', 'results sha256', 'same'], rows);
  console.log(`\n${cores} cores here; battle batch: 3 sample scenarios x ${battleTrials} mirrored trials, rules v1.2.2`);
  console.log(`results identical across thread counts: ${identical ? 'PASS' : 'FAIL'}`);
  writeSummary('scaling', { cores, battleTrials, identical, results });
  if (!identical) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
