// What a battle reads about the rules in force: the version's whole-game data (RulesData.game,
// game.md §4–§12) plus the interpretation options that concern battles. Engines never ask
// which version they run; the versions differ only in this data.
import type { CompiledRules } from '../../rules/compile.js';
import type { GameRules } from '../../rules/types.js';

export interface BattleRules extends GameRules {
  /** Crippled capital ships are inert hulks (GM-21, option crippled_capital). */
  readonly inertHulks: boolean;
}

export function battleRules(rules: CompiledRules): BattleRules {
  return { ...rules.version.data.game, inertHulks: rules.flags.crippledCapitalInert };
}
