// Hangers (game.md GM-18, GM-32, GM-76, seed 000 deployment): Embarked deployment, Launch,
// Land on Return to Base, capacity, the loss of squadrons aboard a lost carrier, and the
// options embarked_on_captured (GM-76) and embarked_activation (GM-18).
import { describe, expect, it } from 'vitest';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { separation } from '../../../src/engine/geometry.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, cardWith, emptyTrace, handBattle, miniScenario, policiesOf, put, rules, type BattleInternals } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

const valiant = cardWith('jovian.valiant', {}); // Hangers 2
const pathfinder = cardWith('jovian.pathfinder', {});
const tengu = cardWith('unknown.tengu', {});

type Hangars = BattleInternals & {
  carrierFor(m: BattleModel): BattleModel | null;
  afterDamage(m: BattleModel): boolean;
  activationPhase(initSide: 0 | 1): void;
};

function setUp() {
  const battle = new Battle(rules('1.2.2'), miniScenario({ a: [valiant, pathfinder, pathfinder, pathfinder], b: [tengu] }));
  const inner = handBattle(battle) as Hangars;
  const [carrier, s1, s2, s3, enemy] = battle.models;
  put(carrier, 24, 10, 0);
  put(enemy, 24, 44, 180);
  return { battle, inner, carrier, s1, s2, s3, enemy };
}

describe('hangers', () => {
  it('a squadron in Return to Base within reach of its carrier lands and is Embarked; capacity is respected', () => {
    const { inner, carrier, s1, s2, s3 } = setUp();
    put(s1, 24, 16, 0);
    s1.rtb = true;
    inner.activate(s1);
    expect(s1.where).toBe('embarked');
    expect(s1.carrier).toBe(carrier);
    expect(s1.rtb).toBe(false);
    put(s2, 20, 12, 0);
    s2.rtb = true;
    inner.activate(s2);
    expect(s2.where).toBe('embarked');
    // Hangers 2: full now.
    put(s3, 28, 12, 0);
    expect(inner.carrierFor(s3)).toBeNull();
    s3.rtb = true;
    inner.activate(s3);
    expect(s3.where).toBe('table');
  });

  it('an Embarked squadron launches touching its carrier and carries on with its activation', () => {
    const { inner, carrier, s1 } = setUp();
    s1.where = 'embarked';
    s1.carrier = carrier;
    inner.activate(s1);
    expect(s1.where).toBe('table');
    expect(s1.carrier).toBeNull();
    expect(inner.trace!.activations[0].notes.some((n) => n.includes('launches from'))).toBe(true);
    // It moved on after launching: no longer exactly touching the carrier, and clear of it.
    expect(separation(s1.base, carrier.base)).toBeGreaterThan(-0.001);
  });

  it('squadrons aboard a carrier that is destroyed are destroyed with it (GM-32)', () => {
    const { inner, carrier, s1 } = setUp();
    s1.where = 'embarked';
    s1.carrier = carrier;
    carrier.state.destroyed = true;
    inner.afterDamage(carrier);
    expect(carrier.where).toBe('destroyed');
    expect(s1.where).toBe('destroyed');
    expect(s1.state.destroyed).toBe(true);
  });

  it('a policy that embarks squadrons at deployment puts them aboard, never on the table, until they launch', () => {
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: [valiant, pathfinder, pathfinder, pathfinder], b: [tengu, pathfinder] }));
    const policies = policiesOf(battle);
    policies[0].holdBack = () => ({ squadrons: 0, untilTurn: 2, embark: 2 });
    const streams = battleStreams('hangers', 'hangers');
    const trace = emptyTrace();
    battle.play(streams.dice.at(0), streams.policy.at(0), false, trace);
    const embarked = trace.deployments.filter((d) => d.turn === 1 && d.model.includes('(Embarked on A1'));
    expect(embarked).toHaveLength(2);
    // Nobody attacks a model while it is aboard: its first attack as a target comes after its launch.
    for (const e of embarked) {
      const label = e.model.split(' (')[0];
      const launch = trace.activations.findIndex((a) => a.notes.some((n) => n.startsWith(`${label} launches`)));
      const firstHit = trace.activations.findIndex((a) => a.attacks.some((x) => x.target === label));
      if (firstHit >= 0) expect(launch).toBeGreaterThanOrEqual(0);
      if (firstHit >= 0) expect(firstHit).toBeGreaterThanOrEqual(launch);
    }
    // The trace puts an Embarked squadron where its carrier is: at deployment and, in the
    // activation it launches in, as its position before (not a stale spot of its base).
    const carrierAt = trace.deployments.find((d) => d.model.startsWith('A1 '))!;
    for (const e of embarked) expect([e.x, e.y]).toEqual([carrierAt.x, carrierAt.y]);
    let launches = 0;
    for (const a of trace.activations) {
      const note = a.notes.find((n) => n.startsWith(`${a.model} launches from A1`));
      if (!note) continue;
      launches++;
      const carrierBefore = [...trace.activations.slice(0, trace.activations.indexOf(a))].reverse().find((x) => x.model.startsWith('A1 '));
      const at = carrierBefore ? carrierBefore.after : carrierAt;
      expect([a.before.x, a.before.y]).toEqual([at.x, at.y]);
    }
    expect(launches).toBeGreaterThan(0);
  });
});

/** v1.2.2: a Valiant (fleet A) with a Pathfinder aboard, and a Tengu (fleet B) far off. */
const carrierWithSquadron = (opts: string[]) => {
  const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: [valiant, pathfinder], b: [tengu] }));
  const inner = handBattle(battle) as Hangars;
  const [carrier, s1, enemy] = battle.models;
  put(carrier, 24, 10, 0);
  put(enemy, 24, 44, 180);
  s1.where = 'embarked';
  s1.carrier = carrier;
  return { battle, inner, carrier, s1, enemy };
};

describe('embarked_on_captured (GM-76)', () => {
  // The carrier is Boarded by fleet B with 3 Boarders against 0 Marines, so the fight at the
  // start of its activation captures it whatever the dice.
  const captureCarrier = (opts: string[]) => {
    const { battle, inner, carrier, s1, enemy } = carrierWithSquadron(opts);
    carrier.marines = 0;
    carrier.boarders = 3;
    carrier.boarderSide = 1;
    inner.activate(carrier);
    expect(carrier.captured).toBe(true);
    expect(carrier.side).toBe(1);
    return { battle, inner, carrier, s1, enemy };
  };

  it('DESTROYED (default): the squadron aboard is Destroyed with the capture', () => {
    const { battle, s1 } = captureCarrier([]);
    expect(s1.where).toBe('destroyed');
    expect(s1.state.destroyed).toBe(true);
    expect(battle.fate(s1)).toBe('destroyed');
    // Fleet B: its Tengu plus the captured Valiant x1.5; fleet A: nothing.
    expect(battle.victoryPoints()).toEqual([0, tengu.tv + Math.ceil(valiant.tv * 1.5)]);
  });

  it('PASS_TO_CAPTOR: the squadron stays aboard, is Captured with the ship and later launches for its captor', () => {
    const { battle, inner, carrier, s1 } = captureCarrier(['embarked_on_captured=PASS_TO_CAPTOR']);
    expect(s1.where).toBe('embarked');
    expect(s1.carrier).toBe(carrier);
    expect(s1.side).toBe(1);
    expect(s1.captured).toBe(true);
    expect(s1.activated).toBe(true); // it serves the captor from the next turn
    expect(battle.fate(s1)).toBe('captured');
    expect(inner.trace!.activations[0].notes).toContain(`${s1.label} is captured aboard ${carrier.label}`);
    expect(battle.victoryPoints()).toEqual([0, tengu.tv + Math.ceil(valiant.tv * 1.5) + Math.ceil(pathfinder.tv * 1.5)]);
    inner.activate(s1);
    expect(s1.where).toBe('table');
    expect(s1.side).toBe(1);
    expect(inner.trace!.activations[1].notes.some((n) => n.includes('launches from'))).toBe(true);
  });
});

describe('embarked_activation (GM-18)', () => {
  const aboard = carrierWithSquadron;

  it('OWN_ACTIVATION (default): the carrier\'s activation leaves the squadron aboard; it launches when it activates', () => {
    const { inner, carrier, s1 } = aboard([]);
    inner.activate(carrier);
    expect(s1.where).toBe('embarked');
    expect(s1.carrier).toBe(carrier);
    inner.activate(s1);
    expect(s1.where).toBe('table');
    expect(inner.trace!.activations[1].notes.some((n) => n === `${s1.label} launches from ${carrier.label}`)).toBe(true);
  });

  it('CARRIER_ACTIVATION: the squadron launches at the end of the carrier\'s activation, touching it where it ended, not yet activated', () => {
    const { inner, carrier, s1 } = aboard(['embarked_activation=CARRIER_ACTIVATION']);
    inner.activate(carrier);
    const rec = inner.trace!.activations[0];
    expect(rec.model).toBe(carrier.label);
    expect(rec.after.y).toBeGreaterThan(10); // the carrier moved first
    expect(rec.notes).toContain(`${s1.label} launches from ${carrier.label}`);
    expect(s1.where).toBe('table');
    expect(s1.carrier).toBeNull();
    expect(s1.activated).toBe(false);
    expect(separation(s1.base, carrier.base)).toBeCloseTo(0, 3);
    // Its own activation later in the turn is an ordinary one: no second launch.
    inner.activate(s1);
    expect(inner.trace!.activations[1].notes.some((n) => n.includes('launches'))).toBe(false);
  });

  it('CARRIER_ACTIVATION: a squadron that has already activated this turn stays aboard; one that has not launches', () => {
    const battle = new Battle(rulesFor('1.2.2', ['embarked_activation=CARRIER_ACTIVATION']), miniScenario({ a: [valiant, pathfinder, pathfinder], b: [tengu] }));
    const inner = handBattle(battle) as Hangars;
    const [carrier, s1, s2, enemy] = battle.models;
    put(carrier, 24, 10, 0);
    put(enemy, 24, 44, 180);
    for (const s of [s1, s2]) {
      s.where = 'embarked';
      s.carrier = carrier;
    }
    s1.activated = true;
    inner.activate(carrier);
    expect(s1.where).toBe('embarked');
    expect(s2.where).toBe('table');
    expect(s2.activated).toBe(false);
  });

  it('CARRIER_ACTIVATION: squadrons aboard an inert hulk (v1.2.1 Crippled carrier, which never activates) launch on their own', () => {
    for (const opts of [[], ['embarked_activation=CARRIER_ACTIVATION']]) {
      const battle = new Battle(rulesFor('1.2.1', opts), miniScenario({ a: [valiant, pathfinder], b: [tengu] }));
      const inner = handBattle(battle) as Hangars;
      const [carrier, s1, enemy] = battle.models;
      put(carrier, 24, 10, 0);
      put(enemy, 24, 44, 180);
      carrier.state.crippled = true;
      s1.where = 'embarked';
      s1.carrier = carrier;
      for (const m of battle.models) m.activated = false;
      inner.activationPhase(0);
      expect(carrier.activated, opts.join()).toBe(false);
      expect(s1.activated, opts.join()).toBe(true);
      expect(s1.where, opts.join()).toBe('table');
      expect(inner.trace!.activations.some((a) => a.model === s1.label && a.notes.includes(`${s1.label} launches from ${carrier.label}`))).toBe(true);
    }
  });

  it('CARRIER_ACTIVATION in played games: every launch happens in the carrier\'s activation, before the squadron activates that turn', () => {
    const battle = new Battle(rulesFor('1.2.2', ['embarked_activation=CARRIER_ACTIVATION']), miniScenario({ a: [valiant, pathfinder, pathfinder], b: [tengu, pathfinder] }));
    const policies = policiesOf(battle);
    policies[0].holdBack = () => ({ squadrons: 0, untilTurn: 1, embark: 2 });
    const streams = battleStreams('hangers-carrier', 'hangers');
    let launches = 0;
    for (let g = 0; g < 4; g++) {
      const trace = emptyTrace();
      battle.play(streams.dice.at(g), streams.policy.at(g), false, trace);
      expect(trace.deployments.filter((d) => d.model.includes('(Embarked on A1'))).toHaveLength(2);
      trace.activations.forEach((a, i) => {
        for (const n of a.notes) {
          const m = /^(\S+ \S+) launches from (\S+ \S+)$/.exec(n);
          if (!m) continue;
          launches++;
          expect(m[2]).toBe(a.model);
          // It did not activate earlier in that turn (it was aboard and not eligible) ...
          expect(trace.activations.slice(0, i).some((b) => b.turn === a.turn && b.model === m[1])).toBe(false);
          // ... and activates later in the same turn, unless it is destroyed first.
          const rest = trace.activations.slice(i + 1).filter((b) => b.turn === a.turn);
          const own = rest.findIndex((b) => b.model === m[1]);
          const killed = rest.findIndex((b) => b.attacks.some((x) => x.target === m[1] && x.targetAfter === 'destroyed'));
          expect(own >= 0 || killed >= 0, `${m[1]} launched in turn ${a.turn} but never activated`).toBe(true);
          if (own >= 0 && killed >= 0) expect(own).toBeLessThanOrEqual(killed); // destroyed in its own activation (a dogfight) at the latest
        }
      });
    }
    expect(launches).toBeGreaterThan(0);
  });
});

describe('the v1.2.1 Return to Base move after a Bombing Run (GM-17)', () => {
  it('heads for a friendly carrier with room and Lands on it when it can reach it', () => {
    const wraith = cardWith('unknown.wraith', {});
    const battle = new Battle(rulesFor('1.2.1'), miniScenario({ a: [valiant, wraith], b: [tengu] }));
    const inner = handBattle(battle, 'rtb-121');
    const [carrier, bomber, enemy] = battle.models;
    put(carrier, 14, 27, 0);
    put(bomber, 24, 20, 0);
    put(enemy, 24, 27, 90);
    enemy.state.defense = 0; // no point defence: the bomber survives its run
    inner.activate(bomber);
    const rec = inner.trace!.activations[0];
    expect(rec.action).toBe('bombing');
    expect(rec.attacks.length).toBeGreaterThan(0);
    expect(bomber.where).toBe('embarked');
    expect(bomber.carrier).toBe(carrier);
    expect(rec.notes).toContain(`${bomber.label} lands on ${carrier.label}`);
  });

  it('with no carrier in reach it moves towards the carrier, not the table edge', () => {
    const wraith = cardWith('unknown.wraith', {});
    const battle = new Battle(rulesFor('1.2.1'), miniScenario({ a: [valiant, wraith], b: [tengu] }));
    const inner = handBattle(battle, 'rtb-121');
    const [carrier, bomber, enemy] = battle.models;
    put(carrier, 44, 27, 0); // 20" to the side: beyond one move
    put(bomber, 24, 20, 0);
    put(enemy, 24, 27, 90);
    enemy.state.defense = 0;
    inner.activate(bomber);
    expect(inner.trace!.activations[0].action).toBe('bombing');
    expect(bomber.where).toBe('table');
    // It ended well to the carrier's side of where it bombed (x 24), not straight back.
    expect(bomber.base.x).toBeGreaterThan(30);
  });
});

describe('a ship captured at the start of its activation (GM-75)', () => {
  it('its captor completes the activation: it moves and fires at its former fleet', () => {
    const battle = new Battle(rulesFor('1.2.2'), miniScenario({ a: [valiant, tengu], b: [tengu] }));
    const inner = handBattle(battle, 'capture') as Hangars;
    const [ship, oldFriend, enemy] = battle.models;
    put(ship, 24, 10, 0);
    put(oldFriend, 24, 18, 180); // right ahead of it, in range
    put(enemy, 24, 44, 180);
    ship.marines = 0;
    ship.boarders = 3;
    ship.boarderSide = 1;
    inner.activate(ship);
    const rec = inner.trace!.activations[0];
    expect(ship.captured).toBe(true);
    expect(ship.side).toBe(1);
    expect(rec.notes).toContain(`${ship.label}: its captor completes the activation (GM-75)`);
    expect([rec.after.x, rec.after.y, rec.after.heading]).not.toEqual([24, 10, 0]);
    expect(rec.attacks.length).toBeGreaterThan(0);
    expect(rec.attacks.every((a) => a.target === oldFriend.label)).toBe(true);
  });
});
