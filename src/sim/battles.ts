// Monte Carlo battles: games in fixed chunks, each game on its own pair of streams (dice and
// policy, TrialStreams by game index), so results depend only on the seed and the number of
// games, never on chunking or threads. Counts are integers and sums, merged by addition.
import { Battle, type Trace } from '../engine/battle/game.js';
import type { CompiledRules } from '../rules/compile.js';
import { TrialStreams } from '../rng/stream.js';
import type { Scenario } from '../scenarios/scenarioTypes.js';
import type { BattleUnit } from './counts.js';
import { UserError } from '../errors.js';

/** Games per chunk (a mirrored pair counts as one trial of two games). */
export const BATTLE_CHUNK_TRIALS = 64;

export const B_N = 0; // games
export const B_WIN_A = 1;
export const B_WIN_B = 2;
export const B_DRAW = 3;
export const B_TURNS = 4; // then its square
export const B_ACTIVATIONS = 6;
export const B_OP = 7; // fleet a at 7 (+square 8), fleet b at 9 (+10)
export const B_VP = 11; // 11/12, 13/14
export const B_SURV = 15; // 15/16, 17/18
export const B_UNITS = 19;
/**
 * Per unit type, from B_UNITS: appearances (every model of the type in every game), destroyed,
 * crippled, withdrawn, damage dealt, the sum over trials of the square of the type's damage in
 * the trial, captured; then the sums over trials of the squares of the type's destroyed,
 * crippled, withdrawn and captured models in the trial. The squares are per trial (a game, or
 * a mirrored pair's two games together), not per model: models of one type in the same game
 * are not independent, nor are a type's figures in the two games of a mirrored pair, so the
 * intervals take the trial as the sampling unit (counts.ts, battleUnitStats).
 */
export const U_STRIDE = 11;
/** Offsets in a unit type's block. */
export const U_APPEARANCES = 0;
export const U_DESTROYED = 1;
export const U_CRIPPLED = 2;
export const U_WITHDRAWN = 3;
export const U_DAMAGE = 4; // then the per-trial square at +1
export const U_CAPTURED = 6;
/** From here: the per-trial squares of the destroyed, crippled, withdrawn and captured counts, in that order. */
export const U_FATE_SQUARES = 7;

export function battleCountsLength(units: number): number {
  return B_UNITS + U_STRIDE * units;
}

export interface BattleStreams {
  dice: TrialStreams;
  policy: TrialStreams;
}

export function battleStreams(seed: string, experiment: string): BattleStreams {
  return {
    dice: new TrialStreams({ seed, experiment, purpose: 'battle-dice', chunk: 0 }),
    policy: new TrialStreams({ seed, experiment, purpose: 'battle-policy', chunk: 0 }),
  };
}

function addSq(c: number[], i: number, x: number): void {
  c[i] += x;
  c[i + 1] += x * x;
}

/** A trial's per-type tallies (U_STRIDE each, only the first seven used), reused between trials. */
let tally: Float64Array = new Float64Array(0);

/** Plays game `t` (twice with the fleets swapped when `mirror`) and adds it to the counts. */
export function playTrial(battle: Battle, streams: BattleStreams, t: number, mirror: boolean, c: number[]): void {
  const types = battle.units.length;
  if (tally.length < U_STRIDE * types) tally = new Float64Array(U_STRIDE * types);
  tally.fill(0, 0, U_STRIDE * types);
  for (const mirrored of mirror ? [false, true] : [false]) {
    const r = battle.play(streams.dice.at(t), streams.policy.at(t), mirrored);
    c[B_N]++;
    c[r.winner === 0 ? B_WIN_A : r.winner === 1 ? B_WIN_B : B_DRAW]++;
    addSq(c, B_TURNS, r.turns);
    c[B_ACTIVATIONS] += r.activations;
    for (const f of [0, 1]) {
      addSq(c, B_OP + 2 * f, r.op[f]);
      addSq(c, B_VP + 2 * f, r.vp[f]);
      addSq(c, B_SURV + 2 * f, r.survivingTv[f]);
    }
    for (const m of battle.models) {
      const u = U_STRIDE * m.unitIndex;
      tally[u + U_APPEARANCES]++;
      const fate = battle.fate(m);
      if (fate === 'destroyed') tally[u + U_DESTROYED]++;
      else if (fate === 'crippled') tally[u + U_CRIPPLED]++;
      else if (fate === 'withdrawn') tally[u + U_WITHDRAWN]++;
      else if (fate === 'captured') tally[u + U_CAPTURED]++;
      tally[u + U_DAMAGE] += m.damageDealt;
    }
  }
  for (let i = 0; i < types; i++) {
    const u = U_STRIDE * i, b = B_UNITS + u;
    c[b + U_APPEARANCES] += tally[u + U_APPEARANCES];
    addSq(c, b + U_DAMAGE, tally[u + U_DAMAGE]);
    for (const [f, k] of FATES) {
      c[b + f] += tally[u + f];
      c[b + U_FATE_SQUARES + k] += tally[u + f] * tally[u + f];
    }
  }
}

/** Each fate's offset in a type's block, and its square's place after U_FATE_SQUARES. */
const FATES: ReadonlyArray<readonly [number, number]> = [
  [U_DESTROYED, 0],
  [U_CRIPPLED, 1],
  [U_WITHDRAWN, 2],
  [U_CAPTURED, 3],
];

/** A battle's unit types in the order of the counts' per-unit blocks: models per game (both fleets) and the fleets that field each. */
export function battleUnitsOf(battle: Battle): BattleUnit[] {
  return battle.units.map((u, i) => {
    const models = battle.models.filter((m) => m.unitIndex === i);
    const sides = (['a', 'b'] as const).filter((_, f) => models.some((m) => m.fleet === f));
    return { id: u.id, name: u.name, tv: u.tv, models: models.length, sides };
  });
}

/** Counts of trials [first, first + n). */
export function runBattleChunk(battle: Battle, streams: BattleStreams, first: number, n: number, mirror: boolean): number[] {
  const c = new Array<number>(battleCountsLength(battle.units.length)).fill(0);
  for (let t = first; t < first + n; t++) playTrial(battle, streams, t, mirror, c);
  return c;
}

/**
 * Refuses a scenario whose deployment zones cannot take its fleets: a capital ship that finds no
 * legal spot stays In Reserve, where it would score as surviving and keep its fleet in the game,
 * though capital ships may not be held back (game.md §12.2). Two trial games (one mirrored, on
 * streams of their own) are played up to their ends; caches they fill are pure memos, so the
 * run's results do not change.
 */
export function checkDeployment(battle: Battle): void {
  const streams = battleStreams('deployment-check', battle.scenario.id);
  const unplaced = new Set<string>();
  for (const mirrored of [false, true]) {
    // Played as the run's games are (no trace), so the engine is warmed up on the same paths.
    battle.play(streams.dice.at(0), streams.policy.at(0), mirrored);
    for (const m of battle.unplaced) if (m.unit.isCapital) unplaced.add(m.unit.id);
  }
  if (!unplaced.size) return;
  const s = battle.scenario;
  const zone = s.zone === 'standard' ? `standard strips ${s.stripDepth} in deep` : s.zone === 'corner' ? `corner quadrants ${s.table.width / 2} x ${s.table.height / 2} in` : 'beacon zones (3 in around each beacon)';
  throw new UserError(
    `${s.file}: the deployment zones (${zone}, on a ${s.table.width} x ${s.table.height} in table) cannot take the fleets: ${[...unplaced].join(', ')} found no legal spot in a trial game, and a capital ship may not stay In Reserve (game.md §12.2); use a larger table or zone, or fewer models`,
  );
}

/** One game with its full record (jwsim battle --trace, a report's sample game), on the streams named `streamsName`. */
export function traceGame(rules: CompiledRules, scenario: Scenario, seed: string, game: number, mirrored: boolean, streamsName = scenario.id) {
  const battle = new Battle(rules, scenario);
  const streams = battleStreams(seed, streamsName);
  const trace: Trace = { initiative: '', beacons: [], deployments: [], activations: [], endPhases: [] };
  const result = battle.play(streams.dice.at(game), streams.policy.at(game), mirrored, trace);
  const fates = battle.models.map((m) => ({ model: m.label, fleet: m.fleet === 0 ? 'a' : 'b', tv: m.unit.tv, fate: battle.fate(m), structure: m.state.structure, damage_dealt: m.damageDealt }));
  return { battle, trace, result, fates };
}
