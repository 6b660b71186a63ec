// Worker thread entry for `jwsim battle --threads N`: each task is a range of games; the
// worker loads the scenario once (from the same files and options as the main thread).
import { workerData } from 'node:worker_threads';
import { makeBattle, type BattleJob, type BattleTask } from '../src/sim/battleJob.js';

const job = makeBattle(workerData as BattleJob);

export default function runGames(task: BattleTask): number[] {
  return job.run(task);
}
