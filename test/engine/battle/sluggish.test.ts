// Sluggish capital ships (game.md §6.2 "Turns: taken at any point during the move (except with
// the Sluggish trait)", INTERPRETATION GM-11): they turn only at the very start or the very end
// of the move, never mid-move. The move menu loses its mid-move turns and nothing else.
import { describe, expect, it } from 'vitest';
import { capitalLimits, capitalMoves, type CapitalMove, type MoveLimits } from '../../../src/engine/battle/movement.js';
import type { TraitName } from '../../../src/units/catalogue.js';
import type { UnitCard } from '../../../src/units/types.js';
import { brOf, card, cardWith, placed } from '../../helpers/battle.js';

const V121 = brOf('1.2.1');
const V122 = brOf('1.2.2');

const sluggish = (u: UnitCard): UnitCard => ({ ...u, traits: new Map<TraitName, number>([...u.traits, ['Sluggish', 0]]) });

/** A Shan-Yu (Speed 6, Turns 1, Thrusters 4 on the sample roster), with or without Sluggish. */
function shanYu(slow: boolean, thrusters?: number) {
  const u = card('venus.shan-yu');
  const m = placed(slow ? sluggish(u) : u, 24, 24);
  if (thrusters !== undefined) m.state.thrusters = thrusters;
  return m;
}

/** A turn with distance travelled both before and after it. */
function midMoveTurn(mv: CapitalMove): boolean {
  const t1 = mv.turn1 !== 0 && mv.pre > 0 && mv.mid + mv.post > 0;
  const t2 = mv.turn2 !== 0 && mv.pre + mv.mid > 0 && mv.post > 0;
  return t1 || t2;
}

const key = (mv: CapitalMove) => `${mv.pre}/${mv.turn1}/${mv.mid}/${mv.turn2}/${mv.post}`;

describe('capitalLimits carries the trait', () => {
  it('a Sluggish Shan-Yu: the same limits, marked sluggish (v1.2.2 2"-10", v1.2.1 3"-6", Station Keep 0"-10")', () => {
    expect(card('venus.shan-yu').traits.has('Sluggish')).toBe(false);
    expect(capitalLimits(V122, shanYu(true), false)).toEqual({ min: 2, max: 10, turns: 1, sluggish: true });
    expect(capitalLimits(V121, shanYu(true), false)).toEqual({ min: 3, max: 6, turns: 1, sluggish: true });
    expect(capitalLimits(V122, shanYu(true), true)).toEqual({ min: 0, max: 10, turns: 1, sluggish: true });
  });

  it('without the trait the limits have no sluggish field at all', () => {
    const lim = capitalLimits(V122, shanYu(false), false);
    expect(lim).toStrictEqual({ min: 2, max: 10, turns: 1 });
    expect('sluggish' in lim).toBe(false);
  });
});

describe('the move menu of a Sluggish ship has no mid-move turn (GM-11)', () => {
  it('Shan-Yu v1.2.2 (2"-10", one turn): 17 moves with mid-move turns at 5" + 5", 15 without them', () => {
    const plain = capitalMoves(capitalLimits(V122, shanYu(false), false));
    const slow = capitalMoves(capitalLimits(V122, shanYu(true), false));
    // Distances 2, 6 and 10: each straight, turning ±45° at the start or at the end (5 x 3),
    // and at the maximum a ±45° turn half way.
    expect(plain).toHaveLength(17);
    expect(plain.filter(midMoveTurn)).toEqual([
      { pre: 5, turn1: -45, mid: 5, turn2: 0, post: 0 },
      { pre: 5, turn1: 45, mid: 5, turn2: 0, post: 0 },
    ]);
    expect(slow).toHaveLength(15);
    expect(slow.filter(midMoveTurn)).toEqual([]);
    // Otherwise identical, in the same order: the plain menu less its mid-move turns.
    expect(slow).toEqual(plain.filter((mv) => !midMoveTurn(mv)));
  });

  it('the Sluggish menu still has every straight move and every start and end turn', () => {
    const slow = capitalMoves(capitalLimits(V122, shanYu(true), false));
    const keys = new Set(slow.map(key));
    for (const d of [2, 6, 10]) {
      expect(keys.has(`${d}/0/0/0/0`)).toBe(true); // straight
      for (const a of [-45, 45]) {
        expect(keys.has(`0/${a}/${d}/0/0`)).toBe(true); // turn at the very start
        expect(keys.has(`${d}/${a}/0/0/0`)).toBe(true); // turn at the very end
      }
    }
    expect(keys.size).toBe(15);
  });

  it('v1.2.1 (3"-6", one turn): the same, 12 moves less the two at 3" + 3"', () => {
    const plain = capitalMoves(capitalLimits(V121, shanYu(false), false));
    const slow = capitalMoves(capitalLimits(V121, shanYu(true), false));
    expect(plain.filter(midMoveTurn).map(key)).toEqual(['3/-45/3/0/0', '3/45/3/0/0']);
    expect(plain).toHaveLength(17);
    expect(slow).toHaveLength(15);
    expect(slow).toEqual(plain.filter((mv) => !midMoveTurn(mv)));
  });

  it('two turns (Turns 2, Thrusters 3): a Sluggish ship keeps the 90° split over the very start and the very end', () => {
    const u = cardWith('jovian.alexander', { turns: 2, thrusters: 3 });
    const lim = capitalLimits(V122, placed(u, 24, 24), false);
    const slowLim = capitalLimits(V122, placed(sluggish(u), 24, 24), false);
    expect(slowLim).toEqual({ ...lim, sluggish: true });
    expect(lim.turns).toBe(2);
    const plain = capitalMoves(lim);
    const slow = capitalMoves(slowLim);
    const max = lim.max;
    const twoTurns = (ms: readonly CapitalMove[]) => ms.filter((mv) => mv.turn1 !== 0 && mv.turn2 !== 0);
    expect(twoTurns(plain)).toEqual([
      { pre: 0, turn1: -45, mid: max, turn2: -45, post: 0 },
      { pre: 0, turn1: 45, mid: max, turn2: 45, post: 0 },
    ]);
    expect(twoTurns(slow)).toEqual(twoTurns(plain));
    expect(slow.filter(midMoveTurn)).toEqual([]);
    expect(plain.filter(midMoveTurn).map(key)).toEqual([`${max / 2}/-45/${max / 2}/0/0`, `${max / 2}/45/${max / 2}/0/0`]);
    expect(slow).toEqual(plain.filter((mv) => !midMoveTurn(mv)));
  });

  it('no turn allowed (Thrusters 0): both menus are the straight moves only, and equal', () => {
    const plain = capitalMoves(capitalLimits(V122, shanYu(false, 0), false));
    const slow = capitalMoves(capitalLimits(V122, shanYu(true, 0), false));
    expect(slow).toEqual([{ pre: 6, turn1: 0, mid: 0, turn2: 0, post: 0 }]);
    expect(slow).toEqual(plain);
  });

  it('the shared menu cache keeps the two apart, whichever is asked first', () => {
    const lim: MoveLimits = { min: 1.25, max: 7.75, turns: 1 };
    const first = capitalMoves({ ...lim, sluggish: true });
    const second = capitalMoves(lim);
    expect(first.filter(midMoveTurn)).toEqual([]);
    expect(second.filter(midMoveTurn)).toHaveLength(2);
    // Asked again: the same menus (shared, not rebuilt); sluggish: false reads as no trait.
    expect(capitalMoves({ ...lim, sluggish: true })).toBe(first);
    expect(capitalMoves(lim)).toBe(second);
    expect(capitalMoves({ ...lim, sluggish: false })).toBe(second);
  });
});
