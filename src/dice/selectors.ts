// Preference orders over outcomes, used wherever a player chooses between outcomes:
// which Flex dice the roll's owner discards (dice.md AMB-07) and which Result an opposing
// Secondary diminishes (AMB-19). A preference is a rank table over outcome codes: higher
// rank = preferred. Any score table (for example expected damage) can be turned into one.
import { OUTCOME_CODES, RESULT_COUNT, magOf } from './outcome.js';

/**
 * Sort key of MAX_LEXI as one number: the Magnitudes sorted descending (2 bits each), then
 * the (Magnitude, Value) pairs sorted descending (5 bits each); 42 bits, exact in a double.
 * Comparing keys compares the two lists lexicographically.
 */
function lexiKey(code: number): number {
  const pairs: number[] = [];
  for (let face = 1; face <= 6; face++) {
    const m = magOf(code, face);
    if (m) pairs.push(m * 8 + face);
  }
  pairs.sort((a, b) => b - a);
  let mags = 0;
  let flat = 0;
  for (let i = 0; i < 6; i++) {
    const p = pairs[i] ?? 0;
    mags = mags * 4 + (p >> 3);
    flat = flat * 32 + p;
  }
  return mags * 2 ** 30 + flat;
}

/** Rank table from a score per code; ties are broken by MAX_LEXI so the order is total. */
export function rankFromScores(score: (code: number) => number): Int32Array {
  const codes = Array.from({ length: OUTCOME_CODES }, (_, i) => i);
  const scores = codes.map(score);
  codes.sort((a, b) => scores[a] - scores[b] || LEXI_RANK[a] - LEXI_RANK[b]);
  const rank = new Int32Array(OUTCOME_CODES);
  codes.forEach((code, i) => (rank[code] = i));
  return rank;
}

function buildLexiRank(): Int32Array {
  const keys = Array.from({ length: OUTCOME_CODES }, (_, i) => lexiKey(i));
  const codes = Array.from({ length: OUTCOME_CODES }, (_, i) => i);
  codes.sort((a, b) => keys[a] - keys[b]);
  const rank = new Int32Array(OUTCOME_CODES);
  codes.forEach((code, i) => (rank[code] = i));
  return rank;
}

/**
 * MAX_LEXI (dice.md AMB-07 default): the outcome whose Magnitudes, sorted descending, are
 * lexicographically greatest ([T] > [D,D] > [D] > [N]); ties go to higher Values.
 */
export const LEXI_RANK: Readonly<Int32Array> = buildLexiRank();

/** MOST_RESULTS: the most Results first (for damage that counts Results), then MAX_LEXI. */
export const MOST_RESULTS_RANK: Readonly<Int32Array> = rankFromScores((code) => RESULT_COUNT[code]);

export const FLEX_SELECTORS = {
  MAX_LEXI: LEXI_RANK,
  MOST_RESULTS: MOST_RESULTS_RANK,
} as const;
export type FlexSelectorName = keyof typeof FLEX_SELECTORS;
