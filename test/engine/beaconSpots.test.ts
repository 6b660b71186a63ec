// Beacon zone spots are shared by every unit type and never run their zone test (GM-36: some
// of the base within 3" of an own beacon): the engine holds that the test passes for any base
// at any of them, since each spot's centre lies within 3" of its beacon. Checked here against
// the plain test, for every base of the sample fleets, beacons anywhere on tables of several sizes.
import { describe, expect, it } from 'vitest';
import type { DeploySpot } from '../../src/engine/battle/battleTypes.js';
import { MovingBase } from '../../src/engine/battle/model.js';
import { GEOM_EPSILON, pointWithin } from '../../src/engine/geometry.js';
import { Battle, rules, sampleScenario } from '../helpers/battle.js';
import { prng } from '../helpers/prng.js';

interface Inner {
  beacons: Array<{ side: 0 | 1; x: number; y: number }>;
  beaconGame: number;
  width: number;
  height: number;
  beaconSpots(bi: number): DeploySpot[];
}

describe('beacon spots', () => {
  it('lie in their zone for every base: the zone test they skip passes', () => {
    const battle = new Battle(rules('1.2.2'), sampleScenario('beacon-assault', '1.2.2'));
    const inner = battle as unknown as Inner;
    // Each base shape and size once.
    const shapes = [...new Map(battle.models.map((m) => [`${m.base.shape} ${m.base.length} ${m.base.width}`, m.base] as const)).values()];
    const rnd = prng(36);
    let checked = 0, outside = 0;
    for (let t = 0; t < 200; t++) {
      // A new game each time, so the spots are made afresh; tables up to 200" (the rounding grows with the coordinates).
      inner.beaconGame++;
      const size = [24, 48, 72, 200][t % 4];
      inner.beacons.length = 0;
      for (let k = 0; k < 8; k++) inner.beacons.push({ side: (k % 2) as 0 | 1, x: rnd() * size, y: rnd() * size });
      for (let bi = 0; bi < 8; bi++) {
        const b = inner.beacons[bi];
        const spots = inner.beaconSpots(bi);
        expect(spots.length).toBe(25);
        for (const c of spots) {
          if (c.zoneOk !== 1) outside++;
          for (const s of shapes) {
            const base = new MovingBase(s.shape, c.pose.x, c.pose.y, c.pose.heading, s.length, s.width);
            checked++;
            if (!pointWithin(b.x, b.y, base, 3 + GEOM_EPSILON)) outside++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(outside).toBe(0);
  });
});
