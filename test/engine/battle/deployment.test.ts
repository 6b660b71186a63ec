// Deployment (game.md §4.3, §12.1, §12.2; GM-35, GM-36, GM-81..GM-87): whole games of the
// sample scenarios, checked from their traces. Zones: standard strips, corner quadrants and
// beacons; types: Fleet Deployment (v1.2.2 alternating, v1.2.1 in blocks) and Escalating.
import { describe, expect, it } from 'vitest';
import type { GameResult, Trace } from '../../../src/engine/battle/game.js';
import { MovingBase, type BattleModel } from '../../../src/engine/battle/model.js';
import { GEOM_EPSILON, baseInRect, pointDistance } from '../../../src/engine/geometry.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, rules, sampleScenario, type SampleScenario } from '../../helpers/battle.js';

/** Trace poses are rounded to 0.001". */
const TOL = 0.003;

interface Played {
  battle: Battle;
  trace: Trace;
  result: GameResult;
  byLabel: Map<string, BattleModel>;
  /** Table position of the fleet holding Initiative. */
  initSide: 0 | 1;
}

function playGames(version: RulesVersionId, scenario: Scenario, games: number, seed = 'deployment'): Played[] {
  const battle = new Battle(rules(version), scenario);
  const streams = battleStreams(seed, scenario.id);
  const out: Played[] = [];
  for (let g = 0; g < games; g++) {
    const trace = emptyTrace();
    const result = battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1, trace);
    // Table positions at deployment: by fleet and mirroring (a later capture changes m.side).
    const mirrored = g % 2 === 1;
    const sideOf = (fleet: number) => ((mirrored ? 1 - fleet : fleet) as 0 | 1);
    const initSide = sideOf(result.initiative);
    // The Battle object is reused by the next game: keep a copy of each model's per-game
    // fields (its side), sharing the card and the base shape.
    const byLabel = new Map(battle.models.map((m) => [m.label, { ...m, unit: m.unit, base: m.base, side: sideOf(m.fleet) } as BattleModel] as const));
    out.push({ battle, trace, result, byLabel, initSide });
  }
  return out;
}

/** Table position of the fleet a trace names ("A" or "B"). */
function positionOf(p: Played, fleet: string): 0 | 1 {
  const f = fleet === 'A' ? 0 : 1;
  return [...p.byLabel.values()].find((m) => m.fleet === f)!.side;
}

function sample(name: SampleScenario, version: RulesVersionId, games: number): Played[] {
  return playGames(version, sampleScenario(name, version), games);
}

/** The model's base at a traced pose. */
function baseAtTrace(m: BattleModel, d: { x: number; y: number; heading: number }): MovingBase {
  return new MovingBase(m.base.shape, d.x, d.y, d.heading, m.base.length, m.base.width);
}

function deployed(p: Played) {
  return p.trace.deployments.map((d) => {
    const m = p.byLabel.get(d.model);
    expect(m, `deployment of an unknown model: ${d.model}`).toBeDefined();
    return { d, m: m!, base: baseAtTrace(m!, d) };
  });
}

function commonChecks(p: Played): void {
  // Every model is deployed exactly once, and never with "no legal spot".
  const labels = p.trace.deployments.map((d) => d.model);
  expect(labels.every((l) => p.byLabel.has(l))).toBe(true);
  expect(new Set(labels).size).toBe(labels.length);
  expect(labels.length).toBe(p.battle.models.length);
  // The Initiative player deploys first (§4.3).
  expect(p.byLabel.get(labels[0])!.side).toBe(p.initSide);
  expect(p.trace.initiative.startsWith(p.result.initiative === 0 ? 'A' : 'B')).toBe(true);
}

describe.each(['1.2.2', '1.2.1'] as const)('standard zones (standard-engagement), v%s', (version) => {
  const games = sample('standard-engagement', version, 6);

  it('every model deploys with its whole base in its strip: the Initiative side in y 0..12, the other in y 36..48 (GM-81)', () => {
    for (const p of games) {
      commonChecks(p);
      for (const { m, base, d } of deployed(p)) {
        const inStrip = m.side === p.initSide ? baseInRect(base, 0, 0, 48, 12, TOL) : baseInRect(base, 0, 36, 48, 48, TOL);
        expect(inStrip, `${d.model} (position ${m.side}) at ${d.x}, ${d.y}`).toBe(true);
        expect(d.turn).toBe(1);
      }
    }
  });

  it('Fleet Deployment order: all capital ships before any squadron, Initiative first', () => {
    for (const p of games) {
      const seq = p.trace.deployments.map((d) => p.byLabel.get(d.model)!);
      const firstSquadron = seq.findIndex((m) => !m.unit.isCapital);
      expect(seq.slice(firstSquadron).every((m) => !m.unit.isCapital)).toBe(true);
      const caps = seq.slice(0, firstSquadron);
      const squads = seq.slice(firstSquadron);
      if (version === '1.2.2') {
        // GM-85: one capital ship at a time, alternating while both have some left.
        const n = Math.min(caps.filter((m) => m.side === 0).length, caps.filter((m) => m.side === 1).length);
        for (let i = 0; i < 2 * n; i++) expect(caps[i].side).toBe(i % 2 === 0 ? p.initSide : 1 - p.initSide);
        expect(squads[0].side).toBe(p.initSide);
      } else {
        // §12.1: the Attacker's capital ships, the Defender's, then squadrons likewise.
        const sides = (list: BattleModel[]) => list.map((m) => m.side).join('');
        const other = 1 - p.initSide;
        const blocks = (l: BattleModel[]) => `${l.filter((m) => m.side === p.initSide).map(() => p.initSide).join('')}${l.filter((m) => m.side === other).map(() => other).join('')}`;
        expect(sides(caps)).toBe(blocks(caps));
        expect(sides(squads)).toBe(blocks(squads));
      }
    }
  });
});

describe('GM-81 / GM-84: the Initiative player takes the y = 0 strip and the origin quadrant', () => {
  // scenarios/battles/README.md and game.md §12.2 both put the Initiative player at y = 0.
  for (const [name, zone] of [['standard-engagement', 'standard'], ['corner-escalation', 'corner']] as const) {
    it(`${zone}: with Initiative fixed to side b, side b deploys at the origin edge/quadrant`, () => {
      const s: Scenario = { ...sampleScenario(name, '1.2.2'), initiative: 'b' };
      for (const p of playGames('1.2.2', s, 2)) {
        for (const { m, base, d } of deployed(p)) {
          if (m.fleet !== p.result.initiative) continue;
          const inOrigin = zone === 'standard' ? baseInRect(base, 0, 0, 48, 12, TOL) : baseInRect(base, 0, 0, 24, 24, TOL);
          expect(inOrigin, `Initiative fleet's ${d.model} at ${d.x}, ${d.y}`).toBe(true);
        }
      }
    });
  }
});

describe('corner zones with Escalating Deployment (corner-escalation, v1.2.2)', () => {
  const games = sample('corner-escalation', '1.2.2', 6);

  it('diagonally opposite quadrants: the Initiative side in [0,24]², the other in [24,48]² (GM-84)', () => {
    for (const p of games) {
      commonChecks(p);
      for (const { m, base, d } of deployed(p)) {
        const inQ = m.side === p.initSide ? baseInRect(base, 0, 0, 24, 24, TOL) : baseInRect(base, 24, 24, 48, 48, TOL);
        expect(inQ, `${d.model} (position ${m.side}) at ${d.x}, ${d.y}, heading ${d.heading}`).toBe(true);
      }
    }
  });

  it('turn 1 deploys exactly one capital ship and two squadrons per side; the rest come later', () => {
    for (const p of games) {
      const first = p.trace.deployments.filter((d) => d.turn === 1).map((d) => p.byLabel.get(d.model)!);
      for (const side of [0, 1] as const) {
        const mine = first.filter((m) => m.side === side);
        expect(mine.filter((m) => m.unit.isCapital)).toHaveLength(1);
        expect(mine.filter((m) => !m.unit.isCapital)).toHaveLength(2);
      }
      // Step 1 (capital ships, Initiative first) before step 2 (squadrons, Initiative first).
      expect(first.map((m) => (m.unit.isCapital ? 'C' : 'S')).join('')).toBe('CCSSSS');
      expect(first[0].side).toBe(p.initSide);
      expect(first[2].side).toBe(p.initSide);
      expect(p.trace.deployments.filter((d) => d.turn > 1).length).toBe(p.battle.models.length - 6);
      // Nothing deploys before its turn's activations: a model's first activation is on or after its deployment turn.
      const deployedTurn = new Map(p.trace.deployments.map((d) => [d.model, d.turn] as const));
      for (const a of p.trace.activations) expect(a.turn).toBeGreaterThanOrEqual(deployedTurn.get(a.model)!);
    }
  });

  it('v1.2.1 rejects Escalating Deployment (GM-95) with a UserError', async () => {
    const { UserError } = await import('../../../src/errors.js');
    const s = sampleScenario('corner-escalation', '1.2.1');
    expect(() => new Battle(rules('1.2.1'), s)).toThrow(UserError);
    expect(() => new Battle(rules('1.2.1'), s)).toThrow(/Escalating Deployment.*GM-95/);
  });
});

describe.each(['1.2.2', '1.2.1'] as const)('beacon zones (beacon-assault), v%s', (version) => {
  const games = sample('beacon-assault', version, 6);

  it('eight beacons, four per side, placed alternately from the Initiative side, pairwise at least 12" apart, on the table', () => {
    for (const p of games) {
      const bs = p.trace.beacons;
      expect(bs).toHaveLength(8);
      const pos = (s: string) => positionOf(p, s);
      bs.forEach((b, k) => expect(pos(b.side)).toBe(k % 2 === 0 ? p.initSide : 1 - p.initSide));
      for (const b of bs) {
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x).toBeLessThanOrEqual(48);
        expect(b.y).toBeGreaterThanOrEqual(0);
        expect(b.y).toBeLessThanOrEqual(48);
      }
      for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) expect(Math.hypot(bs[i].x - bs[j].x, bs[i].y - bs[j].y)).toBeGreaterThanOrEqual(12 - GEOM_EPSILON - TOL);
    }
  });

  it('every model deploys within 3" of one of its own side\'s beacons (GM-36), wholly on the table', () => {
    for (const p of games) {
      commonChecks(p);
      for (const { m, base, d } of deployed(p)) {
        const own = p.trace.beacons.filter((b) => positionOf(p, b.side) === m.side);
        const near = Math.min(...own.map((b) => pointDistance(b.x, b.y, base)));
        expect(near, `${d.model} at ${d.x}, ${d.y}`).toBeLessThanOrEqual(3 + GEOM_EPSILON + TOL);
        expect(baseInRect(base, 0, 0, 48, 48, TOL)).toBe(true);
      }
    }
  });

  it('after the first Deployment Phase each beacon has a model of its side within 3" (GM-83)', () => {
    for (const p of games) {
      const first = deployed(p).filter((x) => x.d.turn === 1);
      for (const b of p.trace.beacons) {
        const side = positionOf(p, b.side);
        // Both sample fleets have at least four models, so every beacon can be covered.
        expect(p.battle.models.filter((m) => m.side === side).length).toBeGreaterThanOrEqual(4);
        const covered = first.some(({ m, base }) => m.side === side && pointDistance(b.x, b.y, base) <= 3 + GEOM_EPSILON + TOL);
        expect(covered, `beacon ${b.side} at ${b.x}, ${b.y}`).toBe(true);
      }
    }
  });
});
