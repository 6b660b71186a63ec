// Squadron rules inside battles: Boost and Fuel (game.md §6.4, §6.5, GM-13, GM-60, GM-61,
// GM-09) and ramming by squadrons (§8.3, §8.4), through hand-built activations and whole games.
import { describe, expect, it } from 'vitest';
import { applyRuleAssignments, DEFAULT_INTERPRETATIONS } from '../../../src/rules/interpretations.js';
import { compileRules } from '../../../src/rules/compile.js';
import { getRulesVersion } from '../../../src/rules/registry.js';
import { separation } from '../../../src/engine/geometry.js';
import { Battle, cardWith, handBattle, miniScenario, put, rules, sampleScenario, watchShots, type BattleInternals } from '../../helpers/battle.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { emptyTrace } from '../../helpers/battle.js';

const pathfinder = cardWith('jovian.pathfinder', {}); // Speed 10, Fuel 3
const tengu = cardWith('unknown.tengu', {});

describe('Boost and Fuel', () => {
  it('a squadron with no enemy in reach is offered Boost moves beyond its Speed, up to x3 with 2 Fuel', () => {
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: [pathfinder], b: [tengu] }));
    const inner = handBattle(battle);
    const [sq, ship] = battle.models;
    put(sq, 24, 4, 0);
    put(ship, 24, 46, 180);
    const tiers = inner.moveTiers(sq, false);
    const boosts = tiers[0].filter((o) => o.action === 'boost');
    expect(boosts.length).toBeGreaterThan(0);
    const far = Math.max(...boosts.map((o) => o.travelled));
    expect(far).toBeGreaterThan(20); // more than x2 Speed: only the 2-Fuel Boost reaches
    expect(far).toBeLessThanOrEqual(30 + 1e-9);
    for (const o of tiers[0]) expect(o.travelled <= 10 + 1e-9 || o.action === 'boost').toBe(true);
  });

  it('with an enemy in reach, or crippled, or out of Fuel, no Boost is offered', () => {
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: [pathfinder], b: [tengu] }));
    const inner = handBattle(battle);
    const [sq, ship] = battle.models;
    put(sq, 24, 20, 0);
    put(ship, 24, 30, 180);
    expect(inner.moveTiers(sq, false)[0].some((o) => o.action === 'boost')).toBe(false);
    put(ship, 24, 46, 180);
    sq.fuel = 0;
    expect(inner.moveTiers(sq, false)[0].some((o) => o.action === 'boost')).toBe(false);
    sq.fuel = 3;
    sq.state.crippled = true;
    expect(inner.moveTiers(sq, false)[0].some((o) => o.action === 'boost')).toBe(false);
  });

  it('capital ships Boost only under v1.2.1 (GM-09): Speed doubled, minimum the printed Speed (GM-56)', () => {
    for (const [version, expected] of [['1.2.1', true], ['1.2.2', false]] as const) {
      const battle = new Battle(rules(version), miniScenario({ a: [tengu], b: [tengu] }));
      const inner = handBattle(battle);
      const [a, b] = battle.models;
      put(a, 24, 4, 0);
      put(b, 24, 46, 180);
      const boosts = inner.moveTiers(a, false)[0].filter((o) => o.action === 'boost');
      expect(boosts.length > 0).toBe(expected);
      if (expected) {
        const straight = boosts.filter((o) => o.pose.heading === 0).map((o) => o.travelled);
        expect(Math.min(...straight)).toBeCloseTo(8, 9); // Tengu Speed 8: half of 16
        expect(Math.max(...straight)).toBeCloseTo(16, 9);
      }
    }
  });

  it('Fuel spent on Boost comes back at the end of the activation (default) or in the End Phase (fuel_refill=END_PHASE)', () => {
    for (const [option, after] of [['END_OF_OWN_ACTIVATION', 3], ['END_PHASE', null]] as const) {
      const r = compileRules(getRulesVersion('1.2.2'), applyRuleAssignments([`fuel_refill=${option}`], DEFAULT_INTERPRETATIONS));
      const battle = new Battle(r, miniScenario({ a: [pathfinder], b: [tengu] }));
      const inner = handBattle(battle);
      const [sq, ship] = battle.models;
      put(sq, 24, 4, 0);
      put(ship, 24, 46, 180);
      inner.activate(sq);
      const act = inner.trace!.activations[0];
      expect(act.action).toBe('boost'); // aggressive, 42" from the enemy: it boosts to close in
      if (after !== null) expect(sq.fuel).toBe(after);
      else {
        expect(sq.fuel).toBeLessThan(3);
        (inner as unknown as { endPhase(turn: number, op: [number, number]): void }).endPhase(1, [0, 0]);
        expect(sq.fuel).toBe(3);
      }
    }
  });

  it('in whole games, a boosting model never attacks more than half its Fire Control (rounded up), and Fuel stays in 0..printed', () => {
    let boosts = 0;
    for (const version of ['1.2.1', '1.2.2'] as const) {
      const scenario = sampleScenario('standard-engagement', version);
      const battle = new Battle(rules(version), scenario);
      const streams = battleStreams('squadrons', scenario.id);
      for (let g = 0; g < 6; g++) {
        const trace = emptyTrace();
        battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1, trace);
        for (const a of trace.activations) {
          if (a.action !== 'boost') continue;
          boosts++;
          const m = battle.models.find((x) => x.label === a.model)!;
          expect(a.attacks.length).toBeLessThanOrEqual(Math.ceil(m.unit.fireControl / 2));
        }
        for (const m of battle.models) {
          expect(m.fuel).toBeGreaterThanOrEqual(0);
          expect(m.fuel).toBeLessThanOrEqual(m.unit.isCapital ? 0 : m.unit.fuel);
        }
      }
    }
    expect(boosts).toBeGreaterThan(0);
  });
});

describe('squadron rams (§8.3, §8.4)', () => {
  function setUp(targetId: string) {
    const target = cardWith(targetId, {});
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: [pathfinder], b: [target] }));
    const inner = handBattle(battle) as BattleInternals & { ramOption(m: unknown): { target: unknown; pose: { x: number; y: number } } | null };
    const [sq, tgt] = battle.models;
    put(sq, 24, 20, 0);
    put(tgt, 24, 26, 180);
    sq.state.structure = 1;
    return { battle, inner, sq, tgt };
  }

  it('a squadron at 1 Structure finds an enemy within its Speed and moves straight into base contact', () => {
    for (const id of ['unknown.tengu', 'cega.wyvern']) {
      const { inner, sq, tgt } = setUp(id);
      const o = inner.ramOption(sq);
      expect(o?.target).toBe(tgt);
      expect(o!.pose.x).toBeCloseTo(24, 9);
      sq.base.set(o!.pose.x, o!.pose.y, 0);
      expect(Math.abs(separation(sq.base, tgt.base))).toBeLessThan(0.002);
    }
  });

  it('no ram above 1 Structure or beyond its Speed', () => {
    const { inner, sq, tgt } = setUp('unknown.tengu');
    sq.state.structure = 2;
    expect(inner.ramOption(sq)).toBeNull();
    sq.state.structure = 1;
    put(tgt, 24, 40, 180);
    expect(inner.ramOption(sq)).toBeNull();
  });

  it('an aggressive squadron that rams is destroyed whatever the dice, and the trace records the ram', () => {
    for (let seed = 0; seed < 6; seed++) {
      const { battle, sq, tgt } = setUp('unknown.tengu');
      const inner = handBattle(battle, `ram-${seed}`);
      put(sq, 24, 20, 0);
      put(tgt, 24, 26, 180);
      sq.state.structure = 1;
      inner.activate(sq);
      const act = inner.trace!.activations[0];
      expect(act.action).toBe('ram');
      expect(['rammed', 'failed', 'shot-down']).toContain(act.ram!.result);
      expect(sq.where).toBe('destroyed');
      expect(Math.abs(separation(sq.base, tgt.base))).toBeLessThan(0.002);
    }
  });
});

describe('Exo-Armor boarding (v1.2.1 Boarding Party, INTERPRETATION ExoBoard121)', () => {
  function boardOnce(version: '1.2.1' | '1.2.2', seed: string) {
    const battle = new Battle(rules(version), miniScenario({ a: [pathfinder], b: [tengu] }));
    const inner = handBattle(battle, seed);
    const [sq, ship] = battle.models;
    put(sq, 24, 20, 0);
    put(ship, 24, 26, 180);
    inner.activate(sq);
    return { sq, ship, act: inner.trace!.activations[0] };
  }

  it('v1.2.1: an aggressive Exo-Armor in reach boards: point defence, then attacks in their own window, then it heads home', () => {
    let attacked = 0;
    for (let k = 0; k < 8; k++) {
      const { sq, ship, act } = boardOnce('1.2.1', `exo-${k}`);
      expect(act.action).toBe('board');
      expect(act.notes).toContain(`${sq.label} boards ${ship.label} (Exo-Armor)`);
      for (const a of act.attacks) {
        expect(a.attacker).toBe(sq.label);
        expect(a.target).toBe(ship.label);
        expect(a.window).toBeGreaterThan(0);
      }
      attacked += act.attacks.length;
      if (!sq.state.destroyed) expect(sq.base.y).toBeLessThan(25); // the Return to Base move takes it away from the ship
    }
    expect(attacked).toBeGreaterThan(0);
  });

  it('v1.2.1: like an Assault, the boarding window gives +1 Flex, no Belt and no missile defence', () => {
    const battle = new Battle(rules('1.2.1'), miniScenario({ a: [pathfinder], b: [tengu] }));
    const inner = handBattle(battle, 'exo-missiles');
    const [sq, ship] = battle.models;
    put(sq, 24, 20, 0);
    put(ship, 24, 26, 180);
    const plans: Array<{ cls: string; flex: number; defence: unknown }> = [];
    watchShots(battle, (plan, _w, _t, mods) => {
      if (mods.window === 'boarding') plans.push({ cls: plan.weapon.cls, flex: plan.pool.flex, defence: plan.defence });
    });
    inner.activate(sq);
    expect(inner.trace!.activations[0].action).toBe('board');
    expect(plans.some((p) => p.cls === 'missile')).toBe(true);
    expect(ship.unit.defense).toBeGreaterThan(0);
    for (const p of plans) {
      expect(p.flex).toBe(1);
      expect(p.defence).toBeNull();
    }
  });

  it('v1.2.2: squadrons never board; an Exo-Armor assaults instead', () => {
    const { act } = boardOnce('1.2.2', 'exo-122');
    expect(act.action).toBe('assault');
  });
});

describe('the free move after a dogfight (v1.2.1 §7.5; GM-72)', () => {
  /** The activations of real sample games in which an interceptor made its free move. */
  const freeMoveActivations = (version: '1.2.1' | '1.2.2', games: number) => {
    const scenario = sampleScenario('standard-engagement', version);
    const battle = new Battle(rules(version), scenario);
    const streams = battleStreams('free-move', scenario.id);
    const out: ReturnType<typeof emptyTrace>['activations'] = [];
    for (let g = 0; g < games; g++) {
      const trace = emptyTrace();
      battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1, trace);
      for (const a of trace.activations) if (a.notes.some((n) => n === `${a.model} makes its free move after the dogfight`)) out.push(a);
    }
    return out;
  };

  it('survivors of an interception they started may move again, without attacking, and it happens in real games', () => {
    const acts = freeMoveActivations('1.2.1', 8);
    expect(acts.length).toBeGreaterThan(0);
    for (const a of acts) {
      expect(a.action).toBe('intercept');
      expect(a.attacks.filter((x) => x.window === 0)).toHaveLength(0); // dogfight windows only
    }
  });

  it('v1.2.2: after its free move the interceptor carries on with its own Attack Window (GM-72)', () => {
    const acts = freeMoveActivations('1.2.2', 12);
    expect(acts.length).toBeGreaterThan(0);
    let ownWindow = 0;
    for (const a of acts) {
      expect(a.action).toBe('intercept');
      const own = a.attacks.filter((x) => x.window === 0);
      // Its own attacks come after every dogfight attack, and are made by the interceptor.
      if (own.length) {
        ownWindow++;
        expect(a.attacks.findIndex((x) => x.window === 0)).toBeGreaterThanOrEqual(a.attacks.length - own.length);
        expect(own.every((x) => x.attacker === a.model)).toBe(true);
        expect(a.fired).toBe('after-move');
      }
    }
    expect(ownWindow).toBeGreaterThan(0);
  });
});
