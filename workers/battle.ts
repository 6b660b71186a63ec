// Worker thread entry for `jwsim battle --threads N`: each task is a range of games; the
// worker loads the scenario once (from the same files and options as the main thread).
import { workerData } from 'node:worker_threads';
import { makeBattle, type BattleJob, type BattleTask, type BattleTaskResult } from '../src/sim/battleJob.js';

// Made at the first task rather than while the module loads (see chunk.ts).
let job: ReturnType<typeof makeBattle> | null = null;

export default function runGames(task: BattleTask): BattleTaskResult {
  job ??= makeBattle(workerData as BattleJob, false); // the main thread checked the scenario before starting workers
  const counts = job.run(task);
  return { counts, placeholders: job.battle.usage.list() };
}
