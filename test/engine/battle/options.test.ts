// Battle interpretation options (src/rules/interpretations.ts): each one switched away from
// its default changes exactly the behaviour it names — pivot point (GM-55), squadron contact
// under v1.2.2 (GM-14), zone containment (GM-82), Fleet Deployment order (GM-85), reserve
// scoring (GM-31), VP rounding (GM-94), the table edge (GM-15), attacks while Withdrawing
// (GM-16), Crippled ships and the v1.2.1 immediate end (GM-52), the capital-ship Boost minimum
// (GM-56), Boost and squadron Fire Control (GM-60), the Station Keep target bonus (GM-63),
// where later reserves may embark (GM-86), when the boarded fight happens (GM-20) and the
// squadron base shape (GM-45). The
// hangers options (GM-18, GM-76) are tested in hangers.test.ts.
import { describe, expect, it } from 'vitest';
import { battleRules } from '../../../src/engine/battle/battleRules.js';
import type { Battle as BattleT } from '../../../src/engine/battle/game.js';
import { MovingBase, type BattleModel } from '../../../src/engine/battle/model.js';
import { followCapitalMove, legalEnd, type Pose } from '../../../src/engine/battle/movement.js';
import { distance, onTable, separation } from '../../../src/engine/geometry.js';
import { boostFactor } from '../../../src/policies/shared.js';
import type { MoveOption } from '../../../src/policies/types.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, card, cardWith, emptyTrace, handBattle, miniScenario, placed, policiesOf, put, sampleScenario, type BattleInternals } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

const brWith = (v: RulesVersionId, ...opts: string[]) => battleRules(rulesFor(v, opts));
const R = Math.SQRT1_2;

describe('pivot_point (GM-55)', () => {
  // Tengu: a 2" x 1.5" base at (10, 10), heading 0, turning 45° to starboard in place.
  const turnInPlace = (centre: boolean): Pose => {
    const m = placed(card('unknown.tengu'), 10, 10, 0);
    const out: Pose = { x: 0, y: 0, heading: 0 };
    const r = followCapitalMove(m, { x: 10, y: 10, heading: 0 }, { pre: 0, turn1: 45, mid: 0, turn2: 0, post: 0 }, 48, 48, out, centre);
    expect(r).toEqual({ travelled: 0, clamped: false });
    return out;
  };

  it('CENTRE: the centre stays at (10, 10), heading 45', () => {
    const p = turnInPlace(true);
    expect(p.x).toBeCloseTo(10, 12);
    expect(p.y).toBeCloseTo(10, 12);
    expect(p.heading).toBeCloseTo(45, 12);
  });

  it('FRONT_CORNER: the centre swings about the front-starboard corner (10.75, 11)', () => {
    // Centre - corner = (-0.75, -1), rotated 45° clockwise: (-1.75·√½, 0.25·... ) → (10.75 - 1.75√½, 11 - 0.25√½).
    const p = turnInPlace(false);
    expect(p.x).toBeCloseTo(10.75 - 1.75 * R, 9);
    expect(p.y).toBeCloseTo(11 - 0.25 * R, 9);
    expect(p.x).toBeCloseTo(9.512563, 5);
    expect(p.y).toBeCloseTo(10.823223, 5);
    expect(p.heading).toBeCloseTo(45, 12);
  });

  it('the option reaches the Battle: battleRules flag, and the moves the engine offers', () => {
    expect(brWith('1.2.2').pivotOnCentre).toBe(false);
    expect(brWith('1.2.2', 'pivot_point=CENTRE').pivotOnCentre).toBe(true);
    const endOfTurnThen = (opts: string[]) => {
      const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
      const inner = handBattle(battle);
      const m = put(battle.models[0], 24, 20, 0);
      // Tengu v1.2.2: Speed 8, Thrusters 3: 5"-11"; the move "pivot 45° starboard, then 5"".
      const tier = inner.moveTiers(m, false)[0];
      const opt = tier.find((o) => o.travelled === 5 && Math.abs(o.pose.heading - 45) < 1e-9 && o.pose.x > 24 + 3);
      expect(opt).toBeDefined();
      return opt!.pose;
    };
    const centre = endOfTurnThen(['pivot_point=CENTRE']);
    expect(centre.x).toBeCloseTo(24 + 5 * R, 9);
    expect(centre.y).toBeCloseTo(20 + 5 * R, 9);
    const corner = endOfTurnThen([]);
    expect(corner.x).toBeCloseTo(24 + 0.75 - 1.75 * R + 5 * R, 9);
    expect(corner.y).toBeCloseTo(20 + 1 - 0.25 * R + 5 * R, 9);
  });
});

describe('squadron_contact_122 (GM-14)', () => {
  // Capital ship (Tengu) at (10, 10) heading 0: front edge y = 11. A squadron hex centred
  // (10, 11.5) touches it (separation 0); at (10, 11.2) it overlaps by 0.3".
  const cap = () => placed(card('unknown.tengu'), 10, 10, 0, 1, 0);
  const sqd = (x: number, y: number, side: 0 | 1 = 0, index = 1) => placed(card('jovian.pathfinder'), x, y, 0, side, index);
  const at = (x: number, y: number): Pose => ({ x, y, heading: 0 });

  it('ALLOW_TOUCH under v1.2.2: a squadron may end exactly touching a capital ship or another squadron, never overlapping', () => {
    const br = brWith('1.2.2', 'squadron_contact_122=ALLOW_TOUCH');
    expect(br.squadronTouch).toBe(true);
    const c = cap();
    const s = sqd(30, 30);
    expect(legalEnd(br, s, at(10, 11.5), [c, s], 48, 48)).toBe(true);
    expect(legalEnd(br, s, at(10, 11.2), [c, s], 48, 48)).toBe(false);
    const enemy = sqd(20, 20, 1, 2);
    expect(legalEnd(br, s, at(20, 21), [enemy, s], 48, 48)).toBe(true); // flats touching
    expect(legalEnd(br, s, at(20, 20.8), [enemy, s], 48, 48)).toBe(false);
  });

  it('NO_TOUCH (default) under v1.2.2 rejects the same touching ends', () => {
    const br = brWith('1.2.2');
    expect(br.squadronTouch).toBe(false);
    const c = cap();
    const s = sqd(30, 30);
    expect(legalEnd(br, s, at(10, 11.5), [c, s], 48, 48)).toBe(false);
    expect(legalEnd(br, s, at(20, 21), [sqd(20, 20, 1, 2), s], 48, 48)).toBe(false);
    expect(legalEnd(br, s, at(10, 11.52), [c, s], 48, 48)).toBe(true);
  });

  it('ALLOW_TOUCH does not lift v1.2.1\'s 1" spacing from capital ships', () => {
    const br = brWith('1.2.1', 'squadron_contact_122=ALLOW_TOUCH');
    const c = cap();
    const s = sqd(30, 30);
    expect(legalEnd(br, s, at(10, 11.5), [c, s], 48, 48)).toBe(false);
    expect(legalEnd(br, s, at(10, 12.5), [c, s], 48, 48)).toBe(true);
  });

  it('ALLOW_TOUCH is idle under v1.2.1: a squadron still may not end touching a friendly squadron', () => {
    const br = brWith('1.2.1', 'squadron_contact_122=ALLOW_TOUCH');
    expect(br.squadronTouch).toBe(false);
    const s = sqd(30, 30);
    const friend = sqd(20, 20, 0, 2);
    expect(legalEnd(br, s, at(20, 21), [friend, s], 48, 48)).toBe(false); // flats touching
    expect(legalEnd(br, s, at(20, 21.02), [friend, s], 48, 48)).toBe(true);
  });

  it('capital ships are unaffected: touching another capital ship stays illegal', () => {
    const br = brWith('1.2.2', 'squadron_contact_122=ALLOW_TOUCH');
    const c = cap();
    const other = placed(card('unknown.tengu'), 30, 30, 0, 0, 2);
    expect(legalEnd(br, other, at(10, 12), [c, other], 48, 48)).toBe(false);
  });
});

describe('zone_containment (GM-82)', () => {
  // The Initiative side's strip: x 0..48, y 0..12. A Tengu (2" long) centred at y = 11.5
  // heading 0 spans y 10.5..12.5: half an inch outside the strip.
  const zoneCheck = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const base = (y: number) => new MovingBase('rect', 24, y, 0, 2, 1.5);
    return { inside: inner.inZoneRect(base(10.9), 0, 0, 48, 12), partly: inner.inZoneRect(base(11.5), 0, 0, 48, 12), outside: inner.inZoneRect(base(13.5), 0, 0, 48, 12) };
  };

  it('WHOLE_BASE (default): the part-outside spot is refused', () => {
    expect(zoneCheck([])).toEqual({ inside: true, partly: false, outside: false });
  });

  it('ANY_PART: the part-outside spot is accepted, a spot wholly outside is not', () => {
    expect(zoneCheck(['zone_containment=ANY_PART'])).toEqual({ inside: true, partly: true, outside: false });
  });
});

describe('fleet_deploy_capitals (GM-85)', () => {
  // Three capital ships a side, Initiative to side a, no mirror: the trace lists deployments in order.
  const order = (v: RulesVersionId, opts: string[]): string => {
    const s = miniScenario({ a: ['unknown.tengu', 'unknown.tengu', 'unknown.tengu'], b: ['unknown.syrtis', 'unknown.syrtis', 'unknown.syrtis'], turns: 1 });
    const battle = new Battle(rulesFor(v, opts), s);
    const streams = battleStreams('options', s.id);
    const trace = emptyTrace();
    battle.play(streams.dice.at(0), streams.policy.at(0), false, trace);
    return trace.deployments.map((d) => d.model[0]).join('');
  };

  it('BLOCK under v1.2.2: all of the Initiative side\'s capital ships, then all of the other side\'s', () => {
    expect(order('1.2.2', ['fleet_deploy_capitals=BLOCK'])).toBe('AAABBB');
  });

  it('VERSION under v1.2.2 alternates one at a time', () => {
    expect(order('1.2.2', [])).toBe('ABABAB');
  });

  it('ALTERNATE_ONE under v1.2.1 alternates; VERSION under v1.2.1 deploys in blocks', () => {
    expect(order('1.2.1', ['fleet_deploy_capitals=ALTERNATE_ONE'])).toBe('ABABAB');
    expect(order('1.2.1', [])).toBe('AAABBB');
  });

  it('the option orders capital ships only: squadrons follow the version (v1.2.1 blocks, v1.2.2 alternating)', () => {
    // Two ships and two squadrons a side.
    const withSquadrons = (v: RulesVersionId, opts: string[]): string => {
      const s = miniScenario({ a: ['unknown.tengu', 'unknown.tengu', 'jovian.pathfinder', 'jovian.pathfinder'], b: ['unknown.syrtis', 'unknown.syrtis', 'cega.uller', 'cega.uller'], turns: 1 });
      const battle = new Battle(rulesFor(v, opts), s);
      const streams = battleStreams('options', s.id);
      const trace = emptyTrace();
      battle.play(streams.dice.at(0), streams.policy.at(0), false, trace);
      return trace.deployments.map((d) => d.model[0]).join('');
    };
    expect(withSquadrons('1.2.2', ['fleet_deploy_capitals=BLOCK'])).toBe('AABBABAB');
    expect(withSquadrons('1.2.1', ['fleet_deploy_capitals=ALTERNATE_ONE'])).toBe('ABABAABB');
    expect(withSquadrons('1.2.1', [])).toBe('AABBAABB');
    expect(withSquadrons('1.2.2', [])).toBe('ABABABAB');
  });
});

describe('reserve_vp (GM-31) and vp_rounding (GM-94)', () => {
  const ship = (tv: number) => cardWith('unknown.tengu', { tv, id: `test.ship-${tv}` });
  const squadron = (tv: number) => cardWith('jovian.pathfinder', { tv, id: `test.squadron-${tv}` });

  /** Fleet A: a 40-TV ship on the table, a 29-TV squadron In Reserve, a 45-TV squadron Withdrawn; fleet B: a 50-TV ship. */
  const vpOf = (v: RulesVersionId, opts: string[]): [number, number] => {
    const battle: BattleT = new Battle(rulesFor(v, opts), miniScenario({ a: [ship(40), squadron(29), squadron(45)], b: [ship(50)] }));
    handBattle(battle);
    const [a1, a2, a3, b1] = battle.models;
    put(a1, 10, 10);
    a2.where = 'reserve';
    a3.where = 'withdrawn';
    put(b1, 30, 30);
    return battle.victoryPoints();
  };

  it('v1.2.2 defaults: In Reserve at full TV, Withdrawn 22.5 rounded up to 23', () => {
    expect(vpOf('1.2.2', [])).toEqual([40 + 29 + 23, 50]);
  });

  it('reserve_vp=NONE: the model In Reserve scores nothing', () => {
    expect(vpOf('1.2.2', ['reserve_vp=NONE'])).toEqual([40 + 0 + 23, 50]);
  });

  it('vp_rounding=NONE: the Withdrawn 45-TV squadron scores 22.5', () => {
    expect(vpOf('1.2.2', ['vp_rounding=NONE'])).toEqual([40 + 29 + 22.5, 50]);
    expect(vpOf('1.2.2', ['vp_rounding=NONE', 'reserve_vp=NONE'])).toEqual([40 + 22.5, 50]);
  });

  it('v1.2.1 (VP from enemy losses): the Withdrawn squadron gives the enemy 23, or 22.5 unrounded', () => {
    expect(vpOf('1.2.1', [])).toEqual([0, 23]);
    expect(vpOf('1.2.1', ['vp_rounding=NONE'])).toEqual([0, 22.5]);
  });
});

describe('offtable_rule (GM-15)', () => {
  // v1.2.1 Tengu (Speed 8: minimum 4"), Thrusters 0 so no turn, at (24, 46.5) heading 0: its front
  // edge is at y = 47.5, half an inch from the far edge, so every move it may make runs off the
  // table (MV-16): the normal ones (4"-8") and the Station Keeping ones (2" and 4"). A friendly
  // Tengu touches its rear (centre (24, 44.5)), so holding position (Station Keeping, 0") is not
  // a legal end either.
  const setUp = (opts: string[], y: number) => {
    const battle = new Battle(rulesFor('1.2.1', opts), miniScenario({ a: ['unknown.tengu', 'unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const [m, friend, enemy] = battle.models;
    put(m, 24, y, 0);
    put(friend, 24, y - 2, 0);
    put(enemy, 4, 4, 90);
    m.state.thrusters = 0;
    inner.activate(m);
    return { m, trace: inner.trace! };
  };
  const runOff = (opts: string[]) => setUp(opts, 46.5);

  it('CLAMP (default): it stops with its front edge on y = 48, centre (24, 47), still on the table', () => {
    const { m, trace } = runOff([]);
    expect(m.where).toBe('table');
    expect(m.state.destroyed).toBe(false);
    expect(m.base.x).toBeCloseTo(24, 9);
    // onTable allows GEOM_EPSILON (0.001") past the edge; the bisection lands within it.
    expect(Math.abs(m.base.y - 47)).toBeLessThan(0.002);
    expect(m.base.heading).toBe(0);
    expect(onTable(m.base, 48, 48)).toBe(true);
    expect(trace.activations).toHaveLength(1);
    expect(trace.activations[0].notes.some((n) => n.includes('left the table'))).toBe(false);
  });

  it('WITHDRAWN: it leaves the table as Withdrawn, not destroyed', () => {
    const { m, trace } = runOff(['offtable_rule=WITHDRAWN']);
    expect(m.where).toBe('withdrawn');
    expect(m.state.destroyed).toBe(false);
    expect(trace.activations[0].notes).toContain('left the table: withdrawn (GM-15 offtable_rule)');
  });

  it('DESTROYED: it leaves the table as Destroyed', () => {
    const { m, trace } = runOff(['offtable_rule=DESTROYED']);
    expect(m.where).toBe('destroyed');
    expect(m.state.destroyed).toBe(true);
    expect(trace.activations[0].notes).toContain('left the table: destroyed (GM-15 offtable_rule)');
  });

  it('with room for a full legal move, WITHDRAWN changes nothing: the ship stays on the table', () => {
    const { m, trace } = setUp(['offtable_rule=WITHDRAWN'], 30);
    expect(m.where).toBe('table');
    // Below the 4" minimum only when it declared Station Keeping.
    expect(m.base.y - 30).toBeGreaterThanOrEqual((trace.activations[0].action === 'station_keep' ? 0 : 4) - 1e-9);
    expect(m.base.y - 30).toBeLessThanOrEqual(8 + 1e-9);
  });
});

describe('squadron_base_shape (GM-45)', () => {
  // A Pathfinder squadron at (10, 10) and a Tengu (2" x 1.5", heading 0) at (13, 10): the
  // Tengu's near side is x = 12.25. A hex reaches x = 10 + 1/sqrt(3) along the x axis; a 1"
  // disc reaches x = 10.5.
  const placedPair = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['jovian.pathfinder'], b: ['unknown.tengu'] }));
    const [sq, ship] = battle.models;
    put(sq, 10, 10, 0);
    put(ship, 13, 10, 0);
    return { sq, ship };
  };

  it('HEX (default): the squadron is a hexagon, 2.25 - 1/sqrt(3) from the Tengu', () => {
    const { sq, ship } = placedPair([]);
    expect(sq.base.shape).toBe('hex');
    expect(sq.reach).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(distance(sq.base, ship.base)).toBeCloseTo(2.25 - 1 / Math.sqrt(3), 12);
  });

  it('CIRCLE: the squadron is a 1" disc, 1.75" from the Tengu; capital ships keep their rectangles', () => {
    const { sq, ship } = placedPair(['squadron_base_shape=CIRCLE']);
    expect(sq.base.shape).toBe('circle');
    expect(sq.reach).toBe(0.5);
    expect(ship.base.shape).toBe('rect');
    expect(distance(sq.base, ship.base)).toBeCloseTo(1.75, 12);
  });

  it('CIRCLE: whole games keep every base on the table and apart', () => {
    const scenario = sampleScenario('standard-engagement', '1.2.2');
    const battle = new Battle(rulesFor('1.2.2', ['squadron_base_shape=CIRCLE']), scenario);
    const streams = battleStreams('circle-bases', scenario.id);
    let squadronsSeen = 0;
    for (let g = 0; g < 20; g++) {
      const r = battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1);
      expect(r.turns).toBeGreaterThanOrEqual(1);
      const table = battle.models.filter((m) => m.where === 'table');
      for (const m of table) {
        expect(onTable(m.base, 48, 48)).toBe(true);
        if (!m.unit.isCapital) {
          expect(m.base.shape).toBe('circle');
          squadronsSeen++;
        }
      }
      for (let i = 0; i < table.length; i++) {
        for (let j = i + 1; j < table.length; j++) {
          if (table[i].assaulting === table[j] || table[j].assaulting === table[i]) continue;
          expect(separation(table[i].base, table[j].base)).toBeGreaterThan(-0.001);
        }
      }
    }
    expect(squadronsSeen).toBeGreaterThan(0);
  });

  it('the option reaches BattleRules', () => {
    expect(brWith('1.2.2').squadronBase).toBe('hex');
    expect(brWith('1.2.1', 'squadron_base_shape=CIRCLE').squadronBase).toBe('circle');
  });
});

describe('withdraw_allows_attacks (GM-16)', () => {
  // v1.2.2 Tengu (5"-11") at (24, 6) heading 180, facing its own edge y = 0, declares Withdraw;
  // an enemy Tengu stands at (28, 9), in reach of its Mass Driver Turret.
  const withdrawWith = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const policies = policiesOf(battle);
    policies[0].wants = (_v, _m, a) => a === 'withdraw';
    const [m, enemy] = battle.models;
    put(m, 24, 6, 180);
    put(enemy, 28, 9, 0);
    inner.activate(m);
    return { m, enemy, rec: inner.trace!.activations[0] };
  };

  it('NO (default): it leaves as Withdrawn without firing', () => {
    const { m, enemy, rec } = withdrawWith([]);
    expect(m.where).toBe('withdrawn');
    expect(rec.action).toBe('withdraw');
    expect(rec.attacks).toHaveLength(0);
    expect(rec.fired).toBe('none');
    expect(enemy.state.structure).toBe(3);
  });

  it('YES: it fires at the enemy from its starting position, then leaves as Withdrawn', () => {
    const { m, rec } = withdrawWith(['withdraw_allows_attacks=YES']);
    expect(m.where).toBe('withdrawn');
    expect(rec.action).toBe('withdraw');
    expect(rec.fired).toBe('before-move');
    expect(rec.attacks.length).toBeGreaterThanOrEqual(1);
    expect(rec.attacks.length).toBeLessThanOrEqual(3); // Fire Control 3
    for (const a of rec.attacks) {
      expect(a.attacker).toBe('A1 unknown.tengu');
      expect(a.target).toBe('B1 unknown.tengu');
      expect(a.window).toBe(0);
    }
    // Measured from (24, 6), where the bases are hypot(2.5, 1) apart; from its end at (24, 1)
    // they would be hypot(2.5, 6) = 6.5" apart, beyond short range.
    expect(rec.attacks[0].range).toBeCloseTo(Math.hypot(2.5, 1), 3);
    expect(rec.attacks[0].band).toBe('short');
    expect(rec.after).toEqual({ x: 24, y: 1, heading: 180 });
  });

  it('the option reaches BattleRules', () => {
    expect(brWith('1.2.2').withdrawAttacks).toBe(false);
    expect(brWith('1.2.1', 'withdraw_allows_attacks=YES').withdrawAttacks).toBe(true);
  });
});

describe('crippled_counts_as_lost (GM-52)', () => {
  // v1.2.1, no objectives: fleet A has two Tengus, one already Destroyed, and the other is
  // now Crippled (Structure 0); fleet B's Tengu is untouched.
  const afterCrippling = (v: RulesVersionId, opts: string[]) => {
    const battle = new Battle(rulesFor(v, opts), miniScenario({ a: ['unknown.tengu', 'unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle) as BattleInternals & { afterDamage(m: BattleModel): boolean; ended: string | null };
    const [gone, last, enemy] = battle.models;
    gone.where = 'destroyed';
    gone.state.destroyed = true;
    put(last, 10, 10);
    put(enemy, 30, 30);
    last.state.structure = 0;
    last.state.crippled = true;
    return { ends: inner.afterDamage(last), ended: inner.ended };
  };

  it('NO (default): a Crippled ship is still a capital ship of its fleet, so the game goes on', () => {
    expect(afterCrippling('1.2.1', [])).toEqual({ ends: false, ended: null });
  });

  it('YES: the Crippled ship counts as lost and the v1.2.1 game ends at once', () => {
    expect(afterCrippling('1.2.1', ['crippled_counts_as_lost=YES'])).toEqual({ ends: true, ended: 'fleet A has no capital ship left (turn 1; v1.2.1: the game ends at once)' });
  });

  it('YES changes nothing where the version has no immediate end (v1.2.2)', () => {
    expect(afterCrippling('1.2.2', ['crippled_counts_as_lost=YES'])).toEqual({ ends: false, ended: null });
  });
});

describe('boost_min_move (GM-56)', () => {
  // v1.2.1 Tengu, Speed 8, Thrusters 3, at (24, 4) heading 0 with the only enemy 42" away (out
  // of reach at normal Speed, so the engine offers Boost). Boosted Speed: 16".
  const boostDistances = (opts: string[]): number[] => {
    const battle = new Battle(rulesFor('1.2.1', opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const [m, enemy] = battle.models;
    put(m, 24, 4, 0);
    put(enemy, 24, 46, 180);
    const boosts = inner.moveTiers(m, false)[0].filter((o) => o.action === 'boost');
    expect(boosts.length).toBeGreaterThan(0);
    return [...new Set(boosts.map((o) => Math.round(o.travelled * 1000) / 1000))].sort((a, b) => a - b);
  };

  it('HALF_BOOSTED (default): boosted moves run from 8" (half of 16") to 16"', () => {
    expect(boostDistances([])).toEqual([8, 12, 16]);
  });

  it('HALF_PRINTED: boosted moves may be as short as 4" (half the printed 8")', () => {
    expect(boostDistances(['boost_min_move=HALF_PRINTED'])).toEqual([4, 10, 16]);
  });
});

describe('cap_boost_mode (GM-09)', () => {
  // The same Tengu (Speed 8, Thrusters 3) and far enemy as above.
  const boosts = (version: RulesVersionId, opts: string[]): number[] => {
    const battle = new Battle(rulesFor(version, opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const [m, enemy] = battle.models;
    put(m, 24, 4, 0);
    put(enemy, 24, 46, 180);
    const list = inner.moveTiers(m, false)[0].filter((o) => o.action === 'boost');
    return [...new Set(list.map((o) => Math.round(o.travelled * 1000) / 1000))].sort((a, b) => a - b);
  };

  it('VERSION (default): v1.2.1 boosts, v1.2.2 does not', () => {
    expect(boosts('1.2.1', [])).toEqual([8, 12, 16]);
    expect(boosts('1.2.2', [])).toEqual([]);
  });

  it('DOUBLE_SPEED_HALF_FC under v1.2.2: Speed doubled inside Speed +/- Thrusters: 13" to 19"', () => {
    expect(boosts('1.2.2', ['cap_boost_mode=DOUBLE_SPEED_HALF_FC'])).toEqual([13, 16, 19]);
  });

  it('V121_DOUBLE_SPEED under v1.2.2: as v1.2.1, 8" to 16"; DISABLED under v1.2.1: none', () => {
    expect(boosts('1.2.2', ['cap_boost_mode=V121_DOUBLE_SPEED'])).toEqual([8, 12, 16]);
    expect(boosts('1.2.1', ['cap_boost_mode=DISABLED'])).toEqual([]);
  });
});

describe('boarding_pd_repel (PDRepel121) and bombing_pd_drive_off (NoDriveOff122)', () => {
  it('map to the procedures\' rules: the raid\'s repel, and the bombing drive-off', () => {
    expect(battleRules(rulesFor('1.2.1')).boarding.pdRepels).toBe(true);
    expect(battleRules(rulesFor('1.2.1', ['boarding_pd_repel=CASUALTIES_ONLY'])).boarding.pdRepels).toBe(false);
    expect(battleRules(rulesFor('1.2.2')).boarding.pdRepels).toBe(false);
    expect(battleRules(rulesFor('1.2.2')).strike.pdDrivesOff).toBe(false);
    expect(battleRules(rulesFor('1.2.2', ['bombing_pd_drive_off=T_PLUS'])).strike.pdDrivesOff).toBe(true);
  });
});

describe('boost_halves_fc (GM-60)', () => {
  // v1.2.2 Pathfinder (Speed 10, Fire Control 2, two weapons) at (24, 4); the enemy Pathfinder
  // at (24, 30) is out of reach at normal Speed, so the policy (forced here) takes a Boost that
  // ends at long range, 8.5" from it, where both of its weapons bear.
  const boostAndFire = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['jovian.pathfinder'], b: ['jovian.pathfinder'] }));
    const inner = handBattle(battle);
    const policies = policiesOf(battle);
    policies[0].pickMove = (_v, _m, o, legal) => ({ index: o.findIndex((x, i) => x.action === 'boost' && legal(i)), fireBefore: false });
    const [m, enemy] = battle.models;
    put(m, 24, 4, 0);
    put(enemy, 24, 30, 180);
    inner.activate(m);
    return { battle, m, rec: inner.trace!.activations[0] };
  };

  it('ALL (default): the boosting squadron fires once (Fire Control 2 halved)', () => {
    const { battle, m, rec } = boostAndFire([]);
    expect(rec.action).toBe('boost');
    expect(rec.after.y).toBeCloseTo(20.5, 3);
    expect(rec.attacks).toHaveLength(1);
    expect(rec.attacks[0].range).toBeCloseTo(8.5, 3);
    expect(battle.boostHalvesFc(m)).toBe(true);
  });

  it('CAPITAL_ONLY: the boosting squadron keeps Fire Control 2 and fires both weapons', () => {
    const { battle, m, rec } = boostAndFire(['boost_halves_fc=CAPITAL_ONLY']);
    expect(rec.action).toBe('boost');
    expect(rec.after.y).toBeCloseTo(20.5, 3);
    expect(rec.attacks.map((a) => a.weapon).sort()).toEqual(['Beam Projector', 'Missiles']);
    expect(battle.boostHalvesFc(m)).toBe(false);
  });

  it('CAPITAL_ONLY still halves a capital ship\'s Fire Control; the policies see the same rule', () => {
    const battle = new Battle(rulesFor('1.2.1', ['boost_halves_fc=CAPITAL_ONLY']), miniScenario({ a: ['unknown.tengu', 'jovian.pathfinder'], b: ['unknown.tengu'] }));
    const [ship, squadron] = battle.models;
    expect(battle.boostHalvesFc(ship)).toBe(true);
    const boost: MoveOption = { pose: { x: 0, y: 0, heading: 0 }, action: 'boost', travelled: 10, fuel: 1 };
    const plain: MoveOption = { pose: { x: 0, y: 0, heading: 0 }, action: 'none', travelled: 10 };
    expect(boostFactor(battle, ship, boost)).toBe(0.5);
    expect(boostFactor(battle, squadron, boost)).toBe(1);
    expect(boostFactor(battle, squadron, plain)).toBe(1);
    const byDefault = new Battle(rulesFor('1.2.1', []), miniScenario({ a: ['jovian.pathfinder'], b: ['unknown.tengu'] }));
    expect(boostFactor(byDefault, byDefault.models[0], boost)).toBe(0.5);
  });
});

describe('Boost halves a capital ship\'s Fire Control, rounded up (game.md §6.4; combat.md TV-13)', () => {
  // v1.2.1 Tengu (Speed 8) at (24, 4) heading north, every weapon line made a turret so that all
  // three bear; the enemy Tengu at (24, 32) is beyond Speed + range (about 25.5"), so the engine
  // offers Boost. The policy takes the straight 16" Boost: it ends at (24, 20), 12" from the
  // enemy, in range of all three weapons. The enemy gets 9 Structure so that no attack can end
  // the fire early.
  const boostedAttacks = (fireControl: number, action: 'boost' | 'none' = 'boost') => {
    const tengu = card('unknown.tengu');
    const turrets = cardWith('unknown.tengu', { fireControl, weapons: tengu.weapons.map((w) => ({ ...w, arcs: ['T'] as const })) });
    const battle = new Battle(rulesFor('1.2.1'), miniScenario({ a: [turrets], b: [cardWith('unknown.tengu', { structure: 9 })] }));
    const inner = handBattle(battle, `tv13-${fireControl}`);
    const policies = policiesOf(battle);
    policies[0].wants = () => false; // no extra action (Concentrated Fire, ...) on top of the move
    policies[0].pickMove = (_v, _m, o, legal) => ({
      index: o.findIndex((x, i) => x.action === action && x.pose.heading === 0 && Math.abs(x.travelled - (action === 'boost' ? 16 : 8)) < 1e-6 && legal(i)),
      fireBefore: false,
    });
    const [m, enemy] = battle.models;
    put(m, 24, action === 'boost' ? 4 : 12, 0);
    put(enemy, 24, 32, 180);
    inner.activate(m);
    const rec = inner.trace!.activations[0];
    expect(rec.action).toBe(action);
    expect(rec.after.y).toBeCloseTo(20, 3);
    return rec.attacks.length;
  };

  it('TV-13: Fire Control 3 boosted is 1.5, rounded up to 2: two attacks although three weapons bear [v1.2.1]', () => {
    expect(boostedAttacks(3)).toBe(2);
  });

  it('the yardstick: from the same end position without a Boost the ship makes all three attacks', () => {
    expect(boostedAttacks(3, 'none')).toBe(3);
  });

  it('rounding is up, not down: Fire Control 5 boosted gives 3 attacks, Fire Control 1 gives 1', () => {
    expect(boostedAttacks(5)).toBe(3);
    expect(boostedAttacks(1)).toBe(1);
  });
});

describe('station_keep_target_flex (GM-63)', () => {
  // A Tengu at (24, 10) fires at an enemy Tengu 6" ahead that declared Station Keep this turn;
  // the Flex dice the engine hands the gunnery for that target are recorded (the policy
  // declares nothing, so no Concentrated Fire Flex is mixed in).
  /** The Flex dice the engine hands the gunnery for each fire of `att` at `tgt` (when given), in order. */
  const recordFlex = (battle: BattleT, att: BattleModel | null = null, tgt: BattleModel | null = null): number[] => {
    const gunnery = (battle as unknown as { gunnery: { fire(...args: unknown[]): number } }).gunnery;
    const seen: number[] = [];
    const fire = gunnery.fire.bind(gunnery);
    gunnery.fire = (a, order, fc, modsFor, ...rest) => {
      if (!att || a === att) for (const t of order as BattleModel[]) if (!tgt || t === tgt) seen.push((modsFor as (t: BattleModel) => { flex: number })(t).flex);
      return fire(a, order, fc, modsFor, ...rest);
    };
    return seen;
  };

  const flexOnTarget = (v: RulesVersionId, opts: string[], keeping = true): number[] => {
    const battle = new Battle(rulesFor(v, opts), miniScenario({ a: ['unknown.tengu'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const policies = policiesOf(battle);
    policies[0].wants = () => false;
    const seen = recordFlex(battle);
    const [m, enemy] = battle.models;
    put(m, 24, 10, 0);
    put(enemy, 24, 16, 0);
    enemy.stationKeeping = keeping;
    inner.activate(m);
    expect(inner.trace!.activations[0].attacks.length).toBeGreaterThan(0);
    return seen;
  };

  it('VERSION (default): +1 Flex under v1.2.2, none under v1.2.1; none on a ship not Station Keeping', () => {
    expect(flexOnTarget('1.2.2', [])).toEqual([1]);
    expect(flexOnTarget('1.2.1', [])).toEqual([0]);
    expect(flexOnTarget('1.2.2', [], false)).toEqual([0]);
  });

  it('NONE: no Flex under v1.2.2; ONE: +1 Flex under v1.2.1', () => {
    expect(flexOnTarget('1.2.2', ['station_keep_target_flex=NONE'])).toEqual([0]);
    expect(flexOnTarget('1.2.1', ['station_keep_target_flex=ONE'])).toEqual([1]);
    expect(flexOnTarget('1.2.1', ['station_keep_target_flex=ONE'], false)).toEqual([0]);
  });

  // Every Attack Window: a Pathfinder squadron at (24, 13) bombs the Station Keeping Tengu at
  // (24, 16); the Flex of each of its bombing attacks on the ship is recorded.
  const bombingFlex = (v: RulesVersionId, opts: string[]): number[] => {
    const battle = new Battle(rulesFor(v, opts), miniScenario({ a: ['jovian.pathfinder'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle);
    const policies = policiesOf(battle);
    policies[0].wants = (_v, _m, a) => a === 'bombing';
    policies[1].wants = () => false;
    const [sq, ship] = battle.models;
    const seen = recordFlex(battle, sq, ship);
    put(sq, 24, 13, 0);
    put(ship, 24, 16, 0);
    ship.stationKeeping = true;
    inner.activate(sq);
    expect(inner.trace!.activations[0].action).toBe('bombing');
    return seen;
  };

  it('the bonus reaches the squadrons\' attack windows too (bombing): +1 under v1.2.2, none with NONE', () => {
    const v122 = bombingFlex('1.2.2', []);
    expect(v122.length).toBeGreaterThan(0);
    expect(new Set(v122)).toEqual(new Set([1]));
    const none = bombingFlex('1.2.2', ['station_keep_target_flex=NONE']);
    expect(none.length).toBeGreaterThan(0);
    expect(new Set(none)).toEqual(new Set([0]));
  });

  it('the option reaches BattleRules', () => {
    expect(brWith('1.2.1').stationKeepFlex).toBe(0);
    expect(brWith('1.2.2').stationKeepFlex).toBe(1);
    expect(brWith('1.2.2', 'station_keep_target_flex=NONE').stationKeepFlex).toBe(0);
    expect(brWith('1.2.1', 'station_keep_target_flex=ONE').stationKeepFlex).toBe(1);
  });
});

describe('reserve_embark_rule (GM-86)', () => {
  // v1.2.2 Fleet Deployment, fleet A: a Valiant (Hangers 2) already on the table and a
  // Pathfinder In Reserve whose policy wants one squadron Embarked. A's zone is the strip
  // y 0..12. The Deployment Phase of turn `turn` brings the Pathfinder in.
  const deployReserve = (opts: string[], carrierY: number, turn = 2) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['jovian.valiant', 'jovian.pathfinder'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle) as BattleInternals & { deploymentPhase(turn: number, initSide: 0 | 1): void };
    const policies = policiesOf(battle);
    policies[0].holdBack = () => ({ squadrons: 0, untilTurn: 1, embark: 1 });
    const [carrier, squadron, enemy] = battle.models;
    put(carrier, 24, carrierY, 0);
    put(enemy, 24, 44, 180);
    inner.turn = turn;
    inner.deploymentPhase(turn, 0);
    return { where: squadron.where, aboard: squadron.carrier === carrier, y: squadron.base.y };
  };

  it('CARRIER_IN_ZONE (default): Embarked on the carrier inside the zone; on the table when the carrier has left it', () => {
    expect(deployReserve([], 6)).toMatchObject({ where: 'embarked', aboard: true });
    const r = deployReserve([], 30);
    expect(r).toMatchObject({ where: 'table', aboard: false });
    expect(r.y).toBeLessThanOrEqual(12);
  });

  it('ANY_CARRIER: Embarked on the carrier even though it stands outside the zone', () => {
    expect(deployReserve(['reserve_embark_rule=ANY_CARRIER'], 30)).toMatchObject({ where: 'embarked', aboard: true });
  });

  it('TABLE_ONLY: on the table in the zone even with a carrier in the zone; the first phase may still embark', () => {
    const r = deployReserve(['reserve_embark_rule=TABLE_ONLY'], 6);
    expect(r).toMatchObject({ where: 'table', aboard: false });
    expect(r.y).toBeLessThanOrEqual(12);
    expect(deployReserve(['reserve_embark_rule=TABLE_ONLY'], 6, 1)).toMatchObject({ where: 'embarked', aboard: true });
  });
});

describe('boarding_combat_timing (GM-20)', () => {
  // v1.2.2: fleet A's Valiant is Boarded by 3 of fleet B's marines and has 0 Marines left, so
  // the fight aboard captures it whatever the dice. The enemy Tengu stands far off.
  const boarded = (opts: string[]) => {
    const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: ['jovian.valiant'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle) as BattleInternals & { endPhase(turn: number, op: [number, number]): void };
    const [ship, enemy] = battle.models;
    put(ship, 24, 10, 0);
    put(enemy, 24, 44, 180);
    ship.marines = 0;
    ship.boarders = 3;
    ship.boarderSide = 1;
    return { battle, inner, ship };
  };

  it('START_OF_TARGET_ACTIVATION (default): captured at the start of its activation, before it moves, and the captor moves it (GM-75); the End Phase holds no fight', () => {
    const { inner, ship } = boarded([]);
    inner.activate(ship);
    expect(ship.captured).toBe(true);
    expect(ship.side).toBe(1);
    const rec = inner.trace!.activations[0];
    const captured = rec.notes.indexOf('A1 jovian.valiant is captured by fleet B');
    expect(captured).toBeGreaterThanOrEqual(0);
    expect(rec.notes.indexOf('A1 jovian.valiant: its captor completes the activation (GM-75)')).toBeGreaterThan(captured);
    expect(rec.after).not.toEqual(rec.before);
    inner.endPhase(1, [0, 0]);
    expect(inner.trace!.endPhases[0].notes).toBeUndefined();
  });

  it('END_PHASE: the ship makes its whole activation for its owner; the fight and the capture come in the End Phase', () => {
    const { inner, ship } = boarded(['boarding_combat_timing=END_PHASE']);
    inner.activate(ship);
    expect(ship.captured).toBe(false);
    expect(ship.side).toBe(0);
    expect(ship.boarders).toBe(3);
    const rec = inner.trace!.activations[0];
    expect(rec.after.y).toBeGreaterThan(rec.before.y); // it moved
    expect(rec.notes.some((n) => n.startsWith('fight aboard'))).toBe(false);
    inner.endPhase(1, [0, 0]);
    expect(ship.captured).toBe(true);
    expect(ship.side).toBe(1);
    expect(ship.boarders).toBe(0);
    const notes = inner.trace!.endPhases[0].notes!;
    expect(notes[0]).toMatch(/^fight aboard A1 jovian\.valiant: 3 Boarders .*, 0 Marines \[N\] → 3 Boarders, 0 Marines$/);
    expect(notes).toContain('A1 jovian.valiant is captured by fleet B');
  });

  it('END_PHASE: a Boarded ship that is not on the table does not fight; one on the table in the same End Phase does', () => {
    const battle = new Battle(rulesFor('1.2.2', ['boarding_combat_timing=END_PHASE']), miniScenario({ a: ['jovian.valiant', 'jovian.valiant'], b: ['unknown.tengu'] }));
    const inner = handBattle(battle) as BattleInternals & { endPhase(turn: number, op: [number, number]): void };
    const [gone, here, enemy] = battle.models;
    put(gone, 24, 10, 0);
    put(here, 30, 10, 0);
    put(enemy, 24, 44, 180);
    for (const ship of [gone, here]) {
      ship.marines = 0;
      ship.boarders = 3;
      ship.boarderSide = 1;
    }
    gone.where = 'withdrawn';
    inner.endPhase(1, [0, 0]);
    expect(gone.captured).toBe(false);
    expect(gone.boarders).toBe(3);
    expect(here.captured).toBe(true);
    const notes = inner.trace!.endPhases[0].notes!;
    expect(notes.some((n) => n.startsWith(`fight aboard ${here.label}`))).toBe(true);
    expect(notes.some((n) => n.includes(gone.label))).toBe(false);
  });
});
