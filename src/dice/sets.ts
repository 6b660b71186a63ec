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
 * The outcome after the Macro Pool (rules v1.2.1 /dice/macro_dice).
 * macroCounts[1..6] counts the Macro dice showing each face; sign is +1 or -1.
 * Positive: each Macro die matching a Result's Value raises it one step, capped at Q.
 * Negative (AMB-09): each matching die lowers it one step; a D lowered disappears.
 * Macro dice never create a Result and never pair with each other.
 */
export function applyMacro(key: number, macroCounts: ArrayLike<number>, sign: number, negativeMacroMode: number): number {
  let code = 0;
  for (let face = 1; face <= 6; face++) {
    const size = (key >>> (4 * (face - 1))) & 15;
    if (size === 0) continue;
    const m = macroCounts[face];
    let level: number;
    if (m === 0) {
      level = levelOfCount(size);
    } else if (sign > 0) {
      level = levelOfCount(size) + m;
      if (level > MAG_Q) level = MAG_Q;
    } else if (negativeMacroMode === NEG_MACRO_COUNT) {
      // AMB-10 COUNT: remove one die from the set per match (a set never drops below one die), re-cap.
      level = levelOfCount(size - m < 1 ? 1 : size - m);
    } else {
      // AMB-10 LEVEL (default): step down the capped Magnitude.
      level = levelOfCount(size) - m;
      if (level < 0) level = 0;
    }
    if (level) code = withMag(code, face, level);
  }
  return code;
}
