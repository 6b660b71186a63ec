// Battle benchmark: games per second on one core for each sample scenario with aggressive
// against aggressive, and activations per second. The same run also times random against
// random and lookahead against lookahead on the same scenario, so each policy's cost shows
// as a ratio to aggressive. Targets: >= 2000 games/s per core at 250 TV per side (full
// battles), >= 1000 with squadrons making up at least a quarter of each fleet (every sample
// fleet does: v1.2.2 fleet building requires it). `npm run bench`; JSON in reports/bench/battle.json.
import { readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/paths.js';
import { makeBattle } from '../src/sim/battleJob.js';
import { B_ACTIVATIONS, B_N } from '../src/sim/battles.js';
import { printTable, scenarioWithPolicy, writeSummary } from './harness.js';

const TARGET = 2000;
const TARGET_WITH_SQUADRONS = 1000;
/**
 * Games per timed run, three runs per policy and scenario (each run plays games of its own).
 * At 200 games a run lasted about a tenth of a second, and one slow spell of the machine or a
 * run of long games moved the rate by a third; a thousand keep the spread of the three runs
 * (printed) to a few percent on an idle machine.
 */
const GAMES = 1000;
/**
 * Games played before timing. A run shares its attack plans, shot entries and estimate
 * tables across all its games; real runs play thousands, so the timed rate is the one after
 * these caches have filled. The rate of the warm-up games (cold caches) is printed too.
 */
const WARMUP = 500;

function rate(file: string, rules: string): { games: number; activations: number; cold: number; runs: number[] } {
  const job = makeBattle({ scenarioFile: file, rules, rule: [], allowInvalidFleets: true, seed: 'bench', mirror: false });
  const t0 = performance.now();
  job.run({ first: 0, trials: WARMUP });
  const cold = WARMUP / ((performance.now() - t0) / 1000);
  // The best run's games/s and activations/s (its own games), and every run's games/s.
  let games = 0;
  let activations = 0;
  const runs: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    const start = performance.now();
    const c = job.run({ first: 10_000 + rep * GAMES, trials: GAMES });
    const seconds = (performance.now() - start) / 1000;
    const perSecond = c[B_N] / seconds;
    runs.push(perSecond);
    if (perSecond > games) {
      games = perSecond;
      activations = c[B_ACTIVATIONS] / seconds;
    }
  }
  return { games, activations, cold, runs };
}

const dir = join(projectRoot(), 'scenarios', 'battles');
const tmp = mkdtempSync(join(tmpdir(), 'jwsim-bench-'));
const rows: string[][] = [];
const results: object[] = [];
try {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const variant = (policy: string) => {
      const f = join(tmp, `${policy}-${name}`);
      scenarioWithPolicy(join(dir, name), policy, f);
      return f;
    };
    const aggressive = rate(variant('aggressive'), '1.2.2');
    const random = rate(variant('random'), '1.2.2');
    const lookahead = rate(variant('lookahead'), '1.2.2');
    const spread = `${Math.min(...aggressive.runs).toFixed(0)}-${Math.max(...aggressive.runs).toFixed(0)}`;
    rows.push([name, aggressive.games.toFixed(0), spread, aggressive.cold.toFixed(0), aggressive.activations.toFixed(0), random.games.toFixed(0), lookahead.games.toFixed(0), (lookahead.games / aggressive.games).toFixed(2), (aggressive.games / TARGET).toFixed(3), (aggressive.games / TARGET_WITH_SQUADRONS).toFixed(3)]);
    results.push({
      scenario: name,
      aggressive_games_per_s: aggressive.games,
      aggressive_runs_games_per_s: aggressive.runs,
      aggressive_activations_per_s: aggressive.activations,
      aggressive_first_games_per_s: aggressive.cold,
      random_games_per_s: random.games,
      lookahead_games_per_s: lookahead.games,
      ratio_lookahead_to_aggressive: lookahead.games / aggressive.games,
      ratio_to_target: aggressive.games / TARGET,
      ratio_to_squadron_target: aggressive.games / TARGET_WITH_SQUADRONS,
    });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`battles on one core, rules v1.2.2, best of 3 runs of ${GAMES} games after ${WARMUP} warm-up games (target ${TARGET} games/s per core)`);
printTable(['scenario', 'aggr games/s', '3 runs', `first ${WARMUP}`, 'activations/s', 'random games/s', 'lookahead games/s', 'lookahead/aggr', 'vs 2000', 'vs 1000'], rows);
const worst = Math.min(...results.map((r) => (r as { ratio_to_target: number }).ratio_to_target));
console.log(worst >= 1 ? 'target met' : `BELOW TARGET: the slowest scenario reaches ${(worst * 100).toFixed(1)}% of ${TARGET} games/s and ${(worst * 200).toFixed(1)}% of ${TARGET_WITH_SQUADRONS}`);
writeSummary('battle', { target_games_per_s: TARGET, target_with_squadrons_games_per_s: TARGET_WITH_SQUADRONS, games_per_rep: GAMES, warmup_games: WARMUP, results });
