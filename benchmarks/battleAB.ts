// Paired speed comparison of two builds of jwsim on full battles, for checking a change to the
// battle engine or the policies:
//
//   node dist/benchmarks/battleAB.js OLD_ROOT NEW_ROOT [--scenario FILE] [--policy NAME] [--rounds N] [--games N]
//
// OLD_ROOT and NEW_ROOT are jwsim folders (each with its own built dist/, e.g. a `git worktree`
// of the old commit after `npm install`). Both builds play the same games, alternating chunks of
// `--games` games in one process, so the machine's slow spells hit both alike: the paired ratio
// per round is far steadier than rates from separate bench runs. The build a process loads
// second tends to read a few percent faster even against an identical copy, so the comparison
// runs twice, once in each load order, and reports the mean of the two (in logs), which cancels
// that bias; the bias itself is printed as well.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../src/paths.js';
import { scenarioWithPolicy } from './harness.js';

interface Options {
  roots: [string, string];
  scenario: string;
  policy: string;
  rounds: number;
  games: number;
}

const USAGE = 'usage: node dist/benchmarks/battleAB.js OLD_ROOT NEW_ROOT [--scenario FILE] [--policy aggressive|standoff|random|lookahead|own] [--rounds N] [--games N]';

function fail(message: string): never {
  process.stderr.write(`battleAB: error: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: string[]): Options & { child: 'old-first' | 'new-first' | null } {
  const roots: string[] = [];
  const o = { scenario: join(projectRoot(), 'scenarios', 'battles', 'standard-engagement.json'), policy: 'aggressive', rounds: 20, games: 60, child: null as 'old-first' | 'new-first' | null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => argv[++i] ?? fail(`${a} needs a value`);
    const count = (lo: number, hi: number) => {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < lo || n > hi) fail(`${a}: "${v}" must be an integer from ${lo} to ${hi}`);
      return n;
    };
    if (a === '--scenario') o.scenario = resolve(value());
    else if (a === '--policy') o.policy = value();
    else if (a === '--rounds') o.rounds = count(2, 10_000);
    else if (a === '--games') o.games = count(1, 100_000);
    else if (a === '--child') o.child = value() === 'new-first' ? 'new-first' : 'old-first';
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else roots.push(resolve(a));
  }
  if (roots.length !== 2) fail('give the two jwsim folders to compare, the old one first');
  // One path is one build: a process imports its modules once, and both 'builds' would share them.
  if (roots[0] === roots[1]) fail('the two folders are the same; to check the tool against itself, compare with a copy of the folder at another path');
  if (!['aggressive', 'standoff', 'random', 'lookahead', 'own'].includes(o.policy)) fail(`--policy: "${o.policy}" is not one of aggressive, standoff, random, lookahead, own`);
  return { ...o, roots: [roots[0], roots[1]] };
}

interface Job {
  run(range: { first: number; trials: number }): number[];
}

/** One process: both builds, loaded in the given order, play the same chunks; prints per-round log(new/old) as JSON. */
async function child(o: Options, order: 'old-first' | 'new-first'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'jwsim-ab-'));
  try {
    const file = join(dir, 'scenario.json');
    try {
      scenarioWithPolicy(o.scenario, o.policy === 'own' ? null : o.policy, file);
    } catch (e) {
      fail(`${o.scenario}: ${(e as Error).message}`);
    }
    const load = [0, 1] as const;
    const jobs: Array<{ job: Job; n: number }> = [];
    for (const k of order === 'old-first' ? load : [1, 0]) {
      const root = o.roots[k];
      const { makeBattle } = (await import(pathToFileURL(join(root, 'dist', 'src', 'sim', 'battleJob.js')).href)) as { makeBattle: (x: object) => Job };
      const { B_N } = (await import(pathToFileURL(join(root, 'dist', 'src', 'sim', 'battles.js')).href)) as { B_N: number };
      const job = makeBattle({ scenarioFile: file, rules: '1.2.2', rule: [], allowInvalidFleets: true, seed: 'ab', mirror: false });
      job.run({ first: 0, trials: 300 }); // warm-up: the run's caches fill, as in battle.bench
      jobs[k] = { job, n: B_N };
    }
    const logs: number[] = [];
    let first = 10_000;
    for (let r = 0; r < o.rounds; r++) {
      const rate = [0, 0];
      // Alternate which build plays a round's chunk first.
      for (const k of r % 2 ? [1, 0] : [0, 1]) {
        const t = performance.now();
        const c = jobs[k].job.run({ first, trials: o.games });
        rate[k] = c[jobs[k].n] / ((performance.now() - t) / 1000);
      }
      logs.push(Math.log(rate[1] / rate[0]));
      first += o.games;
    }
    process.stdout.write(JSON.stringify(logs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function meanSe(x: number[]): { mean: number; se: number } {
  const mean = x.reduce((a, b) => a + b, 0) / x.length;
  const v = x.reduce((a, b) => a + (b - mean) ** 2, 0) / (x.length - 1);
  return { mean, se: Math.sqrt(v / x.length) };
}

const o = parse(process.argv.slice(2));
if (o.child) {
  await child(o, o.child);
} else {
  const runs: Array<{ mean: number; se: number }> = [];
  for (const order of ['old-first', 'new-first'] as const) {
    const r = spawnSync(process.execPath, [process.argv[1], ...process.argv.slice(2), '--child', order], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      process.exit(r.status ?? 1);
    }
    runs.push(meanSe(JSON.parse(r.stdout) as number[]));
  }
  const [a, b] = runs;
  const mean = (a.mean + b.mean) / 2;
  const se = Math.sqrt(a.se ** 2 + b.se ** 2) / 2;
  const f = (x: number) => Math.exp(x).toFixed(3);
  console.log(`${o.scenario} (${o.policy}, rules v1.2.2): ${o.rounds} rounds of ${o.games} games per load order`);
  console.log(`new/old games per second: x${f(mean)} (95% interval x${f(mean - 1.96 * se)} to x${f(mean + 1.96 * se)})`);
  console.log(`  loading old first: x${f(a.mean)}; new first: x${f(b.mean)}; the build loaded second reads x${f((a.mean - b.mean) / 2)} faster`);
}
