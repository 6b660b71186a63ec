// The exact reference tables of shared/rules/dice.md §7.1–§7.6, row by row: exactDistribution
// with the default flags (unless the table says otherwise), compared with the printed
// percentages to 2 decimals and, for §7.1, with the printed exact fractions.
import { describe, expect, it } from 'vitest';
import type { DiceConfig } from '../../src/dice/config.js';
import { exactDistribution, type Distribution } from '../../src/dice/exact.js';
import { MAG_D, MAG_Q, MAG_T } from '../../src/dice/outcome.js';
import { resolvePool, type PoolRequest } from '../../src/dice/pool.js';
import { pAtLeast, summarize } from '../../src/dice/summary.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, type RulesVersionId } from '../../src/rules/registry.js';

const VERSIONS = ['1.2.1', '1.2.2'] as const satisfies readonly RulesVersionId[];

function cfgOf(id: RulesVersionId, rules: readonly string[] = []): DiceConfig {
  return compileDiceConfig(RULES_VERSIONS[id], applyRuleAssignments(rules));
}

function dist(cfg: DiceConfig, req: PoolRequest): Distribution {
  return exactDistribution(cfg, resolvePool(cfg, req));
}

/** |100 p - printed| <= 0.005 (+1e-9): the printed 2-decimal percentage is the rounding of p. */
function expectPercent(p: number, printed: number, what: string): void {
  const diff = Math.abs(100 * p - printed);
  if (diff > 0.005 + 1e-9) {
    throw new Error(`${what}: computed ${(100 * p).toFixed(4)} %, printed ${printed.toFixed(2)} %`);
  }
}

/** [P(≥D), P(≥T), P(Q)] as printed. */
type Triple = [number, number, number];

function expectTriple(d: Distribution, printed: Triple, what: string): void {
  expectPercent(pAtLeast(d, MAG_D), printed[0], `${what} P(>=D)`);
  expectPercent(pAtLeast(d, MAG_T), printed[1], `${what} P(>=T)`);
  expectPercent(pAtLeast(d, MAG_Q), printed[2], `${what} P(Q)`);
}

// §7.1 Base Pool only: X, P(≥D), P(≥T), P(Q), E[#Results], exact fractions where printed.
const T71: Array<{ x: number; pct: Triple; e: number; frac?: [number | null, number | null, number | null] }> = [
  { x: 0, pct: [0, 0, 0], e: 0 },
  { x: 1, pct: [0, 0, 0], e: 0 },
  { x: 2, pct: [16.67, 0, 0], e: 0.167, frac: [1 / 6, null, null] },
  { x: 3, pct: [44.44, 2.78, 0], e: 0.444, frac: [4 / 9, 1 / 36, null] },
  { x: 4, pct: [72.22, 9.72, 0.46], e: 0.792, frac: [13 / 18, 7 / 72, 1 / 216] },
  { x: 5, pct: [90.74, 21.3, 2.01], e: 1.177, frac: [49 / 54, 23 / 108, 13 / 648] },
  { x: 6, pct: [98.46, 36.73, 5.22], e: 1.579, frac: [319 / 324, 119 / 324, 203 / 3888] },
  { x: 7, pct: [100, 54.09, 10.58], e: 1.981, frac: [null, 701 / 1296, 617 / 5832] },
  { x: 8, pct: [100, 70.74, 18.33], e: 2.372, frac: [null, 5501 / 7776, 12829 / 69984] },
  { x: 9, pct: [100, 84.25, 28.4], e: 2.744 },
  { x: 10, pct: [100, 93.25, 40.32], e: 3.093 },
];

// §7.2 Flex: X, Y, P(≥D), P(≥T), P(Q). The "X=1, any Y" row is checked for Y = 1..6.
const T72: Array<[number, number, ...Triple]> = [
  ...[1, 2, 3, 4, 5, 6].map((y) => [1, y, 0, 0, 0] as [number, number, ...Triple]),
  [2, 1, 44.44, 0, 0],
  [2, 2, 72.22, 0, 0],
  [2, 3, 90.74, 0, 0],
  [3, 1, 72.22, 9.72, 0],
  [3, 2, 90.74, 21.3, 0],
  [3, 3, 98.46, 36.73, 0],
  [4, 1, 90.74, 21.3, 2.01],
  [4, 2, 98.46, 36.73, 5.22],
  [4, 3, 100, 54.09, 10.58],
  [5, 1, 98.46, 36.73, 5.22],
  [5, 2, 100, 54.09, 10.58],
  [5, 3, 100, 70.74, 18.33],
  [6, 1, 100, 54.09, 10.58],
  [6, 2, 100, 70.74, 18.33],
  [6, 3, 100, 84.25, 28.4],
];

// §7.3 Macro: X, M, P(≥D), P(≥T), P(Q).
const T73: Array<[number, number, ...Triple]> = [
  [2, 1, 16.67, 2.78, 0],
  [2, 2, 16.67, 5.09, 0.46],
  [2, 3, 16.67, 7.02, 1.23],
  [2, -1, 13.89, 0, 0],
  [2, -2, 11.57, 0, 0],
  [2, -3, 9.65, 0, 0],
  [3, 1, 44.44, 9.72, 0.46],
  [3, 2, 44.44, 15.51, 2.01],
  [3, 3, 44.44, 20.33, 4.26],
  [3, -1, 37.5, 2.31, 0],
  [3, -2, 31.64, 1.93, 0],
  [3, -3, 26.68, 1.61, 0],
  [4, 1, 72.22, 21.3, 2.01],
  [4, 2, 72.22, 30.56, 5.22],
  [4, 3, 72.22, 38.01, 9.51],
  [4, -1, 62.96, 8.18, 0.39],
  [4, -2, 54.6, 6.88, 0.32],
  [4, -3, 47.16, 5.79, 0.27],
  [5, 1, 90.74, 36.73, 5.22],
  [5, 2, 90.74, 48.3, 10.58],
  [5, 3, 90.74, 57.09, 17.22],
  [5, -1, 83.02, 18.08, 1.67],
  [5, -2, 74.88, 15.35, 1.39],
  [5, -3, 66.82, 13.02, 1.16],
  [6, 1, 98.46, 54.09, 10.58],
  [6, 2, 98.46, 65.99, 18.33],
  [6, 3, 98.46, 74.29, 27.32],
  [6, -1, 94.6, 31.58, 4.35],
  [6, -2, 89.03, 27.12, 3.63],
  [6, -3, 82.4, 23.25, 3.02],
];

// §7.4 Flex + Macro: X, Y, M, P(≥D), P(≥T), P(Q).
const T74: Array<[number, number, number, ...Triple]> = [
  [2, 1, 1, 44.44, 7.41, 0],
  [2, 1, -1, 37.04, 0, 0],
  [3, 1, 1, 72.22, 21.3, 1.62],
  [3, 1, -1, 62.96, 8.1, 0],
  [3, 1, 2, 72.22, 30.56, 4.9],
  [3, 2, 1, 90.74, 36.73, 3.55],
  [4, 1, 1, 90.74, 36.73, 5.22],
  [4, 1, -1, 83.02, 18.08, 1.67],
  [3, 3, 0, 98.46, 36.73, 0],
  [3, 0, 3, 44.44, 20.33, 4.26],
];

// §7.5 Negative Macro LEVEL vs COUNT: X, M, LEVEL P(≥T), COUNT P(≥T), LEVEL P(Q), COUNT P(Q).
const T75: Array<[number, number, number, number, number, number]> = [
  [5, -1, 18.08, 18.08, 1.67, 1.68],
  [5, -2, 15.35, 15.35, 1.39, 1.41],
  [5, -3, 13.02, 13.03, 1.16, 1.19],
  [6, -1, 31.58, 31.58, 4.35, 4.42],
  [6, -2, 27.12, 27.13, 3.63, 3.74],
  [6, -3, 23.25, 23.28, 3.02, 3.16],
  [7, -1, 47.34, 47.34, 8.82, 9.02],
  [7, -2, 41.26, 41.29, 7.35, 7.68],
];
// §7.5 text: P(≥D) agrees in both modes for X=7 (99.10 % at M=-1, 96.60 % at M=-2).
const T75_D: Array<[number, number, number]> = [
  [7, -1, 99.1],
  [7, -2, 96.6],
];

// §7.6 Reroll of [N], one permitting source: base dice, single roll P(≥D), with one reroll.
const T76: Array<[number, number, number]> = [
  [2, 16.67, 30.56],
  [3, 44.44, 69.14],
  [4, 72.22, 92.28],
  [5, 90.74, 99.14],
  [6, 98.46, 99.98],
];

for (const id of VERSIONS) {
  describe(`dice.md §7 reference tables [v${id}]`, () => {
    const cfg = cfgOf(id);

    describe('§7.1 Base Pool only', () => {
      for (const row of T71) {
        it(`§7.1 X=${row.x}: P(>=D) ${row.pct[0]}, P(>=T) ${row.pct[1]}, P(Q) ${row.pct[2]}, E[#Results] ${row.e}`, () => {
          const d = dist(cfg, { base: row.x });
          expectTriple(d, row.pct, `X=${row.x}`);
          const e = summarize(d).expectedResults;
          expect(Math.abs(e - row.e)).toBeLessThanOrEqual(0.0005 + 1e-9);
          const s = summarize(d).atLeast;
          expect(s[0]).toBeCloseTo(pAtLeast(d, MAG_D), 12);
          expect(s[1]).toBeCloseTo(pAtLeast(d, MAG_T), 12);
          expect(s[2]).toBeCloseTo(pAtLeast(d, MAG_Q), 12);
          if (row.frac) {
            const mags = [MAG_D, MAG_T, MAG_Q];
            row.frac.forEach((f, i) => {
              if (f !== null) expect(pAtLeast(d, mags[i])).toBeCloseTo(f, 12);
            });
          }
        });
      }
      it('§7.1 X=0 and X=1 are exactly [N]; X=7 and X=8 succeed with certainty', () => {
        for (const x of [0, 1]) expect(pAtLeast(dist(cfg, { base: x }), MAG_D)).toBe(0);
        for (const x of [7, 8, 9, 10]) expect(pAtLeast(dist(cfg, { base: x }), MAG_D)).toBeCloseTo(1, 12);
      });
    });

    describe('§7.2 Flex (keep X, no Macro, MAX_LEXI)', () => {
      for (const [x, y, ...pct] of T72) {
        it(`§7.2 X=${x} Y=${y}: ${pct.join(' / ')}`, () => {
          expectTriple(dist(cfg, { base: x, flexGrants: [y] }), pct as Triple, `X=${x} Y=${y}`);
        });
      }
      it('§7.2 identity: P_flex(X,Y)(>= level) = P_base(X+Y)(>= level) when the set size fits in X, else 0', () => {
        const size = [0, 2, 3, 4];
        for (let x = 1; x <= 6; x++)
          for (let y = 1; y <= 3; y++) {
            const flex = dist(cfg, { base: x, flexGrants: [y] });
            const base = dist(cfg, { base: x + y });
            for (const mag of [MAG_D, MAG_T, MAG_Q]) {
              expect(pAtLeast(flex, mag)).toBeCloseTo(size[mag] <= x ? pAtLeast(base, mag) : 0, 12);
            }
          }
      });
    });

    describe('§7.3 Macro (no Flex, signed Macro)', () => {
      for (const [x, m, ...pct] of T73) {
        it(`§7.3 X=${x} M=${m > 0 ? '+' : ''}${m}: ${pct.join(' / ')}`, () => {
          expectTriple(dist(cfg, { base: x, macro: m }), pct as Triple, `X=${x} M=${m}`);
        });
      }
      it('§7.3 hand checks: X=2 M=-1 is 1/6 * 5/6; X=3 M=+1 P(>=T) is 1/36 + (15/36)(1/6)', () => {
        expect(pAtLeast(dist(cfg, { base: 2, macro: -1 }), MAG_D)).toBeCloseTo((1 / 6) * (5 / 6), 12);
        expect(pAtLeast(dist(cfg, { base: 3, macro: 1 }), MAG_T)).toBeCloseTo(1 / 36 + (15 / 36) * (1 / 6), 12);
      });
      it('§7.3 identities: positive Macro never changes P(>=D); one positive Macro die = one more Base die for P(>=T), P(Q)', () => {
        for (let x = 2; x <= 6; x++) {
          const plain = dist(cfg, { base: x });
          for (const m of [1, 2, 3]) expect(pAtLeast(dist(cfg, { base: x, macro: m }), MAG_D)).toBeCloseTo(pAtLeast(plain, MAG_D), 12);
          const one = dist(cfg, { base: x, macro: 1 });
          const more = dist(cfg, { base: x + 1 });
          expect(pAtLeast(one, MAG_T)).toBeCloseTo(pAtLeast(more, MAG_T), 12);
          expect(pAtLeast(one, MAG_Q)).toBeCloseTo(pAtLeast(more, MAG_Q), 12);
        }
      });
    });

    describe('§7.4 Flex + Macro (MAX_LEXI discard chosen with Macro visible)', () => {
      for (const [x, y, m, ...pct] of T74) {
        it(`§7.4 X=${x} Y=${y} M=${m > 0 ? '+' : ''}${m}: ${pct.join(' / ')}`, () => {
          expectTriple(dist(cfg, { base: x, flexGrants: [y], macro: m }), pct as Triple, `X=${x} Y=${y} M=${m}`);
        });
      }
    });

    describe('§7.5 negative Macro: LEVEL vs COUNT', () => {
      const level = cfgOf(id, ['negative_macro_mode=LEVEL']);
      const count = cfgOf(id, ['negative_macro_mode=COUNT']);
      for (const [x, m, tLevel, tCount, qLevel, qCount] of T75) {
        it(`§7.5 X=${x} M=${m}: P(>=T) LEVEL ${tLevel} COUNT ${tCount}; P(Q) LEVEL ${qLevel} COUNT ${qCount}`, () => {
          const dl = dist(level, { base: x, macro: m });
          const dc = dist(count, { base: x, macro: m });
          expectPercent(pAtLeast(dl, MAG_T), tLevel, `LEVEL X=${x} M=${m} P(>=T)`);
          expectPercent(pAtLeast(dc, MAG_T), tCount, `COUNT X=${x} M=${m} P(>=T)`);
          expectPercent(pAtLeast(dl, MAG_Q), qLevel, `LEVEL X=${x} M=${m} P(Q)`);
          expectPercent(pAtLeast(dc, MAG_Q), qCount, `COUNT X=${x} M=${m} P(Q)`);
          // The default is LEVEL.
          const dd = dist(cfg, { base: x, macro: m });
          expect(pAtLeast(dd, MAG_T)).toBe(pAtLeast(dl, MAG_T));
          expect(pAtLeast(dd, MAG_Q)).toBe(pAtLeast(dl, MAG_Q));
        });
      }
      for (const [x, m, pd] of T75_D) {
        it(`§7.5 X=${x} M=${m}: P(>=D) ${pd} in both modes`, () => {
          expectPercent(pAtLeast(dist(level, { base: x, macro: m }), MAG_D), pd, `LEVEL X=${x} M=${m} P(>=D)`);
          expectPercent(pAtLeast(dist(count, { base: x, macro: m }), MAG_D), pd, `COUNT X=${x} M=${m} P(>=D)`);
        });
      }
      it('§7.5 the modes differ only when a set can have 5+ dice (X <= 4 identical)', () => {
        for (let x = 0; x <= 4; x++)
          for (const m of [-1, -2, -3]) {
            const dl = dist(level, { base: x, macro: m });
            const dc = dist(count, { base: x, macro: m });
            let maxDiff = 0;
            for (let c = 0; c < dl.length; c++) maxDiff = Math.max(maxDiff, Math.abs(dl[c] - dc[c]));
            expect(maxDiff, `X=${x} M=${m}`).toBeLessThan(1e-15);
          }
      });
    });

    describe('§7.6 reroll of [N], one permitting source', () => {
      for (const [x, single, reroll] of T76) {
        it(`§7.6 X=${x}: single roll ${single}, with one reroll on [N] ${reroll}`, () => {
          const one = dist(cfg, { base: x });
          const two = dist(cfg, { base: x, rerollSources: 1 });
          expect(resolvePool(cfg, { base: x, rerollSources: 1 }).rerolls).toBe(1);
          expectPercent(pAtLeast(one, MAG_D), single, `X=${x} single P(>=D)`);
          expectPercent(pAtLeast(two, MAG_D), reroll, `X=${x} reroll P(>=D)`);
          const p = pAtLeast(one, MAG_D);
          expect(pAtLeast(two, MAG_D)).toBeCloseTo(1 - (1 - p) ** 2, 12);
        });
      }
    });
  });
}
