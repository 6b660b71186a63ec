// PolicyView.firepower keeps per-enemy values between the moves a model scores; it must give
// exactly what its definition says: the best of estimate() over reachable enemies, divided by
// the target's Structure (at least 1) and times its TV / 10 with focus. firepowerOfMoves, the
// same for a whole move menu at once, must give firepower for every option.
import { describe, expect, it } from 'vitest';
import type { Pose } from '../../src/engine/battle/movement.js';
import { GEOM_EPSILON } from '../../src/engine/geometry.js';
import { battleStreams } from '../../src/sim/battles.js';
import { Battle, rules, sampleScenario } from '../helpers/battle.js';
import { LEFT_BELOW, LEFT_NONE } from '../../src/policies/types.js';

type Model = InstanceType<typeof Battle>['models'][number];

/** Plays 6 games of standard-engagement, calling `check` before each activation of a model on the table. */
function beforeEachActivation(check: (battle: InstanceType<typeof Battle>, m: Model) => void): void {
  const scenario = sampleScenario('standard-engagement', '1.2.2');
  const battle = new Battle(rules('1.2.2'), scenario);
  const inner = battle as unknown as { activate(m: Model): void };
  const activate = inner.activate.bind(battle);
  inner.activate = (m) => {
    if (m.where === 'table') check(battle, m);
    activate(m);
  };
  const streams = battleStreams('firepower', scenario.id);
  for (let g = 0; g < 6; g++) battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1);
}

describe('PolicyView.firepower', () => {
  it('equals the best estimate over reachable enemies, bit for bit, from many poses in mid-game states', () => {
    let compared = 0;
    let nonZero = 0;
    // Before each activation: the activating model's firepower from poses around it, twice each
    // (the first call of an epoch fills the kept values, later ones use them).
    beforeEachActivation((battle, m) => {
      for (const focus of [0, 1]) {
        for (let k = 0; k < 12; k++) {
          const p: Pose = { x: m.base.x + 4 * Math.sin(k), y: m.base.y + 4 * Math.cos(k * 1.7), heading: (k * 45) % 360 };
          let want = 0;
          for (const e of battle.reachable(m)) {
            const x = battle.estimate(m, p, e);
            const v = focus ? x / Math.max(1, e.state.structure) * e.unit.tv / 10 : x;
            if (v > want) want = v;
          }
          expect(battle.firepower(m, p, focus)).toBe(want);
          expect(battle.firepower(m, p, focus)).toBe(want);
          compared++;
          if (want > 0) nonZero++;
        }
      }
    });
    expect(compared).toBeGreaterThan(1000);
    expect(nonZero).toBeGreaterThan(100);
  });

  it('firepowerOfMoves gives firepower for every option of a menu, bit for bit', () => {
    let compared = 0;
    let nonZero = 0;
    beforeEachActivation((battle, m) => {
      // A menu of poses around the model, scored twice: first with the per-epoch values
      // already set up (as pickMove does, after the model's own firepower), then option by
      // option, which must agree.
      const options = Array.from({ length: 20 }, (_, k) => ({ pose: { x: m.base.x + 5 * Math.sin(k * 0.9), y: m.base.y + 5 * Math.cos(k * 1.3), heading: (k * 45) % 360 }, action: 'none' as const, travelled: 0 }));
      for (const focus of [0, 1]) {
        battle.firepower(m, m.base, focus);
        const out: number[] = [];
        battle.firepowerOfMoves(m, options, focus, out);
        expect(out.length).toBe(options.length);
        options.forEach((o, j) => {
          expect(out[j]).toBe(battle.firepower(m, o.pose, focus));
          compared++;
          if (out[j] > 0) nonZero++;
        });
      }
    });
    expect(compared).toBeGreaterThan(1000);
    expect(nonZero).toBeGreaterThan(100);
  });

  it('firepowerOfMoves with a floor: exact above it, and at or below it only where the exact value is too', () => {
    let above = 0;
    let under = 0;
    let leftOut = 0;
    let below = 0;
    beforeEachActivation((battle, m) => {
      const options = Array.from({ length: 20 }, (_, k) => ({ pose: { x: m.base.x + 5 * Math.sin(k * 0.9), y: m.base.y + 5 * Math.cos(k * 1.3), heading: (k * 45) % 360 }, action: 'none' as const, travelled: 0 }));
      for (const focus of [0, 1]) {
        const floor = battle.firepower(m, m.base, focus);
        const out: number[] = [];
        const left = battle.firepowerOfMoves(m, options, focus, out, floor);
        if (left !== LEFT_NONE) leftOut++;
        options.forEach((o, j) => {
          const exact = battle.firepower(m, o.pose, focus);
          if (out[j] > floor || left === LEFT_NONE) {
            expect(out[j]).toBe(exact);
            above++;
          } else {
            expect(exact).toBeLessThanOrEqual(floor);
            // Only parts worth less than the floor left out: below it stays below, at it is exact.
            if (left === LEFT_BELOW) {
              if (out[j] === floor) expect(exact).toBe(floor);
              else expect(exact).toBeLessThan(floor);
              below++;
            }
            under++;
          }
        });
      }
    });
    expect(above).toBeGreaterThan(100);
    expect(under).toBeGreaterThan(100);
    expect(leftOut).toBeGreaterThan(10);
    expect(below).toBeGreaterThan(10);
  });

  it('firepowerOfMoves agrees with firepower at the edge between short and long range, bit for bit', () => {
    // firepowerOfMoves settles the range band from the squared distance away from the band's
    // edge; these options stand at the edge and a hair either side of it, where it must fall
    // back on the exact test.
    let compared = 0;
    beforeEachActivation((battle, m) => {
      const c = battle.rules.combat;
      const options: Array<{ pose: Pose; action: 'none'; travelled: number }> = [];
      for (const e of battle.reachable(m)) {
        const edge = (e.unit.isCapital ? c.shortRangeAC : c.shortRangeAS) + GEOM_EPSILON + m.bulk + e.bulk;
        for (const f of [-1e-6, -1e-9, -1e-12, -1e-15, 0, 1e-15, 1e-12, 1e-9, 1e-6]) {
          const r = edge * (1 + f);
          options.push({ pose: { x: e.base.x - r * 0.6, y: e.base.y - r * 0.8, heading: 90 }, action: 'none', travelled: 0 });
        }
      }
      for (const focus of [0, 1]) {
        battle.firepower(m, m.base, focus);
        const out: number[] = [];
        battle.firepowerOfMoves(m, options, focus, out);
        options.forEach((o, j) => {
          expect(out[j]).toBe(battle.firepower(m, o.pose, focus));
          compared++;
        });
      }
    });
    expect(compared).toBeGreaterThan(1000);
  });
});
