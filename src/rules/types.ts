// A rules version is data plus small hooks. Engines read the data; they never ask which
// version they are running.

export interface DiceRules {
  /** What the rules call a level of success ("degree of success" in v1.2.1, "Magnitude" from v1.2.2). */
  readonly successTerm: string;
  /** Rerolls may only replace a [N] outcome (v1.2.1), or any outcome the roll's owner wishes to reroll. */
  readonly rerollOnlyNoResult: boolean;
  /** Opposed rolls: Diminishes per Secondary [D] and [T]; a Secondary [Q+] negates all. */
  readonly opposedDiminishPerD: number;
  readonly opposedDiminishPerT: number;
  /** Where the opposed-roll table comes from, printed with results that use it. */
  readonly opposedSource: string;
}

export interface RulesData {
  readonly dice: DiceRules;
}

export interface RulesChange {
  /** One sentence, printed in outputs that use the version. */
  readonly summary: string;
  /** Where the change is stated (version and page). */
  readonly source: string;
  readonly apply: (data: RulesData) => RulesData;
}

export interface RulesVersion {
  readonly id: string;
  readonly title: string;
  /** The version this one is derived from; null for a version written out in full. */
  readonly parent: string | null;
  /** What differs from the parent; empty only for a version written out in full. */
  readonly changes: readonly RulesChange[];
  readonly data: RulesData;
}
