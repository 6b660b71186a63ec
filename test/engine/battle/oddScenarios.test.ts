// Odd but valid situations found by stress-testing whole battles with unusual scenarios.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import { onTable, separation } from '../../../src/engine/geometry.js';
import { TrialStreams } from '../../../src/rng/stream.js';
import { Battle, cardWith, handBattle, miniScenario, put, rules } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

/** A 1.5" x 2" ship with no weapons, and a 2" x 4" one (as in overlap.test.ts). */
const small = cardWith('unknown.tengu', { id: 'test.small', weapons: [] });
const big = cardWith('unknown.poseidon', { id: 'test.big', base: { widthIn: 2, lengthIn: 4 }, weapons: [] });

describe('GM-64 last fallback: no clear spot forward or backward along the heading', () => {
  // A crowded or shallow table (found on 12" x 12" tables with many ships): the small ship A
  // overlaps the big ship B, and neither a forward nor a backward push along A's heading can
  // leave it on the table and clear. GM-64 then puts it at the legal position nearest to where
  // it was; before the fix the search tested A's old pose over and over and left it on B.
  it('the repositioned ship ends at the nearest clear spot on the table, not on top of the other ship', () => {
    const scenario = { ...miniScenario({ a: [small], b: [big] }), table: { width: 48, height: 5.5 } };
    const battle = new Battle(rules('1.2.2'), scenario);
    const inner = handBattle(battle);
    const [a, b] = battle.models;
    put(b, 10, 2.75, 90); // x 8..12, y 1.75..3.75
    put(a, 10, 2.75, 0); // x 9.25..10.75, y 1.75..3.75: forward needs y up to 5.75, backward down to -0.25
    const rec = { notes: [] as string[] };
    inner.resolveOverlaps(a, () => {}, rec);
    expect(rec.notes).toContain(`overlap with ${b.label}: ${a.label} repositioned (GM-64)`);
    expect(separation(a.base, b.base)).toBeGreaterThan(-0.001);
    expect(onTable(a.base, 48, 5.5)).toBe(true);
    expect(a.base.heading).toBe(0);
    // The nearest clear spot is beside B (2.75" from its centre line at least), not far away.
    expect(Math.hypot(a.base.x - 10, a.base.y - 2.75)).toBeLessThan(3.5);
    expect([b.base.x, b.base.y, b.base.heading]).toEqual([10, 2.75, 90]);
  });
});

describe('GM-65 push-aside with no clear spot', () => {
  // A 3" x 4.5" table almost filled by a 2" x 4" ship: an enemy squadron it overlaps has no clear
  // spot on the table, so it stays where it is, and the trace says so (it said "moved clear").
  it('the squadron stays put and the note says it found no clear spot', () => {
    const scenario = { ...miniScenario({ a: [big], b: ['cega.fury'] }), table: { width: 3, height: 4.5 } };
    const battle = new Battle(rulesFor('1.2.2', ['zone_containment=ANY_PART']), scenario);
    const inner = handBattle(battle);
    const [ship, squadron] = battle.models;
    put(ship, 1.5, 2.25, 0);
    put(squadron, 1.5, 2.25, 0);
    const rec = { notes: [] as string[] };
    inner.resolveOverlaps(ship, () => {}, rec);
    expect(rec.notes).toContain(`${squadron.label}: no clear spot within 12" of ${ship.label}, left where it was (GM-65)`);
    expect(rec.notes.some((n) => n.includes('moved clear'))).toBe(false);
    expect([squadron.base.x, squadron.base.y]).toEqual([1.5, 2.25]);
  });
});

describe('a zone that no spot of a unit fits in is refused when the battle is set up', () => {
  // strip_depth 1 (the schema's minimum) on a 48" table: a 2.5"-long capital ship deploys facing
  // the enemy edge, so no spot of the strip holds its whole base (GM-82). Before, its models
  // silently stayed In Reserve all game (each scored as a survivor under v1.2.2).
  const alexander = cardWith('jovian.alexander', {});
  const shallow = { ...miniScenario({ a: [alexander, 'jovian.pathfinder'], b: ['unknown.tengu', 'cega.fury'] }), stripDepth: 1, file: 'shallow.json' };

  it('strip zones: a UserError naming the file, deployment.strip_depth and the way out', () => {
    for (const version of ['1.2.1', '1.2.2'] as const) {
      expect(() => new Battle(rules(version), shallow)).toThrow(UserError);
      expect(() => new Battle(rules(version), shallow)).toThrow(/^shallow\.json: deployment\.strip_depth: 1" is too shallow for jovian\.alexander .*allowed: a deeper strip/);
    }
  });

  it('corner zones: a base longer than the quadrant is refused on the table field', () => {
    const long = cardWith('jovian.alexander', { id: 'test.long', base: { widthIn: 1, lengthIn: 24 } });
    const s = { ...miniScenario({ a: [long], b: ['unknown.tengu'], zone: 'corner' }), table: { width: 30, height: 30 }, file: 'corner.json' };
    expect(() => new Battle(rules('1.2.2'), s)).toThrow(/^corner\.json: table: the corner quadrants of a 30" x 30" table \(15" x 15"\) cannot hold test\.long/);
  });

  it('standard zones: a base wider than the table is refused on the table field, not the strip', () => {
    const wide = cardWith('jovian.alexander', { id: 'test.wide', base: { widthIn: 30, lengthIn: 2 } });
    const s = { ...miniScenario({ a: [wide], b: ['unknown.tengu'] }), table: { width: 24, height: 48 }, file: 'wide.json' };
    expect(() => new Battle(rules('1.2.2'), s)).toThrow(/^wide\.json: table: a 24"-wide table cannot hold test\.wide \(base 30" x 2"/);
  });

  it('the same scenario plays once the zone may hold part of a base (zone_containment=ANY_PART), and squadrons fit a 1" strip', () => {
    const b = new Battle(rulesFor('1.2.2', ['zone_containment=ANY_PART']), shallow);
    const r = b.play(new TrialStreams({ seed: 's', experiment: 'e', purpose: 'battle-dice', chunk: 0 }).at(0), new TrialStreams({ seed: 's', experiment: 'e', purpose: 'battle-policy', chunk: 0 }).at(0), false);
    expect(r.activations).toBeGreaterThan(0);
    expect(b.models.every((m) => m.deployedTurn > 0)).toBe(true);
    const squadrons = { ...miniScenario({ a: ['jovian.pathfinder'], b: ['cega.fury'] }), stripDepth: 1 };
    expect(() => new Battle(rules('1.2.2'), squadrons)).not.toThrow();
  });
});
