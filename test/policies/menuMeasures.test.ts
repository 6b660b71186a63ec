// menuMeasures writes the numbers nearestEnemyDistances and objectiveValues write (one pass for
// three near enemies and up to two markers), and those are nearestEnemyDistance and objectiveValue
// per option; firstLegal asks `legal` in best-first order (ties to the lower index) either way.
import { describe, expect, it } from 'vitest';
import type { BattleModel } from '../../src/engine/battle/model.js';
import type { MoveOption, PolicyView } from '../../src/policies/types.js';
import { firstLegal, menuMeasures, nearestEnemyDistance, nearestEnemyDistances, objectiveValue, objectiveValues } from '../../src/policies/shared.js';
import { prng } from '../helpers/prng.js';

/** The few fields the measures read, in a stand-in view. */
function world(rnd: () => number, enemies: number, markers: number) {
  const model = (x: number, y: number, bulk: number) => ({ base: { x, y, heading: 0 }, bulk }) as unknown as BattleModel;
  const near = Array.from({ length: enemies }, () => model(rnd() * 48, rnd() * 48, rnd() < 0.5 ? 0.5 : 1 + rnd()));
  const objectives = Array.from({ length: markers }, (_, i) => ({ id: `m${i}`, x: 10 + rnd() * 28, y: 10 + rnd() * 28, radius: [0, 3, 2.5][i % 3], points: 1 + (i % 2), fromTurn: 1 }));
  const view = { turn: 2, objectives, nearestEnemies: () => near } as unknown as PolicyView;
  const m = model(24, 24, rnd() < 0.5 ? 0.5 : 1.5);
  const options = Array.from({ length: 1 + Math.floor(rnd() * 40) }, (_, j) => {
    // Some end positions on a marker, on its radius or at an enemy's centre.
    const o = objectives[j % Math.max(1, markers)];
    const x = j % 7 === 0 && o ? o.x : j % 11 === 0 && o ? o.x + o.radius : j % 13 === 0 && near[0] ? (near[0].base.x as number) : rnd() * 60 - 6;
    const y = j % 7 === 0 && o ? o.y : j % 11 === 0 && o ? o.y : j % 13 === 0 && near[0] ? (near[0].base.y as number) : rnd() * 60 - 6;
    return { action: 'move', pose: { x, y, heading: 0 } } as unknown as MoveOption;
  });
  return { view, m, options };
}

describe('menuMeasures', () => {
  it('gives the numbers of the per-menu and per-option measures', () => {
    const rnd = prng(20261202);
    for (let t = 0; t < 600; t++) {
      const { view, m, options } = world(rnd, t % 4, Math.floor(t / 4) % 4); // every pairing of 0-3 enemies and 0-3 markers
      const dists = new Array<number>(options.length + 3).fill(-1), objs = new Array<number>(options.length + 3).fill(-1);
      const d2 = dists.slice(), o2 = objs.slice();
      menuMeasures(view, m, options, dists, objs);
      nearestEnemyDistances(view, m, options, d2);
      objectiveValues(view, options, o2);
      expect(dists).toEqual(d2);
      expect(objs).toEqual(o2);
      options.forEach((o, j) => {
        expect(Object.is(dists[j], nearestEnemyDistance(view, m, o.pose))).toBe(true);
        expect(Object.is(objs[j], objectiveValue(view, o.pose))).toBe(true);
      });
    }
  });
});

describe('firstLegal', () => {
  it('asks about the indices best first, ties to the lower index, highest or lowest', () => {
    const rnd = prng(20261203);
    for (let t = 0; t < 3000; t++) {
      const n = 1 + Math.floor(rnd() * 30);
      const keys = Array.from({ length: n }, () => Math.floor(rnd() * 8) / 4);
      const ok = keys.map(() => rnd() < 0.25);
      const high = t % 2 === 0;
      const order = keys.map((_, i) => i).sort((a, b) => (high ? keys[b] - keys[a] : keys[a] - keys[b]) || a - b);
      const want = order.slice(0, order.findIndex((i) => ok[i]) + 1 || n);
      const asked: number[] = [];
      const got = firstLegal(keys, (i) => (asked.push(i), ok[i]), high, n);
      expect(asked).toEqual(want);
      expect(got).toBe(ok.some((v) => v) ? want[want.length - 1] : -1);
    }
  });
});
