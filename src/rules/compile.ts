// Compile a rules version and interpretation options into the dice kernel's numeric config.
import { BUDGET_HIGHEST, BUDGET_SUM, FLEX_AFTER_MACRO, FLEX_BEFORE_MACRO, OWN_EFFECTS_FIRST, SECONDARY_FIRST, type DiceConfig } from '../dice/config.js';
import { TARGET_GREEDY, TARGET_GREEDY_LOW_VALUE } from '../dice/opposed.js';
import { BEST_MAG, MAG_Q, MAG_T, NO_RESULT, OUTCOME_CODES } from '../dice/outcome.js';
import { FLEX_SELECTORS } from '../dice/selectors.js';
import { NEG_MACRO_COUNT, NEG_MACRO_LEVEL } from '../dice/sets.js';
import type { InterpretationOptions } from './interpretations.js';
import type { CombatRules, RulesVersion } from './types.js';

const REROLL_POLICY: Record<InterpretationOptions['reroll_policy'], (code: number) => boolean> = {
  ONLY_N: (code) => code === NO_RESULT,
  BELOW_T: (code) => BEST_MAG[code] < MAG_T,
  BELOW_Q: (code) => BEST_MAG[code] < MAG_Q,
};

export function compileDiceConfig(version: RulesVersion, options: InterpretationOptions): DiceConfig {
  const rules = version.data.dice;
  const wants = REROLL_POLICY[options.reroll_policy];
  const rerollWhen = new Uint8Array(OUTCOME_CODES);
  for (let code = 0; code < OUTCOME_CODES; code++) {
    const permitted = rules.rerollOnlyNoResult ? code === NO_RESULT : true;
    rerollWhen[code] = permitted && wants(code) ? 1 : 0;
  }
  return {
    negativeMacroMode: options.negative_macro_mode === 'COUNT' ? NEG_MACRO_COUNT : NEG_MACRO_LEVEL,
    flexTiming: options.flex_timing === 'BEFORE_MACRO' ? FLEX_BEFORE_MACRO : FLEX_AFTER_MACRO,
    flexRank: FLEX_SELECTORS[options.flex_selector],
    rerollWhen,
    maxRerolls: options.max_rerolls === 'ONCE' ? 1 : Infinity,
    flexStackingSum: options.flex_stacking === 'SUM',
    opposedDiminishPerD: rules.opposedDiminishPerD,
    opposedDiminishPerT: rules.opposedDiminishPerT,
    opposedBudget: options.opposed_budget === 'HIGHEST' ? BUDGET_HIGHEST : BUDGET_SUM,
    secondaryTargetRank: options.secondary_selector === 'GREEDY_LOW_VALUE' ? TARGET_GREEDY_LOW_VALUE : TARGET_GREEDY,
    postEffectOrder: options.post_effect_order === 'SECONDARY_FIRST' ? SECONDARY_FIRST : OWN_EFFECTS_FIRST,
  };
}

/** Numeric switches of the engagement engines, from the interpretation options. */
export interface EngagementFlags {
  /** ZeroRatingHit: 0 no effect, 1 one Structure instead, 2 the next rating. */
  readonly zeroRatingHit: number;
  readonly criticals: boolean;
  readonly squadronCrippling: boolean;
  readonly crippledCapitalInert: boolean;
  readonly ramFrontAlways: boolean;
  readonly ramFlankGeneral: boolean;
  /** Macro dice lost by long-range attacks on an Evasive model. */
  readonly evasivePenalty: number;
  readonly armorVsMissiles: boolean;
}

/** Everything an engine needs about the rules it runs under. */
export interface CompiledRules {
  readonly version: RulesVersion;
  readonly options: InterpretationOptions;
  readonly dice: DiceConfig;
  readonly combat: CombatRules;
  readonly flags: EngagementFlags;
  /** Placeholder rules data in force: data path -> why it is a placeholder. */
  readonly placeholders: Readonly<Record<string, string>>;
}

export function compileRules(version: RulesVersion, options: InterpretationOptions): CompiledRules {
  const combat = version.data.combat;
  return {
    version,
    options,
    dice: compileDiceConfig(version, options),
    combat,
    flags: {
      zeroRatingHit: options.zero_rating_hit === 'STRUCTURE' ? 1 : options.zero_rating_hit === 'NEXT_RATING' ? 2 : 0,
      criticals: options.critical_effects === 'TABLE',
      squadronCrippling: options.crippled_squadrons === 'VERSION' ? combat.squadronCrippling : options.crippled_squadrons === 'ALWAYS',
      crippledCapitalInert: options.crippled_capital === 'INERT',
      ramFrontAlways: options.ram_front_bonus === 'RAMMER_ALWAYS',
      ramFlankGeneral: options.ram_flank_mode === 'GENERAL',
      evasivePenalty: options.evasive_penalty === 'MACRO_1' ? 1 : 0,
      armorVsMissiles: options.armor_vs_missiles === 'YES',
    },
    placeholders: version.data.placeholders,
  };
}
