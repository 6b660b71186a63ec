// `jwsim dice`: the distribution of one pool, exactly or by Monte Carlo.
import type { DiceConfig } from '../dice/config.js';
import { exactDistribution, type Distribution } from '../dice/exact.js';
import { OUTCOME_CODES } from '../dice/outcome.js';
import type { Pool } from '../dice/pool.js';
import { Roller } from '../dice/roll.js';
import { summarize, type DistributionSummary } from '../dice/summary.js';
import { openStream } from '../rng/stream.js';

/** Trials per chunk; fixed so results never depend on how work is split. */
export const DICE_CHUNK_TRIALS = 65536;

export interface DiceEstimate {
  method: 'exact' | 'monte-carlo';
  distribution: Distribution;
  summary: DistributionSummary;
  /** Standard errors of summary.atLeast (Monte Carlo only). */
  se?: [number, number, number];
  trials?: number;
}

export function exactDice(cfg: DiceConfig, pool: Pool): DiceEstimate {
  const distribution = exactDistribution(cfg, pool);
  return { method: 'exact', distribution, summary: summarize(distribution) };
}

/** Outcome counts of trials [first, first + count) of the named experiment, chunk by chunk. */
export function countDiceOutcomes(cfg: DiceConfig, pool: Pool, seed: string, trials: number): Float64Array {
  const counts = new Float64Array(OUTCOME_CODES);
  const roller = new Roller(cfg);
  const chunks = Math.ceil(trials / DICE_CHUNK_TRIALS);
  for (let chunk = 0; chunk < chunks; chunk++) {
    const rng = openStream({ seed, experiment: 'dice', purpose: 'roll', chunk });
    const n = Math.min(DICE_CHUNK_TRIALS, trials - chunk * DICE_CHUNK_TRIALS);
    for (let t = 0; t < n; t++) counts[roller.unopposed(pool, rng)]++;
  }
  return counts;
}

export function sampledDice(cfg: DiceConfig, pool: Pool, seed: string, trials: number): DiceEstimate {
  const counts = countDiceOutcomes(cfg, pool, seed, trials);
  const distribution = counts.map((c) => c / trials);
  const summary = summarize(distribution);
  const se = summary.atLeast.map((p) => Math.sqrt((p * (1 - p)) / trials)) as [number, number, number];
  return { method: 'monte-carlo', distribution, summary, se, trials };
}
