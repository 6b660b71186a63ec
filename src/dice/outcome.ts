// The outcome of one roll, packed into a small integer.
//
// A roll's Results are at most one set per face (rules v1.2.1 /dice and v1.2.2 /dice: all
// kept dice showing the same face form one set), and each set has a Magnitude of D, T or Q
// (Q = four or more, the cap). So an outcome is six 2-bit Magnitudes, one per face:
// bits 2*(v-1)..2*(v-1)+1 hold the Magnitude of face v (0 = no set). Code 0 is [N].
// Every table below is indexed by that code and built once at load time.

export const MAG_N = 0;
export const MAG_D = 1;
export const MAG_T = 2;
export const MAG_Q = 3;

/** Number of distinct outcome codes (4^6). */
export const OUTCOME_CODES = 4096;
export const NO_RESULT = 0;

const MAG_LETTERS = ['N', 'D', 'T', 'Q'] as const;
export type MagnitudeLetter = 'D' | 'T' | 'Q';

export function magOf(code: number, face: number): number {
  return (code >>> (2 * (face - 1))) & 3;
}

export function withMag(code: number, face: number, mag: number): number {
  const shift = 2 * (face - 1);
  return (code & ~(3 << shift)) | (mag << shift);
}

/** Magnitude of a set of `count` matching dice (v1.2.1/v1.2.2 /dice: 2 = D, 3 = T, 4+ = Q). */
export function levelOfCount(count: number): number {
  return count < 2 ? MAG_N : count >= 4 ? MAG_Q : count - 1;
}

function buildTables() {
  const best = new Uint8Array(OUTCOME_CODES);
  const results = new Uint8Array(OUTCOME_CODES);
  const perMag = [new Uint8Array(OUTCOME_CODES), new Uint8Array(OUTCOME_CODES), new Uint8Array(OUTCOME_CODES)];
  const escalateAll = new Uint16Array(OUTCOME_CODES);
  const diminishAll = new Uint16Array(OUTCOME_CODES);
  for (let code = 0; code < OUTCOME_CODES; code++) {
    let b = 0;
    let n = 0;
    let up = 0;
    let down = 0;
    for (let face = 1; face <= 6; face++) {
      const m = magOf(code, face);
      if (m === 0) continue;
      n++;
      perMag[m - 1][code]++;
      if (m > b) b = m;
      up = withMag(up, face, m === MAG_Q ? MAG_Q : m + 1);
      down = withMag(down, face, m - 1);
    }
    best[code] = b;
    results[code] = n;
    escalateAll[code] = up;
    diminishAll[code] = down;
  }
  return { best, results, perMag, escalateAll, diminishAll };
}

const TABLES = buildTables();
/** Highest Magnitude among the Results (0 for [N]); thresholds compare this (dice.md AMB-02). */
export const BEST_MAG: Readonly<Uint8Array> = TABLES.best;
/** Number of Results in the outcome. */
export const RESULT_COUNT: Readonly<Uint8Array> = TABLES.results;
/** Number of Results of Magnitude D, T, Q (index 0, 1, 2). */
export const MAG_COUNT: ReadonlyArray<Uint8Array> = TABLES.perMag;
/** Every successful Result one step up, Q stays Q (v1.2.1 ramming "escalating all successful results"; AMB-12). */
export const ESCALATE_ALL: Readonly<Uint16Array> = TABLES.escalateAll;
/** Every Result one step down, a diminished D disappears (v1.2.2 Assaulting state). */
export const DIMINISH_ALL: Readonly<Uint16Array> = TABLES.diminishAll;

/** Entries per outcome in DAMAGE_ORDER: a count, then up to six Results. */
export const DAMAGE_ORDER_STRIDE = 7;

/**
 * Each outcome's Results in the order damage takes them: lowest Magnitude first, then lowest
 * Value. At `code * DAMAGE_ORDER_STRIDE`: the number of Results n, then n entries
 * `magnitude << 3 | face`. Damage code walks the Results an outcome has, not all 18
 * Magnitude and face pairs.
 */
export const DAMAGE_ORDER: Readonly<Uint8Array> = (() => {
  const order = new Uint8Array(OUTCOME_CODES * DAMAGE_ORDER_STRIDE);
  for (let code = 0; code < OUTCOME_CODES; code++) {
    const at = code * DAMAGE_ORDER_STRIDE;
    let n = 0;
    for (let mag = MAG_D; mag <= MAG_Q; mag++) {
      for (let face = 1; face <= 6; face++) if (magOf(code, face) === mag) order[at + 1 + n++] = (mag << 3) | face;
    }
    order[at] = n;
  }
  return order;
})();

/** Canonical name, ascending Value, e.g. "[D2,T3]", "[N]" (dice.md AMB-01). */
export function outcomeName(code: number): string {
  if (code === NO_RESULT) return '[N]';
  const parts: string[] = [];
  for (let face = 1; face <= 6; face++) {
    const m = magOf(code, face);
    if (m) parts.push(MAG_LETTERS[m] + face);
  }
  return '[' + parts.join(',') + ']';
}

/** Inverse of outcomeName; accepts spaces and any order. Returns null when the text is not an outcome. */
export function parseOutcome(text: string): number | null {
  const t = text.replace(/\s+/g, '');
  if (t === '[N]') return NO_RESULT;
  const m = /^\[([DTQ][1-6](?:,[DTQ][1-6])*)\]$/.exec(t);
  if (!m) return null;
  let code = 0;
  for (const part of m[1].split(',')) {
    const face = Number(part[1]);
    if (magOf(code, face) !== 0) return null; // two sets of one face cannot exist
    code = withMag(code, face, MAG_LETTERS.indexOf(part[0] as MagnitudeLetter));
  }
  return code;
}

/** Magnitude letters in threshold notation: D = [D+], T = [T+], Q = [Q+]. */
export function magFromLetter(letter: string): number {
  const i = MAG_LETTERS.indexOf(letter as MagnitudeLetter);
  if (i <= 0) throw new RangeError(`not a Magnitude letter: ${letter}`);
  return i;
}

export function magLetter(mag: number): string {
  return MAG_LETTERS[mag];
}
