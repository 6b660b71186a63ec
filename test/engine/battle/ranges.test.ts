// Ranges in battle (game.md §3.5, seed 001 "Attacking"): range comes from the firer's Sensors.
// The Alexander example: Sensors 3 reaches 15" against capital ships and 12" against
// squadrons, so at 13" a capital ship may be fired on and a squadron may not.
import { describe, expect, it } from 'vitest';
import { Gunnery, type AttackRecord } from '../../../src/engine/battle/gunnery.js';
import { DamageTally } from '../../../src/engine/damage.js';
import { distance } from '../../../src/engine/geometry.js';
import { longRangeMax, rangeBand } from '../../../src/engine/geometryArcs.js';
import { PlaceholderUsage } from '../../../src/engine/usage.js';
import { openStream } from '../../../src/rng/stream.js';
import { RULES_VERSION_IDS } from '../../../src/rules/registry.js';
import { Battle, card, miniScenario, placed, rules } from '../../helpers/battle.js';

describe.each(RULES_VERSION_IDS)('Alexander example, rules v%s', (version) => {
  const r = rules(version);

  it('the sample Alexander has Sensors 3', () => {
    expect(card('jovian.alexander').sensors).toBe(3);
  });

  it('Battle.maxRange: 15" against capital ships, 12" against squadrons', () => {
    const battle = new Battle(r, miniScenario({ a: ['jovian.alexander'], b: ['unknown.tengu', 'jovian.pathfinder'] }));
    const alex = battle.models.find((m) => m.unit.id === 'jovian.alexander')!;
    expect(battle.maxRange(alex, true)).toBe(15);
    expect(battle.maxRange(alex, false)).toBe(12);
    // Sensors lost to damage shrink the reach at once: 3" per point.
    alex.state.sensors = 1;
    expect(battle.maxRange(alex, true)).toBe(9);
    expect(battle.maxRange(alex, false)).toBe(6);
    alex.state.sensors = 0;
    expect(battle.maxRange(alex, true)).toBe(6);
    expect(battle.maxRange(alex, false)).toBe(3);
  });

  it('rangeBand: 13" is long range against a capital ship and out of range against a squadron', () => {
    expect(longRangeMax(r.combat, 'capital', 3)).toBe(15);
    expect(longRangeMax(r.combat, 'squadron', 3)).toBe(12);
    expect(rangeBand(r.combat, 13, 'capital', 3)).toBe('long');
    expect(rangeBand(r.combat, 13, 'squadron', 3)).toBe('out');
    // Limits are inclusive (GM-45).
    expect(rangeBand(r.combat, 15, 'capital', 3)).toBe('long');
    expect(rangeBand(r.combat, 15.01, 'capital', 3)).toBe('out');
    expect(rangeBand(r.combat, 12, 'squadron', 3)).toBe('long');
    expect(rangeBand(r.combat, 6, 'capital', 3)).toBe('short');
    expect(rangeBand(r.combat, 3, 'squadron', 3)).toBe('short');
  });

  it('on the table: the Alexander fires on a capital ship 13" away and not on a squadron 13" away', () => {
    // Alexander (2.5" long) at (24, 10) heading north: front edge at y = 11.25. A Tengu dead
    // ahead with its rear edge at 24.25 (13" away), and a squadron on the same line 13"
    // from the Alexander's edge, off to the side (the turret bears on it).
    const alex = placed(card('jovian.alexander'), 24, 10, 0, 0, 0);
    const tengu = placed(card('unknown.tengu'), 24, 25.25, 0, 1, 0);
    const sq = placed(card('jovian.pathfinder'), 10, 10, 0, 1, 1);
    // Pathfinder hex: vertices at ±1/√3 on x. Alexander's left edge is x = 23.25.
    sq.base.set(23.25 - 13 - 1 / Math.sqrt(3), 10, 0);
    expect(distance(alex.base, tengu.base)).toBeCloseTo(13, 9);
    expect(distance(alex.base, sq.base)).toBeCloseTo(13, 9);

    const gunnery = new Gunnery(r, new PlaceholderUsage(r));
    const log: AttackRecord[] = [];
    gunnery.startActivation();
    // Squadron first in the target order: it must be skipped, not fired on.
    const left = gunnery.fire(alex, [sq, tengu], 3, () => ({ flex: 0, rerolls: 0 }), openStream({ seed: 'ranges', experiment: 'alex', purpose: 'dice', chunk: 0 }), new DamageTally(), log, () => false);
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((a) => a.target === tengu.label)).toBe(true);
    expect(log.every((a) => a.band === 'long' && Math.abs(a.range - 13) < 1e-3)).toBe(true);
    expect(left).toBe(3 - log.length);

    // Move the squadron to 11.9": now the turret and missiles may fire on it.
    sq.base.set(23.25 - 11.9 - 1 / Math.sqrt(3), 10, 0);
    const log2: AttackRecord[] = [];
    gunnery.startActivation();
    gunnery.fire(alex, [sq], 3, () => ({ flex: 0, rerolls: 0 }), openStream({ seed: 'ranges', experiment: 'alex2', purpose: 'dice', chunk: 0 }), new DamageTally(), log2, () => false);
    expect(log2.length).toBeGreaterThan(0);
    expect(log2.every((a) => a.target === sq.label && a.band === 'long')).toBe(true);
    // The Particle Cannon has no AS: it never fires on a squadron.
    expect(log2.some((a) => a.weapon === 'Particle Cannon')).toBe(false);
  });
});
