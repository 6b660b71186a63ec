// Figures designers read off an outcome distribution.
import type { Distribution } from './exact.js';
import { BEST_MAG, MAG_COUNT, OUTCOME_CODES, RESULT_COUNT, magOf, outcomeName } from './outcome.js';

export interface DistributionSummary {
  /** P(best Result >= D), >= T, = Q (index 0, 1, 2). */
  atLeast: [number, number, number];
  /** P(exactly k Results of Magnitude D / T / Q), k = 0..6. */
  countDist: { D: number[]; T: number[]; Q: number[] };
  /** Expected number of Results. */
  expectedResults: number;
  /** Per Value 1..6: P(the Result on that Value is at least D / T / Q). */
  byValue: Array<{ value: number; D: number; T: number; Q: number }>;
  /** Every outcome with non-zero probability, most likely first. */
  outcomes: Array<{ outcome: string; p: number }>;
}

export function summarize(dist: Distribution): DistributionSummary {
  const atLeast: [number, number, number] = [0, 0, 0];
  const countDist = { D: new Array(7).fill(0), T: new Array(7).fill(0), Q: new Array(7).fill(0) };
  const byValue = [1, 2, 3, 4, 5, 6].map((value) => ({ value, D: 0, T: 0, Q: 0 }));
  let expectedResults = 0;
  const outcomes: Array<{ code: number; p: number }> = [];
  for (let code = 0; code < OUTCOME_CODES; code++) {
    const p = dist[code];
    if (p === 0) continue;
    outcomes.push({ code, p });
    for (let m = 1; m <= BEST_MAG[code]; m++) atLeast[m - 1] += p;
    countDist.D[MAG_COUNT[0][code]] += p;
    countDist.T[MAG_COUNT[1][code]] += p;
    countDist.Q[MAG_COUNT[2][code]] += p;
    expectedResults += p * RESULT_COUNT[code];
    for (let face = 1; face <= 6; face++) {
      const m = magOf(code, face);
      if (m >= 1) byValue[face - 1].D += p;
      if (m >= 2) byValue[face - 1].T += p;
      if (m >= 3) byValue[face - 1].Q += p;
    }
  }
  outcomes.sort((a, b) => b.p - a.p || a.code - b.code);
  return {
    atLeast,
    countDist,
    expectedResults,
    byValue,
    outcomes: outcomes.map((o) => ({ outcome: outcomeName(o.code), p: o.p })),
  };
}

/** P(best Result reaches the threshold Magnitude), e.g. a Skill Test needing [T+]. */
export function pAtLeast(dist: Distribution, mag: number): number {
  let p = 0;
  for (let code = 0; code < OUTCOME_CODES; code++) if (BEST_MAG[code] >= mag) p += dist[code];
  return p;
}
