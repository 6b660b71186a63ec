// Reading kept dice into Results and applying the Macro Pool.
//
// Kept base dice are summarised by a "set key": per face, 4 bits holding the size of the
// set on that face (0 when fewer than two dice show it), capped where more dice can no
// longer change the answer. The cap is 4 (a Quadruple is the top Magnitude, rules v1.2.1
// /dice) except under negative Macro in COUNT mode (dice.md AMB-10), where a set of c dice
// hit by m matching Macro dice keeps max(c - m, 1) dice, so sizes up to 4 + |Macro| matter.
import { MAG_Q, levelOfCount, withMag } from './outcome.js';

export const NEG_MACRO_LEVEL = 0;
export const NEG_MACRO_COUNT = 1;

/** The largest set size the key must remember for this Macro Pool. */
export function setCap(macro: number, negativeMacroMode: number): number {
  return macro < 0 && negativeMacroMode === NEG_MACRO_COUNT ? 4 - macro : 4;
}

/** Set key of face counts (counts[1..6]). */
export function keyOfCounts(counts: ArrayLike<number>, cap: number): number {
  let key = 0;
  for (let face = 1; face <= 6; face++) {
    const c = counts[face];
    if (c >= 2) key |= (c < cap ? c : cap) << (4 * (face - 1));
  }
  return key;
}

export function setSize(key: number, face: number): number {
  return (key >>> (4 * (face - 1))) & 15;
}

/** The outcome of a set key with no Macro dice. */
export function codeOfKey(key: number): number {
  let code = 0;
  for (let face = 1; face <= 6; face++) {
    const size = (key >>> (4 * (face - 1))) & 15;
    if (size) code = withMag(code, face, levelOfCount(size));
  }
  return code;
}

/**
 * Magnitude of a set of `size` dice hit by `m` matching Macro dice, indexed [size * 8 + m]
 * (size 0..15, m 0..7), for each kind of Macro Pool (rules v1.2.1 /dice/macro_dice):
 * - positive: each matching die raises the Result one step, capped at Q;
 * - negative, LEVEL (AMB-09/10 default): each matching die lowers the capped Magnitude one
 *   step; a D lowered disappears;
 * - negative, COUNT (AMB-10 alternative): each matching die removes one die from the set
 *   (a set never drops below one die), then the set is read again.
 * Macro dice never create a Result and never pair with each other: size < 2 stays 0.
 */
function macroTable(effect: (size: number, m: number) => number): Uint8Array {
  const t = new Uint8Array(16 * 8);
  for (let size = 2; size < 16; size++) for (let m = 0; m < 8; m++) t[size * 8 + m] = effect(size, m);
  return t;
}
const MACRO_POSITIVE = macroTable((size, m) => Math.min(levelOfCount(size) + m, MAG_Q));
const MACRO_NEGATIVE_LEVEL = macroTable((size, m) => Math.max(levelOfCount(size) - m, 0));
const MACRO_NEGATIVE_COUNT = macroTable((size, m) => levelOfCount(Math.max(size - m, 1)));

/**
 * The outcome after the Macro Pool: macroCounts[1..6] counts the Macro dice showing each
 * face; sign is +1 or -1 (0: no Macro Pool). With `offset`, the counts are read at
 * macroCounts[offset + face], so callers can keep many Macro rolls in one flat array.
 */
export function applyMacro(key: number, macroCounts: ArrayLike<number>, sign: number, negativeMacroMode: number, offset = 0): number {
  const table = sign > 0 ? MACRO_POSITIVE : negativeMacroMode === NEG_MACRO_COUNT ? MACRO_NEGATIVE_COUNT : MACRO_NEGATIVE_LEVEL;
  let code = 0;
  for (let face = 1; face <= 6; face++) {
    const size = (key >>> (4 * (face - 1))) & 15;
    if (size !== 0) code |= table[size * 8 + macroCounts[offset + face]] << (2 * (face - 1));
  }
  return code;
}
