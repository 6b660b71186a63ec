// Result modifiers after the roll is read, and the Opposed Roll.
//
// v1.2.2 /dice/rolls "Opposed Roll": both players make Unopposed Rolls; then the Secondary
// reduces the Primary's Results: Secondary [D] = Diminish one Result, [T] = Diminish two
// Results or one Result twice (AMB-17), [Q+] = negate all; the Secondary chooses which.
// v1.2.1 has no generic Opposed Roll; its missile point defence uses the same mapping
// (combat.md MissilePD121), so both versions carry the table as data.
import { BUDGET_HIGHEST, OWN_EFFECTS_FIRST, type DiceConfig } from './config.js';
import { BEST_MAG, MAG_COUNT, MAG_D, MAG_Q, MAG_T, NO_RESULT, magOf, withMag } from './outcome.js';

/** A post-roll effect as a table over outcome codes (ESCALATE_ALL, DIMINISH_ALL), or null for none. */
export type PostEffect = Readonly<Uint16Array> | null;

/** Diminishes the Secondary's outcome grants (AMB-18); -1 means negate all. */
export function diminishBudget(cfg: DiceConfig, secondary: number): number {
  const best = BEST_MAG[secondary];
  if (best === MAG_Q) return -1;
  if (cfg.opposedBudget === BUDGET_HIGHEST) {
    return best === MAG_T ? cfg.opposedDiminishPerT : best === MAG_D ? cfg.opposedDiminishPerD : 0;
  }
  return MAG_COUNT[0][secondary] * cfg.opposedDiminishPerD + MAG_COUNT[1][secondary] * cfg.opposedDiminishPerT;
}

/** Apply `budget` Diminishes to the Primary, each to the Result the Secondary prefers (AMB-19). */
export function diminishBy(cfg: DiceConfig, primary: number, budget: number): number {
  if (budget < 0) return NO_RESULT;
  const rank = cfg.secondaryTargetRank;
  let code = primary;
  for (let b = 0; b < budget && code !== NO_RESULT; b++) {
    let target = 0;
    let targetRank = -1;
    for (let face = 1; face <= 6; face++) {
      const m = magOf(code, face);
      if (m && rank[m * 8 + face] > targetRank) {
        targetRank = rank[m * 8 + face];
        target = face;
      }
    }
    code = withMag(code, target, magOf(code, target) - 1);
  }
  return code;
}

/** The Primary's final outcome, given both rolls and the Primary's own post-roll effect (AMB-13). */
export function resolveOpposed(cfg: DiceConfig, primary: number, primaryEffect: PostEffect, secondary: number): number {
  const budget = diminishBudget(cfg, secondary);
  if (primaryEffect === null) return diminishBy(cfg, primary, budget);
  if (cfg.postEffectOrder === OWN_EFFECTS_FIRST) return diminishBy(cfg, primaryEffect[primary], budget);
  return primaryEffect[diminishBy(cfg, primary, budget)];
}

/** Secondary target preference tables, indexed [magnitude * 8 + face]. */
function targetRank(valueOrder: (face: number) => number): Int32Array {
  const t = new Int32Array(32);
  for (let m = 1; m <= 3; m++) for (let face = 1; face <= 6; face++) t[m * 8 + face] = m * 8 + valueOrder(face);
  return t;
}
/** AMB-19 default: highest Magnitude first, ties to the highest Value. */
export const TARGET_GREEDY = targetRank((face) => face);
/** Highest Magnitude first, ties to the lowest Value. */
export const TARGET_GREEDY_LOW_VALUE = targetRank((face) => 7 - face);
