// The dice kernel's view of a rules version plus interpretation options: numbers and
// tables only. src/rules compiles it (compileDiceConfig); the kernel never sees version
// names or option strings.

export const FLEX_AFTER_MACRO = 0;
export const FLEX_BEFORE_MACRO = 1;

export const BUDGET_SUM = 0;
export const BUDGET_HIGHEST = 1;

export const OWN_EFFECTS_FIRST = 0;
export const SECONDARY_FIRST = 1;

export interface DiceConfig {
  /** NEG_MACRO_LEVEL or NEG_MACRO_COUNT (dice.md AMB-10). */
  readonly negativeMacroMode: number;
  /** FLEX_AFTER_MACRO: Flex discards chosen with the Macro dice visible (AMB-04/11); or before. */
  readonly flexTiming: number;
  /** The roll owner's preference when discarding Flex dice (AMB-07); higher = preferred. */
  readonly flexRank: Readonly<Int32Array>;
  /** 1 where an outcome is rerolled when a source permits: version permission and reroll policy (AMB-16). */
  readonly rerollWhen: Readonly<Uint8Array>;
  /** At most this many rerolls of one roll whatever the number of sources (AMB-15); Infinity = one per source. */
  readonly maxRerolls: number;
  /** Several Flex grants on one roll: summed (true) or only the largest counts (AMB-05). */
  readonly flexStackingSum: boolean;
  /** Opposed roll: Diminishes granted by a Secondary D and T; a Secondary Q negates all. */
  readonly opposedDiminishPerD: number;
  readonly opposedDiminishPerT: number;
  /** BUDGET_SUM or BUDGET_HIGHEST (AMB-18). */
  readonly opposedBudget: number;
  /** Which Primary Result the Secondary diminishes: the face whose Result ranks highest here (AMB-19). */
  readonly secondaryTargetRank: Readonly<Int32Array>;
  /** OWN_EFFECTS_FIRST or SECONDARY_FIRST (AMB-13). */
  readonly postEffectOrder: number;
}
