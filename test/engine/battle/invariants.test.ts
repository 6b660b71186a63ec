// Whole-game invariants over a few hundred games: sample scenarios, both rules versions where
// the scenario is allowed, every policy (random included), mirrored and not. After each game:
// bases on the table and apart, VP recomputed from the fates, the winner from OP then VP, the
// turn limit, Fire Control and weapon use per activation, determinism, and mirror symmetry.
import { describe, expect, it } from 'vitest';
import type { GameResult, Trace } from '../../../src/engine/battle/game.js';
import { onTable, separation } from '../../../src/engine/geometry.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { PolicyName, Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, endState, expectedVp, expectedWinner, rules, sampleScenario, withPolicies, type SampleScenario } from '../../helpers/battle.js';

// A fresh Battle spends most of its first games building attack plans (cached per Battle),
// so each configuration reuses one Battle for many games; extra Battles (fresh replays and
// the mirror check) are made only where they are cheap (random policies) or once.
interface Config {
  name: SampleScenario;
  version: RulesVersionId;
  /** Policies (a, b); null: the file's own. */
  pair: [PolicyName, PolicyName] | null;
  games: number;
  /** Replay the first games on a fresh Battle (otherwise on the same, warm one). */
  freshReplay: boolean;
  /** Check the mirror symmetry on the mirrored games (a second Battle). */
  mirrorCheck: boolean;
}

/** Scenario, version, and a mixed pair of policies to play besides the file's own and random/random. */
const SCENARIO_VERSIONS: Array<[SampleScenario, RulesVersionId, [PolicyName, PolicyName] | null]> = [
  ['standard-engagement', '1.2.2', ['random', 'aggressive']],
  ['standard-engagement', '1.2.1', ['standoff', 'random']],
  ['beacon-assault', '1.2.2', ['aggressive', 'random']],
  ['beacon-assault', '1.2.1', null],
  ['corner-escalation', '1.2.2', ['standoff', 'aggressive']], // v1.2.1 rejects Escalating Deployment (deployment.test.ts)
];

const CONFIGS: Config[] = SCENARIO_VERSIONS.flatMap(([name, version, mixed], i): Config[] => [
  { name, version, pair: null, games: 12, freshReplay: false, mirrorCheck: i === 0 },
  { name, version, pair: ['random', 'random'], games: 16, freshReplay: true, mirrorCheck: true },
  ...(mixed ? [{ name, version, pair: mixed, games: 12, freshReplay: false, mirrorCheck: false }] : []),
]);


/** A snapshot of the end of a game: the result and every model's end state and pose. */
function snapshot(battle: Battle, r: GameResult) {
  return {
    result: { ...r },
    models: battle.models.map((m) => ({ side: m.side, where: m.where, x: m.base.x, y: m.base.y, h: m.base.heading, structure: m.state.structure, crippled: m.state.crippled, destroyed: m.state.destroyed, dealt: m.damageDealt })),
  };
}

function checkGame(battle: Battle, scenario: Scenario, version: RulesVersionId, r: GameResult, trace: Trace, mirrored: boolean, what: string): void {
  const W = scenario.table.width, H = scenario.table.height;
  const onTableModels = battle.models.filter((m) => m.where === 'table');
  // Sides follow the mirror flag.
  // Table positions follow the fleets (a Captured ship has changed sides, GM-75).
  for (const m of battle.models) expect(m.side, `${what}: ${m.label} position`).toBe((mirrored ? 1 - m.fleet : m.fleet) ^ (m.captured ? 1 : 0));
  // Every base on the table lies wholly on it (GM-15); crippled hulks included.
  for (const m of onTableModels) expect.soft(onTable(m.base, W, H), `${what}: ${m.label} off the table at ${m.base.x}, ${m.base.y}, ${m.base.heading}`).toBe(true);
  // No two bases on the table overlap (touching is allowed after rams and forced placements).
  // Soft, so that one overlap does not hide the other checks of the run.
  for (let i = 0; i < onTableModels.length; i++) {
    for (let j = i + 1; j < onTableModels.length; j++) {
      const a = onTableModels[i], b = onTableModels[j];
      expect.soft(separation(a.base, b.base), `${what}: ${a.label} overlaps ${b.label}`).toBeGreaterThan(-0.001);
    }
  }
  // Fates agree with the engine's, and VP with an independent count.
  for (const m of battle.models) expect(battle.fate(m), `${what}: fate of ${m.label}`).toBe(endState(m));
  expect(r.vp, `${what}: VP`).toEqual(expectedVp(battle, version));
  // Surviving TV: intact or In Reserve.
  const surv: [number, number] = [0, 0];
  for (const m of battle.models) if (['intact', 'reserve'].includes(endState(m))) surv[m.fleet] += m.unit.tv;
  expect(r.survivingTv, `${what}: surviving TV`).toEqual(surv);
  // The winner: v1.2.2 most OP, then most VP; v1.2.1 most VP with OP counted in; else a draw (GM-33).
  expect(r.winner, `${what}: winner of ${JSON.stringify(r)}`).toBe(expectedWinner(r, version));
  if (scenario.objectives.length === 0) expect(r.op).toEqual([0, 0]);
  // Turn limit; an early end names its reason.
  expect(r.turns).toBeGreaterThanOrEqual(1);
  expect(r.turns).toBeLessThanOrEqual(scenario.turns);
  if (r.turns < scenario.turns) expect(r.endReason).not.toMatch(/turns played/);
  expect(r.activations).toBe(trace.activations.length);
  // The Initiative fleet as the trace says.
  expect(trace.initiative.startsWith(r.initiative === 0 ? 'A' : 'B')).toBe(true);

  // Activations: each model at most once per turn; Fire Control and weapon lines never overspent.
  const byLabel = new Map(battle.models.map((m) => [m.label, m] as const));
  const seen = new Set<string>();
  for (const a of trace.activations) {
    const key = `${a.turn}|${a.model}`;
    expect(seen.has(key), `${what}: ${a.model} activated twice in turn ${a.turn}`).toBe(false);
    seen.add(key);
    expect(a.turn).toBeLessThanOrEqual(r.turns);
    const m = byLabel.get(a.model)!;
    expect(m, `${what}: unknown model ${a.model}`).toBeDefined();
    // Per Attack Window and attacker (a dogfight or bombing run has several windows, and the
    // opponent attacks in them too): at most Fire Control attacks, each weapon instance once.
    const windows = new Map<string, { model: (typeof battle.models)[number]; n: number; uses: Map<string, number> }>();
    for (const at of a.attacks) {
      const att = byLabel.get(at.attacker)!;
      expect(att, `${what}: unknown attacker ${at.attacker}`).toBeDefined();
      if (at.window === 0) expect(at.attacker, `${what}: own-window attacks belong to the activating model`).toBe(a.model);
      const key = `${at.attacker}|${at.window}`;
      const w = windows.get(key) ?? { model: att, n: 0, uses: new Map<string, number>() };
      w.n++;
      w.uses.set(at.weapon, (w.uses.get(at.weapon) ?? 0) + 1);
      windows.set(key, w);
      // Sides are checked at the end of the game, so skip pairs where a capture changed one.
      const tgtModel = byLabel.get(at.target)!;
      if (!att.captured && !tgtModel.captured) expect(tgtModel.side, `${what}: ${at.attacker} fired on its own side`).not.toBe(att.side);
      // Range bands from the firer's card Sensors at most (Sensors only go down).
      const short = byLabel.get(at.target)!.unit.isCapital ? 6 : 3;
      expect(at.range, `${what}: ${at.attacker} → ${at.target} at ${at.range}" with Sensors ${att.unit.sensors}`).toBeLessThanOrEqual(short + 3 * att.unit.sensors + 0.002);
      if (at.band === 'short') expect(at.range).toBeLessThanOrEqual(short + 0.002);
      else expect(at.range).toBeGreaterThan(short - 0.002);
    }
    for (const [key, w] of windows) {
      expect(w.n, `${what}: turn ${a.turn} window ${key} made ${w.n} attacks with Fire Control ${w.model.unit.fireControl}`).toBeLessThanOrEqual(w.model.unit.fireControl);
      for (const [name, n] of w.uses) {
        const count = w.model.unit.weapons.filter((x) => x.name === name).reduce((s, x) => s + x.count, 0);
        expect(count, `${what}: ${key} fired unknown weapon ${name}`).toBeGreaterThan(0);
        expect(n, `${what}: turn ${a.turn} ${key} fired ${name} ${n} times (count ${count})`).toBeLessThanOrEqual(count);
      }
    }
    if (a.action === 'withdraw' || a.action === 'ram') expect(a.attacks).toHaveLength(0);
  }

  // Once destroyed a model neither activates nor is attacked; a Crippled capital ship is an
  // inert hulk (GM-21, default INERT) and does not activate again (GM-50).
  const gone = new Set<string>();
  const inert = new Set<string>();
  const note = (label: string, after: string) => {
    if (after === 'destroyed') gone.add(label);
    if (after === 'crippled' && byLabel.get(label)!.unit.isCapital) inert.add(label);
  };
  for (const a of trace.activations) {
    expect(gone.has(a.model), `${what}: destroyed ${a.model} activated in turn ${a.turn}`).toBe(false);
    expect(inert.has(a.model), `${what}: crippled hulk ${a.model} activated in turn ${a.turn}`).toBe(false);
    for (const at of a.attacks) {
      expect(gone.has(at.target), `${what}: ${a.model} attacked destroyed ${at.target}`).toBe(false);
      note(at.target, at.targetAfter);
    }
    if (a.ram) {
      note(a.model, a.ram.rammerAfter);
      note(a.ram.target, a.ram.targetAfter);
    }
  }
}

/** The scenario with sides a and b exchanged (same Initiative slot, same table). */
function swapped(s: Scenario): Scenario {
  return { ...s, sides: [s.sides[1], s.sides[0]] };
}

describe.each(CONFIGS.map((c) => ({ ...c, policies: c.pair ? `${c.pair[0]} vs ${c.pair[1]}` : "the file's policies" })))(
  '$name under v$version, $policies',
  ({ name, version, pair, games, freshReplay, mirrorCheck, policies }) => {
    it(`${games} games: invariants, determinism${mirrorCheck ? ', mirror symmetry' : ''}`, () => {
      const base = sampleScenario(name, version);
      const scenario = pair ? withPolicies(base, pair[0], pair[1]) : base;
      const r = rules(version);
      const battle = new Battle(r, scenario);
      const replay = freshReplay ? new Battle(r, scenario) : battle;
      const mirror = mirrorCheck ? new Battle(r, swapped(scenario)) : null;
      const streams = battleStreams(`invariants-${policies}`, `${name}-${version}`);
      for (let g = 0; g < games; g++) {
        const mirrored = g % 2 === 1;
        const what = `${name} v${version} ${policies} game ${g}${mirrored ? ' (mirrored)' : ''}`;
        const trace = emptyTrace();
        const res = battle.play(streams.dice.at(g), streams.policy.at(g), mirrored, trace);
        checkGame(battle, scenario, version, res, trace, mirrored, what);
        const snap = snapshot(battle, res);
        if (g % 4 < 2) {
          // Determinism: the same streams give the same game, without a trace and (where
          // freshReplay) on another Battle whose caches are in another state.
          const again = replay.play(streams.dice.at(g), streams.policy.at(g), mirrored);
          expect(snapshot(replay, again), `${what}: replay`).toEqual(snap);
        }
        if (mirror && mirrored && g % 4 === 1) {
          // Mirror: the mirrored game is the unmirrored game of the scenario with sides a and b exchanged.
          const m = mirror.play(streams.dice.at(g), streams.policy.at(g), false);
          expect(m.op).toEqual([res.op[1], res.op[0]]);
          expect(m.vp).toEqual([res.vp[1], res.vp[0]]);
          expect(m.survivingTv).toEqual([res.survivingTv[1], res.survivingTv[0]]);
          expect(m.winner).toBe(res.winner === 2 ? 2 : 1 - res.winner);
          expect(m.initiative).toBe(1 - res.initiative);
          expect([m.turns, m.activations, m.endReason]).toEqual([res.turns, res.activations, res.endReason]);
          // Model by model: fleet f index i here is fleet 1 - f index i there.
          const there = snapshot(mirror, m).models;
          const nB = scenario.sides[1].fleet.length;
          expect([...there.slice(nB), ...there.slice(0, nB)], `${what}: mirror models`).toEqual(snap.models);
        }
      }
    });
  },
);
