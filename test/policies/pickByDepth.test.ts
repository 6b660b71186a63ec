// pickByDepth's searches must ask `legal` about the same indices in the same order as
// firstLegal over the depth keys (lowest first, ties to the lower index): the engine's legal
// test marks the spots it rules out, and a policy is told only what it asks. pickByDepth keeps,
// per list, the order found so far (extended a batch at a time), and a list refilled in place
// with other spots must not be walked in the order of its old ones.
import { describe, expect, it } from 'vitest';
import { firstLegal, pickByDepth } from '../../src/policies/shared.js';
import type { DeployCandidates } from '../../src/policies/types.js';
import { prng } from '../helpers/prng.js';

/** A legal test that records the indices asked, legal where `ok` says so. */
function recorder(ok: boolean[]): { legal: (i: number) => boolean; asked: number[] } {
  const asked: number[] = [];
  return { asked, legal: (i) => (asked.push(i), ok[i]) };
}

describe('pickByDepth on fresh lists', () => {
  it('asks as firstLegal does, with ties, few or no legal indices, and keys that are not numbers', () => {
    const rnd = prng(20261201);
    for (let t = 0; t < 4000; t++) {
      const n = Math.floor(rnd() * 60);
      // Few distinct keys (many ties) or many; now and then a NaN or an infinite one.
      const distinct = rnd() < 0.5 ? 1 + Math.floor(rnd() * 5) : 0;
      const keys = Array.from({ length: n }, () => {
        const u = rnd();
        if (u < 0.01) return NaN;
        if (u < 0.02) return Infinity;
        return distinct ? Math.floor(rnd() * distinct) / 4 : rnd();
      });
      const pLegal = [0, 0.05, 0.3, 1][t % 4];
      const ok = keys.map(() => rnd() < pLegal);
      const a = recorder(ok), b = recorder(ok);
      // At depth 0 each key is the front's size: a candidate per key.
      const got = pickByDepth(keys.map((front) => ({ pose: { x: 0, y: 0, heading: 0 }, front })), a.legal, 0);
      const want = firstLegal(keys, b.legal, false, n);
      expect(got).toBe(want);
      expect(a.asked).toEqual(b.asked);
    }
  });
});

describe('pickByDepth', () => {
  it('asks as firstLegal does for a list used again, refilled in place, and asked about at other depths', () => {
    const rnd = prng(7);
    const list: Array<{ pose: { x: number; y: number; heading: number }; front: number }> = [];
    for (let t = 0; t < 600; t++) {
      // Refill the list now and then (sometimes with another length), keep it otherwise.
      if (t === 0 || rnd() < 0.3) {
        const n = rnd() < 0.2 ? 10 + Math.floor(rnd() * 5) : 25;
        list.length = 0;
        for (let i = 0; i < n; i++) list.push({ pose: { x: 0, y: 0, heading: 0 }, front: rnd() < 0.005 ? NaN : Math.floor(rnd() * 6) / 5 });
      }
      const depth = rnd() < 0.8 ? 1 : 0.3;
      const ok = list.map(() => rnd() < 0.3);
      const a = recorder(ok), b = recorder(ok);
      const got = pickByDepth(list, a.legal, depth);
      const want = firstLegal(list.map((c) => Math.abs(c.front - depth)), b.legal, false);
      expect(got).toBe(want);
      expect(a.asked).toEqual(b.asked);
    }
  });
});

/**
 * One search of `list` at a random depth, with spots ruled out at a rate that cycles with `t`:
 * pickByDepth must pick what firstLegal picks, asking about the same spots in the same order.
 */
function asksAsFirstLegal(list: DeployCandidates, rnd: () => number, t: number): void {
  const depth = rnd() < 0.7 ? 1 : 0.3;
  const pLegal = [0, 0.03, 0.2, 0.8][t % 4];
  const ok = list.map(() => rnd() < pLegal);
  const a = recorder(ok), b = recorder(ok);
  const got = pickByDepth(list, a.legal, depth);
  const want = firstLegal(list.map((c) => Math.abs(c.front - depth)), b.legal, false);
  expect(got).toBe(want);
  expect(a.asked).toEqual(b.asked);
}

describe('pickByDepth on a list refilled in turn with a few contents', () => {
  // Like the engine's Beacon zone lists: one list object refilled for each model with the spots of
  // one side's beacons or the other's, the same depths met again within a game. Any memo of
  // earlier searches of the list must still ask what firstLegal asks, past a batch too.
  it('asks as firstLegal does when the list alternates between a few contents and depths', () => {
    const rnd = prng(20261202);
    const list: Array<{ pose: { x: number; y: number; heading: number }; front: number }> = [];
    // Contents the list is refilled with in turn, renewed now and then (a new game), some longer
    // than pickByDepth's batch of spots ruled out.
    let contents: number[][] = [];
    for (let t = 0; t < 1500; t++) {
      if (t % 100 === 0) {
        contents = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => {
          const n = 5 + Math.floor(rnd() * 40);
          const distinct = rnd() < 0.5 ? 1 + Math.floor(rnd() * 4) : 0;
          return Array.from({ length: n }, () => (distinct ? Math.floor(rnd() * distinct) / 4 : rnd()));
        });
      }
      const fronts = contents[Math.floor(rnd() * contents.length)];
      list.length = 0;
      for (const f of fronts) list.push({ pose: { x: 0, y: 0, heading: 0 }, front: f });
      asksAsFirstLegal(list, rnd, t);
    }
  });
});

describe('pickByDepth on a list with a version', () => {
  // The engine's lists carry a version that it changes whenever it refills their fronts: while
  // the version holds, pickByDepth may keep its order without reading the fronts again. Refilled
  // with a new version (a new game), or asked at another depth, it must ask what firstLegal asks.
  it('asks as firstLegal does when every refill comes with a new version', () => {
    const rnd = prng(20261203);
    const list = [] as unknown as Array<{ pose: { x: number; y: number; heading: number }; front: number }> & { version: number };
    list.version = 0;
    for (let t = 0; t < 1500; t++) {
      if (t === 0 || rnd() < 0.3) {
        const n = rnd() < 0.2 ? 5 + Math.floor(rnd() * 40) : 25;
        const distinct = rnd() < 0.5 ? 1 + Math.floor(rnd() * 4) : 0;
        list.length = 0;
        for (let i = 0; i < n; i++) list.push({ pose: { x: 0, y: 0, heading: 0 }, front: distinct ? Math.floor(rnd() * distinct) / 4 : rnd() });
        list.version++;
      }
      asksAsFirstLegal(list, rnd, t);
    }
  });

  it('keeps the order found while the version holds (the fronts are not read again)', () => {
    const list = Object.assign([0.5, 0.9, 0.1].map((front) => ({ pose: { x: 0, y: 0, heading: 0 }, front })), { version: 7 });
    expect(pickByDepth(list, () => true, 1)).toBe(1);
    list[0].front = 1; // not told: the version is the same
    expect(pickByDepth(list, () => true, 1)).toBe(1);
    list.version = 8;
    expect(pickByDepth(list, () => true, 1)).toBe(0);
  });
});
