// Early ends (game.md §4.4, §12, GM-52): the scenario conditions early_end.no_capital_ships
// and early_end.op_at_least, checked in the End Phase (v1.2.2), and v1.2.1's immediate end
// when a fleet without objectives has lost every capital ship. Seeded games of small
// in-memory scenarios, checked from their traces.
import { describe, expect, it } from 'vitest';
import type { GameResult, Trace } from '../../../src/engine/battle/game.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, handBattle, miniScenario, put, rules, type BattleInternals } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

interface Game {
  result: GameResult;
  trace: Trace;
  /** Per table position: a capital ship still able to fight / any capital ship gone (destroyed or withdrawn) — at the end. */
  fighting: [boolean, boolean];
  allCapitalsGone: [boolean, boolean];
  /** Fleet (0 = A) at each table position. */
  fleetAt: [0 | 1, 0 | 1];
}

function play(version: RulesVersionId, s: Scenario, games: number, seed: string, opts: string[] = []): Game[] {
  const battle = new Battle(opts.length ? rulesFor(version, opts) : rules(version), s);
  const streams = battleStreams(seed, s.id);
  const out: Game[] = [];
  for (let g = 0; g < games; g++) {
    const trace = emptyTrace();
    const result = battle.play(streams.dice.at(g), streams.policy.at(g), false, trace);
    const caps = (side: 0 | 1) => battle.models.filter((m) => m.side === side && m.unit.isCapital);
    const fighting: [boolean, boolean] = [caps(0).some((m) => m.fights(battle.br.inertHulks)), caps(1).some((m) => m.fights(battle.br.inertHulks))];
    const gone = (side: 0 | 1) => caps(side).every((m) => m.where === 'destroyed' || m.where === 'withdrawn' || m.state.destroyed);
    out.push({ result, trace, fighting, allCapitalsGone: [gone(0), gone(1)], fleetAt: [0, 1] });
  }
  return out;
}

// Fleet A: one Tengu (Structure 3); fleet B: a Poseidon and a Corsair (Structure 8 and 6).
const lopsided = (earlyEnd: Scenario['earlyEnd'], turns = 7): Scenario => ({
  ...miniScenario({ a: ['unknown.tengu'], b: ['unknown.poseidon', 'unknown.corsair'], turns }),
  earlyEnd,
});

describe('early_end.no_capital_ships (v1.2.2, End Phase)', () => {
  const GAMES = 8;
  const games = play('1.2.2', lopsided({ noCapitalShips: true, opAtLeast: null }), GAMES, 'endings');

  it('some games end before turn 7, each in the End Phase of the turn a fleet is left without a fighting capital ship', () => {
    const early = games.filter((g) => g.result.turns < 7);
    expect(early.length).toBeGreaterThan(0);
    for (const g of games) {
      const ended = /no capital ship left that can fight \(turn (\d+)\)/.exec(g.result.endReason);
      if (g.result.turns < 7) {
        expect(ended, g.result.endReason).not.toBeNull();
        expect(Number(ended![1])).toBe(g.result.turns);
        // The loser has no fighting capital ship left; the End Phase of that turn was reached.
        expect(g.fighting[0] && g.fighting[1]).toBe(false);
        expect(g.trace.endPhases.map((e) => e.turn)).toEqual(Array.from({ length: g.result.turns }, (_, i) => i + 1));
        // Nothing is activated after that End Phase.
        expect(Math.max(...g.trace.activations.map((a) => a.turn))).toBe(g.result.turns);
        expect(g.result.endedEarly).toBe(true);
      } else {
        // An end in turn 7's End Phase is the scheduled end: not early, the condition noted.
        expect(['7 turns played', '7 turns played; at its end a fleet has no capital ship left that can fight']).toContain(g.result.endReason);
        expect(g.result.endedEarly).toBe(false);
      }
    }
  });

  it('the game did not end in an earlier turn: every earlier End Phase still had a fighting capital ship on each side', () => {
    // Replaying with the condition off gives the same dice up to the end: the early-ending
    // games then run on to turn 7, so the condition (not anything else) ended them.
    const off = play('1.2.2', lopsided({ noCapitalShips: false, opAtLeast: null }), GAMES, 'endings');
    for (let g = 0; g < GAMES; g++) {
      expect(off[g].result.turns).toBe(7);
      expect(off[g].result.endReason).toBe('7 turns played');
      if (games[g].result.turns < 7) {
        const n = games[g].trace.activations.length;
        expect(off[g].trace.activations.slice(0, n)).toEqual(games[g].trace.activations);
      }
    }
  });
});

describe('early_end.op_at_least (v1.2.2, End Phase)', () => {
  // One marker beside fleet A's strip (A holds Initiative: y 0..12): (24, 2), radius 14,
  // 1 OP per End Phase from turn 2; the game ends as soon as a fleet has 1 OP. Fleet B is a
  // single Tengu (at most 11" a turn from y > 36), which cannot contest the marker by turn 2.
  const s: Scenario = {
    ...miniScenario({ a: ['unknown.tengu', 'jovian.pathfinder', 'jovian.pathfinder'], b: ['unknown.tengu'] }),
    objectives: [{ id: 'near-a', x: 24, y: 2, radius: 14, points: 1, fromTurn: 2 }],
    earlyEnd: { noCapitalShips: false, opAtLeast: 1 },
  };
  const games = play('1.2.2', s, 6, 'endings-op');

  it('reached in the last turn\'s End Phase, the threshold ends nothing early: the game is reported as played out, the threshold noted', () => {
    const short = play('1.2.2', { ...s, turns: 2 }, 6, 'endings-op');
    const atTwo = short.filter((g) => g.trace.endPhases.some((p) => p.turn === 2 && (p.op[0] >= 1 || p.op[1] >= 1)));
    expect(atTwo.length).toBeGreaterThan(0);
    for (const g of atTwo) {
      expect(g.result.turns).toBe(2);
      expect(g.result.endedEarly).toBe(false);
      expect(g.result.endReason).toBe('2 turns played; at its end a fleet reached 1 Objective Points');
    }
  });

  it('nothing scores before from_turn; the game ends in the first End Phase where a fleet reaches 1 OP', () => {
    let atFromTurn = 0;
    for (const g of games) {
      const phases = g.trace.endPhases;
      expect(phases[0].turn).toBe(1);
      expect(phases[0].op).toEqual([0, 0]);
      expect(phases[0].scored).toEqual([]);
      const first = phases.find((p) => p.op[0] >= 1 || p.op[1] >= 1);
      if (first) {
        expect(g.result.turns).toBe(first.turn);
        expect(phases[phases.length - 1]).toBe(first);
        expect(g.result.endReason).toBe(`a fleet reached 1 Objective Points (turn ${first.turn})`);
        expect(g.result.op).toEqual(first.op);
        expect(g.result.winner).toBe(first.op[0] > first.op[1] ? 0 : 1);
        if (first.turn === 2) atFromTurn++;
      } else {
        expect(g.result.turns).toBe(7);
      }
    }
    // Fleet A holds the marker by its own edge at the first scoring End Phase in some game.
    expect(atFromTurn).toBeGreaterThan(0);
    expect(games.some((g) => g.result.turns === 2 && g.result.op[0] === 1 && g.trace.endPhases[1].scored[0] === 'near-a: +1 OP to A')).toBe(true);
  });
});

describe('v1.2.1 without objectives: the game ends at once when a fleet has lost all its capital ships (GM-52)', () => {
  // Fleet A's only capital ship (a Tengu, Thrusters 0 so no turn, minimum move 4") at (24, 46.5)
  // heading at the far edge half an inch away (so even a Station Keeping move of 2" runs off),
  // with an enemy squadron touching its rear (so it may not hold position); A holds Initiative and has nothing else, so the Tengu activates first: under offtable_rule=DESTROYED its move takes it off the table, Destroyed. That
  // state change ends a v1.2.1 game without objectives at once, mid-turn.
  const run = (objectives: Scenario['objectives']) => {
    const s: Scenario = { ...miniScenario({ a: ['unknown.tengu'], b: ['jovian.pathfinder', 'unknown.poseidon', 'jovian.pathfinder'] }), objectives };
    const battle = new Battle(rulesFor('1.2.1', ['offtable_rule=DESTROYED']), s);
    const inner = handBattle(battle, 'gm-52') as BattleInternals & { activationPhase(initSide: 0 | 1): void; ended: string | null };
    const [ship, guard, b2, b3] = battle.models;
    put(ship, 24, 46.5, 0);
    put(guard, 24, 45, 0); // hex y 44.5..45.5: its top flat on the ship's rear edge
    put(b2, 24, 4, 180);
    put(b3, 42, 6, 0);
    ship.state.thrusters = 0;
    inner.ended = null;
    inner.activationPhase(0);
    return { battle, inner, ship, trace: inner.trace! };
  };

  it('nothing is activated after the activation in which the last capital ship was lost', () => {
    const { battle, inner, ship, trace } = run([]);
    expect(ship.where).toBe('destroyed');
    expect(inner.ended).toBe('fleet A has no capital ship left (turn 1; v1.2.1: the game ends at once)');
    const k = trace.activations.findIndex((a) => a.model === ship.label);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(trace.activations[k].notes).toContain('left the table: destroyed (GM-15 offtable_rule)');
    expect(trace.activations).toHaveLength(k + 1);
    // It was the first activation of the turn; none of fleet B's models is activated after it.
    expect(k).toBe(0);
    expect(battle.models.filter((m) => m.activated)).toEqual([ship]);
  });

  it('with an objective in the scenario (not a Standard game) the turn goes on: every model still able is activated', () => {
    const { battle, inner, ship, trace } = run([{ id: 'o', x: 24, y: 24, radius: 3, points: 1, fromTurn: 1 }]);
    expect(ship.where).toBe('destroyed');
    expect(inner.ended).toBeNull();
    const able = battle.models.filter((m) => m.where === 'table' && !m.state.destroyed);
    expect(able.every((m) => m.activated)).toBe(true);
    expect(trace.activations.length).toBe(able.length + 1);
  });
});
