// Shared timing and output helpers for the benchmarks in this folder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tuneV8 } from '../src/sim/v8tuning.js';

// The command's V8 settings (see tuneV8): every benchmark imports this module.
tuneV8();

const REP_MS = 110; // one timed repetition; 3 of them make the ~300 ms per case
const REPS = 3;
const CALIBRATE_MS = 25; // warm-up that also sizes the repetitions
export const METHOD = { repMs: REP_MS, reps: REPS, calibrateMs: CALIBRATE_MS, statistic: 'best of reps', threads: 1 };

let sink = 0; // everything a case computes ends up here, so no loop is dead code
export const checksum = (): number => sink;

/** A case runs n iterations and returns something derived from every result. */
export type Case = (n: number) => number;

/** Operations per second of a case: calibrate while warming up, then best of REPS runs. */
export function measure(run: Case, startN = 1000): number {
  let n = startN;
  let t = 0;
  for (;;) {
    const start = performance.now();
    sink += run(n);
    t = performance.now() - start;
    if (t >= CALIBRATE_MS) break;
    n *= 2;
  }
  const iterations = Math.max(startN, Math.ceil((n * REP_MS) / t));
  let best = Infinity;
  for (let r = 0; r < REPS; r++) {
    const start = performance.now();
    sink += run(iterations);
    best = Math.min(best, performance.now() - start);
  }
  return (iterations / best) * 1000;
}

/** Aligned text table: first column left, the others right. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** The processor model and the cores Node may use: rates from machines of the same kind have
 * differed by up to about two times, so every summary says which machine measured it. */
function machine(): { cpu: string; cores: number } {
  let cpu = cpus()[0]?.model.trim() || 'unknown';
  // Under a hypervisor the model name can be as vague as "AMD EPYC": Linux's family and model
  // numbers still tell processor generations apart.
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (f: string) => new RegExp(`^${f}\\s*:\\s*(\\S+)`, 'm').exec(info)?.[1];
    const family = field('cpu family'), model = field('model');
    if (family && model) cpu += ` (family ${family}, model ${model})`;
  } catch {
    // not Linux: the model name alone
  }
  return { cpu, cores: availableParallelism() };
}

/** Writes reports/bench/NAME.json (generated, not committed) and says where; it opens with the
 * benchmark name, the time, the Node version and platform, and the processor it ran on (also
 * printed, so a pasted table carries it). */
export function writeSummary(name: string, results: object): void {
  const m = machine();
  const summary = { benchmark: name, date: new Date().toISOString(), node: process.version, platform: `${process.platform} ${process.arch}`, cpu: m.cpu, cores: m.cores, ...results };
  console.log(`machine: ${m.cpu}, ${m.cores} cores, Node ${process.version}`);
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'); // dist/benchmarks -> repo root
  const outDir = join(root, 'reports', 'bench');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  console.log(`wrote ${file}`);
}

/**
 * Writes to `out` a copy of battle scenario `file` that works from any folder (its unit and
 * fleet files made absolute) with both sides' policy replaced by `policy` (null: as the file
 * has it). The battle benchmarks time each sample scenario under policies of their choosing.
 */
export function scenarioWithPolicy(file: string, policy: string | null, out: string): void {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const abs = (p: string) => (isAbsolute(p) ? p : join(dirname(file), p));
  const sides = { ...(data.sides as Record<string, Record<string, unknown>>) };
  for (const s of ['a', 'b']) {
    const side = { ...sides[s] };
    if (policy !== null) side.policy = { name: policy };
    if (typeof side.fleet_file === 'string') side.fleet_file = abs(side.fleet_file);
    sides[s] = side;
  }
  const units = ((data.units as string[] | undefined) ?? ['../units/sample-roster.json']).map(abs);
  writeFileSync(out, JSON.stringify({ ...data, units, sides }));
}
