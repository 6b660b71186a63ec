// Gunnery's bearingNow reuses the arc tests of earlier weapon lines against the same target
// (a shortcut a later change to how it reads a line's arcs could break). On many random
// layouts and arc lists (repeats and T included) it must give bearing()'s answer, the first
// of the line's arcs in its own order that bears.
import { describe, expect, it } from 'vitest';
import { Gunnery } from '../../../src/engine/battle/gunnery.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { capitalBase, squadronBase } from '../../../src/engine/geometry.js';
import type { FacingArc } from '../../../src/engine/geometryArcs.js';
import { PlaceholderUsage } from '../../../src/engine/usage.js';
import type { WeaponLine } from '../../../src/units/types.js';
import { rules } from '../../helpers/battle.js';
import { prng } from '../../helpers/prng.js';

type Arc = WeaponLine['arcs'][number];
interface Probe {
  bearing(att: BattleModel, w: WeaponLine, tgt: BattleModel): FacingArc | null;
  bearingNow(att: BattleModel, w: WeaponLine, tgt: BattleModel, turret: boolean): FacingArc | null;
  arcsKnown: number;
  arcsBear: number;
}

describe('Gunnery.bearingNow', () => {
  it('gives bearing() for random layouts and arc lists', () => {
    const r = rules('1.2.2');
    const g = new Gunnery(r, new PlaceholderUsage(r)) as unknown as Probe;
    const rnd = prng(20261201);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const all: Arc[] = ['F', 'P', 'S', 'R', 'T'];
    // A few unit types, each with lines of random arcs (fixed for the run, as a unit card's are).
    const lines: WeaponLine[][] = [];
    for (let u = 0; u < 6; u++) {
      const ws: WeaponLine[] = [];
      for (let i = 0; i < 5; i++) {
        const arcs: Arc[] = [];
        const n = 1 + Math.floor(rnd() * 4);
        for (let k = 0; k < n; k++) arcs.push(pick(all.slice(0, rnd() < 0.15 ? 5 : 4)));
        ws.push({ index: i, arcs } as unknown as WeaponLine);
      }
      lines.push(ws);
    }
    let bears = 0, none = 0;
    for (let t = 0; t < 3000; t++) {
      const u = Math.floor(rnd() * lines.length);
      const capital = rnd() < 0.85;
      const att = { unitIndex: u, unit: { isCapital: capital }, base: capital ? capitalBase(0, 0, Math.floor(rnd() * 360)) : squadronBase(0, 0) } as unknown as BattleModel;
      const tx = (rnd() - 0.5) * 30, ty = (rnd() - 0.5) * 30;
      const tgt = { base: rnd() < 0.5 ? capitalBase(tx, ty, rnd() * 360) : squadronBase(tx, ty) } as unknown as BattleModel;
      // One target: the arc tests start afresh, then serve every line of the attacker.
      g.arcsKnown = 0;
      g.arcsBear = 0;
      for (const w of lines[u]) {
        const want = g.bearing(att, w, tgt);
        // The turret flag as fireAt reads it from lineBits (learnLine: the arcs hold T).
        expect(g.bearingNow(att, w, tgt, w.arcs.includes('T')), `${w.arcs.join('')} at (${tx}, ${ty})`).toBe(want);
        if (want === null) none++;
        else bears++;
      }
    }
    // Both answers come up often.
    expect(bears).toBeGreaterThan(1000);
    expect(none).toBeGreaterThan(1000);
  });
});
