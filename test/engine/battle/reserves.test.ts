// Squadrons held In Reserve by policy parameters (sides.X.policy.params hold_squadrons and
// hold_until; game.md §12.1 "kept back in reserve", GM-86) under Fleet Deployment, and how a
// model still In Reserve at the end scores (GM-31 reserve_vp, v1.2.2).
import { describe, expect, it } from 'vitest';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, miniScenario } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

const A_FLEET = ['unknown.tengu', 'jovian.pathfinder', 'cega.wyvern', 'cega.uller', 'cega.fury'];
const B_FLEET = ['unknown.tengu', 'venus.ryu'];

function holding(squadrons: number, until: number, turns: number): Scenario {
  const s = miniScenario({ a: A_FLEET, b: B_FLEET, turns });
  return { ...s, sides: [{ ...s.sides[0], policy: { name: 'aggressive', params: { hold_squadrons: squadrons, hold_until: until } } }, s.sides[1]] };
}

describe.each(['1.2.2', '1.2.1'] as const)('hold_squadrons=2, hold_until=3 under Fleet Deployment, v%s', (version: RulesVersionId) => {
  it("fleet A's last two squadrons deploy in turn 3's Deployment Phase, everything else in turn 1", () => {
    const s = holding(2, 3, 3);
    const battle = new Battle(rulesFor(version), s);
    const streams = battleStreams('reserves', s.id);
    for (let g = 0; g < 2; g++) {
      const trace = emptyTrace();
      battle.play(streams.dice.at(g), streams.policy.at(g), g === 1, trace);
      const turnOf = new Map(trace.deployments.map((d) => [d.model, d.turn] as const));
      expect(trace.deployments).toHaveLength(battle.models.length);
      for (const m of battle.models) {
        const held = m.fleet === 0 && (m.index === 3 || m.index === 4);
        expect(turnOf.get(m.label), m.label).toBe(held ? 3 : 1);
      }
      // They deploy before any activation of turn 3, and none of them is activated earlier.
      const held = ['A4 cega.uller', 'A5 cega.fury'];
      for (const a of trace.activations) if (held.includes(a.model)) expect(a.turn).toBe(3);
    }
  });
});

describe('a model still In Reserve at the end (v1.2.2 scoring, GM-31)', () => {
  // Hold two squadrons until turn 50 in a 2-turn game: Uller (20 TV) and Fury (19 TV) never deploy.
  const s = holding(2, 50, 2);
  const play = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), s);
    const streams = battleStreams('reserves-vp', s.id);
    const out = [];
    for (let g = 0; g < 3; g++) {
      const trace = emptyTrace();
      const result = battle.play(streams.dice.at(g), streams.policy.at(g), false, trace);
      out.push({ result, trace, fates: battle.models.map((m) => battle.fate(m)) });
    }
    return out;
  };

  it('the held squadrons stay In Reserve: never in the deployments, fate "reserve"', () => {
    for (const g of play([])) {
      expect(g.trace.deployments.map((d) => d.model)).not.toContain('A4 cega.uller');
      expect(g.trace.deployments.map((d) => d.model)).not.toContain('A5 cega.fury');
      expect(g.fates.slice(3, 5)).toEqual(['reserve', 'reserve']);
      // Still In Reserve counts as surviving TV.
      expect(g.result.survivingTv[0]).toBeGreaterThanOrEqual(20 + 19);
    }
  });

  it('reserve_vp=FULL scores them at full TV, NONE at nothing: the same games differ by exactly 39 VP for fleet A', () => {
    const full = play([]);
    const none = play(['reserve_vp=NONE']);
    for (let g = 0; g < full.length; g++) {
      expect(none[g].trace).toEqual(full[g].trace);
      expect(full[g].result.vp[0] - none[g].result.vp[0]).toBe(20 + 19);
      expect(full[g].result.vp[1]).toBe(none[g].result.vp[1]);
    }
  });
});

describe('holding back never breaks a mandatory deployment', () => {
  const heldAll = (zone: 'standard' | 'beacon', deployment: 'fleet' | 'escalating'): Scenario => {
    const s = miniScenario({ a: ['unknown.tengu', 'jovian.pathfinder', 'cega.wyvern', 'cega.uller', 'cega.fury'], b: B_FLEET, turns: 3, zone, deployment });
    return { ...s, sides: [{ ...s.sides[0], policy: { name: 'aggressive', params: { hold_squadrons: 4, hold_until: 3 } } }, s.sides[1]] };
  };
  const turnOneSquadrons = (s: Scenario): number[] => {
    const battle = new Battle(rulesFor('1.2.2'), s);
    const streams = battleStreams('mandatory', s.id);
    const out: number[] = [];
    for (let g = 0; g < 3; g++) {
      const trace = emptyTrace();
      battle.play(streams.dice.at(g), streams.policy.at(g), false, trace);
      out.push(trace.deployments.filter((d) => d.turn === 1 && d.model.startsWith('A') && !d.model.includes('tengu')).length);
    }
    return out;
  };

  it('Escalating Deployment: the first phase\'s two squadrons are deployed even when the policy holds all four back (GM-87)', () => {
    expect(turnOneSquadrons(heldAll('standard', 'escalating'))).toEqual([2, 2, 2]);
  });

  it('Beacon zone, Fleet Deployment: squadrons held back still come in until every own beacon is covered (GM-83)', () => {
    // One capital ship covers one of the four beacons; three squadrons cover the rest, the fourth stays back.
    expect(turnOneSquadrons(heldAll('beacon', 'fleet'))).toEqual([3, 3, 3]);
  });

  it('Standard zone, Fleet Deployment: the hold-back is honoured (nothing forces them in)', () => {
    expect(turnOneSquadrons(heldAll('standard', 'fleet'))).toEqual([0, 0, 0]);
  });
});
