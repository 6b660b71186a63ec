// A battle run split into tasks of BATTLE_CHUNK_TRIALS trials, for this thread or a piscina
// pool. Counts are sums of integers, so adding chunks in any order gives identical totals.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { loadOverlay } from '../rules/overlay.js';
import { projectRoot } from '../paths.js';
import { BATTLE_CHUNK_TRIALS, battleCountsLength, battleStreams, runBattleChunk } from './battles.js';
import { loadBattle } from './cells.js';

/** Everything needed to rebuild the battle in a worker: plain data. */
export interface BattleJob {
  scenarioFile: string;
  rules: string;
  rule: string[];
  rulesOverlay?: string;
  units?: string[];
  allowInvalidFleets: boolean;
  seed: string;
  mirror: boolean;
  /** Name of the random streams (default: the scenario id). */
  streams?: string;
}

export interface BattleTask {
  first: number;
  trials: number;
}

/** What a worker sends back for a task: its counts, and the placeholders its Battle has used so far. */
export interface BattleTaskResult {
  counts: number[];
  placeholders: string[];
}

/**
 * The battle of `job`, ready to play ranges of games. `check`: refuse a scenario whose zones
 * cannot take its fleets (checkDeployment); the main thread does, before any worker starts, so
 * workers, which rebuild the same battle, skip it.
 */
export function makeBattle(job: BattleJob, check = true) {
  const variant = { name: 'battle', rules: job.rules, options: job.rule, overlay: job.rulesOverlay ? loadOverlay(job.rulesOverlay) : null };
  const { rules, scenario, battle } = loadBattle(variant, job.scenarioFile, { rulesVersion: job.rules, allowInvalidFleets: job.allowInvalidFleets, units: job.units }, check, '--rule');
  const streams = battleStreams(job.seed, job.streams ?? scenario.id);
  return {
    rules,
    scenario,
    battle,
    run: (t: BattleTask) => runBattleChunk(battle, streams, t.first, t.trials, job.mirror),
  };
}

function workerFile(): string {
  const file = join(projectRoot(), 'dist', 'workers', 'battle.js');
  if (!existsSync(file)) throw new Error(`worker not built: ${file} is missing; run "npm run build"`);
  return file;
}

/** Runs `trials` trials on `threads` workers (0: in this thread); returns the merged counts. */
export async function runBattleJob(job: BattleJob, local: ReturnType<typeof makeBattle>, trials: number, threads: number): Promise<number[]> {
  const tasks: BattleTask[] = [];
  for (let first = 0; first < trials; first += BATTLE_CHUNK_TRIALS) tasks.push({ first, trials: Math.min(BATTLE_CHUNK_TRIALS, trials - first) });
  const total = new Array<number>(battleCountsLength(local.battle.units.length)).fill(0);
  const add = (c: number[]) => c.forEach((x, i) => (total[i] += x));
  if (threads === 0 || tasks.length === 1) {
    for (const t of tasks) add(local.run(t));
    return total;
  }
  // No more workers than ranges of games: each costs memory and start-up, and an idle one
  // gives nothing back.
  const workers = Math.min(threads, tasks.length);
  const pool = new Piscina({ filename: workerFile(), minThreads: workers, maxThreads: workers, workerData: job, idleTimeout: 1000 });
  try {
    const results = await Promise.all(tasks.map((t) => pool.run(t) as Promise<BattleTaskResult>));
    // Placeholders met during the games go into the local Battle's list, as when it plays them
    // itself (a union over the same games, so the list does not depend on --threads).
    for (const r of results) {
      add(r.counts);
      local.battle.usage.addAll(r.placeholders);
    }
  } finally {
    await pool.destroy();
  }
  return total;
}
