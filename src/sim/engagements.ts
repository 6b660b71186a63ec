// Monte Carlo runs of single engagements, in fixed chunks with one named stream each, so
// results depend only on the seed and the trial count.
import { Roller } from '../dice/roll.js';
import { rollPlan } from '../engine/attack.js';
import type { AttackPlan } from '../engine/attackPlan.js';
import { DamageTally, applyResults } from '../engine/damage.js';
import { DUEL_DRAW, DUEL_WIN_A, DUEL_WIN_B, type Duel } from '../engine/duel.js';
import { rollRam, type RamPlan } from '../engine/ram.js';
import { CombatState } from '../engine/state.js';
import { DamageStats, type DamageSummary } from '../engine/stats.js';
import { fireVolley, type VolleyPlan } from '../engine/volley.js';
import type { CompiledRules } from '../rules/compile.js';
import { openStream, type RandomStream } from '../rng/stream.js';

/** Trials per chunk of an engagement; fixed, so results never depend on how work is split. */
export const ENGAGEMENT_CHUNK_TRIALS = 8192;

/** Runs `trials` trials chunk by chunk, each chunk on its own stream. */
function forEachTrial(seed: string, experiment: string, purpose: string, trials: number, trial: (rng: RandomStream) => void): void {
  const chunks = Math.ceil(trials / ENGAGEMENT_CHUNK_TRIALS);
  for (let chunk = 0; chunk < chunks; chunk++) {
    const rng = openStream({ seed, experiment, purpose, chunk });
    const n = Math.min(ENGAGEMENT_CHUNK_TRIALS, trials - chunk * ENGAGEMENT_CHUNK_TRIALS);
    for (let t = 0; t < n; t++) trial(rng);
  }
}

/** One attack rolled `trials` times against a fresh copy of the target. */
export function sampledAttack(rules: CompiledRules, plan: AttackPlan, target: CombatState, seed: string, experiment: string, trials: number): DamageSummary {
  const roller = new Roller(rules.dice);
  const s = new CombatState(target.unit);
  const tally = new DamageTally();
  const stats = new DamageStats();
  forEachTrial(seed, experiment, 'attack', trials, (rng) => {
    s.copyFrom(target);
    tally.reset();
    applyResults(rules, s, rollPlan(rules, roller, plan, rng), tally);
    stats.add(1, s, tally);
  });
  return stats.summary(true);
}

/** A whole volley rolled `trials` times; also the mean number of attacks made. */
export function sampledVolley(rules: CompiledRules, plan: VolleyPlan, attacker: CombatState, target: CombatState, seed: string, experiment: string, trials: number) {
  const s = new CombatState(target.unit);
  const tally = new DamageTally();
  const stats = new DamageStats();
  let shots = 0;
  forEachTrial(seed, experiment, 'volley', trials, (rng) => {
    s.copyFrom(target);
    tally.reset();
    shots += fireVolley(rules, plan, attacker, s, rng, tally);
    stats.add(1, s, tally);
  });
  return { summary: stats.summary(true), meanAttacks: shots / trials };
}

/** A ram rolled `trials` times. */
export function sampledRam(rules: CompiledRules, plan: RamPlan, rammer: CombatState, target: CombatState, seed: string, experiment: string, trials: number) {
  const roller = new Roller(rules.dice);
  const r = new CombatState(rammer.unit);
  const t = new CombatState(target.unit);
  const tally = new DamageTally();
  const rammerTally = new DamageTally();
  const targetStats = new DamageStats();
  const rammerStats = new DamageStats();
  let rams = 0;
  let shotDown = 0;
  let failed = 0;
  forEachTrial(seed, experiment, 'ram', trials, (rng) => {
    r.copyFrom(rammer);
    r.structure = 1;
    t.copyFrom(target);
    tally.reset();
    const roll = rollRam(rules, plan, r, t, roller, rng, tally);
    if (roll.result === 'rammed') rams++;
    else if (roll.result === 'shot-down') shotDown++;
    else failed++;
    targetStats.add(1, t, tally);
    rammerTally.reset();
    rammerTally.structure = 1 - r.structure;
    rammerStats.add(1, r, rammerTally);
  });
  return { pRams: rams / trials, pShotDown: shotDown / trials, pSkillFails: failed / trials, target: targetStats.summary(true), rammer: rammerStats.summary(true) };
}

export interface DuelCounts {
  trials: number;
  aWins: number;
  bWins: number;
  draws: number;
  roundsTotal: number;
  /** Trials that ended in round r (index r), decided or drawn. */
  roundsHistogram: number[];
}

export function runDuel(duel: Duel, seed: string, experiment: string, trials: number): DuelCounts {
  const counts: DuelCounts = { trials, aWins: 0, bWins: 0, draws: 0, roundsTotal: 0, roundsHistogram: [] };
  const rounds = new Int32Array(1);
  forEachTrial(seed, experiment, 'duel', trials, (rng) => {
    const w = duel.play(rng, rounds);
    if (w === DUEL_WIN_A) counts.aWins++;
    else if (w === DUEL_WIN_B) counts.bWins++;
    else if (w === DUEL_DRAW) counts.draws++;
    counts.roundsTotal += rounds[0];
    while (counts.roundsHistogram.length <= rounds[0]) counts.roundsHistogram.push(0);
    counts.roundsHistogram[rounds[0]]++;
  });
  return counts;
}
