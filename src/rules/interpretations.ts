// Named interpretation options: every place where the published rules are silent or
// ambiguous and the reading changes a number (shared/rules/dice.md §8, ids AMB-nn).
// Each has a default (the one the rules digest gives) and a closed list of values;
// `--rule NAME=VALUE` overrides one, and every output records the set in force.
import { UserError } from '../errors.js';

export interface InterpretationSpec {
  readonly name: string;
  readonly ids: readonly string[];
  readonly values: readonly string[];
  readonly default: string;
  readonly summary: string;
}

export const INTERPRETATIONS = [
  {
    name: 'flex_stacking',
    ids: ['AMB-05'],
    values: ['SUM', 'MAX'],
    default: 'SUM',
    summary: 'several Flex grants on one roll: SUM adds them, MAX keeps only the largest',
  },
  {
    name: 'flex_selector',
    ids: ['AMB-07'],
    values: ['MAX_LEXI', 'MOST_RESULTS'],
    default: 'MAX_LEXI',
    summary: 'which Flex dice the roller discards: MAX_LEXI keeps the highest Magnitudes ([T] over [D,D]), MOST_RESULTS the most Results',
  },
  {
    name: 'flex_timing',
    ids: ['AMB-04', 'AMB-11', 'AMB-23', 'AMB-24'],
    values: ['AFTER_MACRO', 'BEFORE_MACRO'],
    default: 'AFTER_MACRO',
    summary: 'the Flex discard is chosen after seeing the Macro dice, or before',
  },
  {
    name: 'negative_macro_mode',
    ids: ['AMB-09', 'AMB-10'],
    values: ['LEVEL', 'COUNT'],
    default: 'LEVEL',
    summary: 'negative Macro on a set of 5+ dice: LEVEL steps the capped Magnitude down, COUNT removes a die and re-caps',
  },
  {
    name: 'max_rerolls',
    ids: ['AMB-15'],
    values: ['PER_SOURCE', 'ONCE'],
    default: 'PER_SOURCE',
    summary: 'one reroll per permitting source, or at most one reroll per roll (combat.md RerollOnce)',
  },
  {
    name: 'reroll_policy',
    ids: ['AMB-16'],
    values: ['ONLY_N', 'BELOW_T', 'BELOW_Q'],
    default: 'ONLY_N',
    summary: 'when a permitted reroll is taken: on [N] only, or whenever the best Result is below [T] / [Q] (v1.2.1 permits [N] only)',
  },
  {
    name: 'opposed_budget',
    ids: ['AMB-18'],
    values: ['SUM', 'HIGHEST'],
    default: 'SUM',
    summary: 'opposed roll with several Secondary Results: every Result diminishes (SUM), or only the highest',
  },
  {
    name: 'secondary_selector',
    ids: ['AMB-19'],
    values: ['GREEDY', 'GREEDY_LOW_VALUE'],
    default: 'GREEDY',
    summary: 'which Primary Result the Secondary diminishes: highest Magnitude, ties to the highest (or lowest) Value',
  },
  {
    name: 'post_effect_order',
    ids: ['AMB-13'],
    values: ['OWN_FIRST', 'SECONDARY_FIRST'],
    default: 'OWN_FIRST',
    summary: "the roll's own post-roll effects (Escalate, Diminish all) before or after the Secondary's Diminishes",
  },
] as const satisfies readonly InterpretationSpec[];

type Spec = (typeof INTERPRETATIONS)[number];
export type InterpretationName = Spec['name'];
export type InterpretationOptions = { readonly [S in Spec as S['name']]: S['values'][number] };

export const DEFAULT_INTERPRETATIONS = Object.fromEntries(INTERPRETATIONS.map((s) => [s.name, s.default])) as InterpretationOptions;

function findSpec(name: string): Spec | undefined {
  return INTERPRETATIONS.find((s) => s.name === name);
}

/** Apply NAME=VALUE assignments (from --rule or an overlay) on top of `base`. */
export function applyRuleAssignments(assignments: readonly string[], base: InterpretationOptions = DEFAULT_INTERPRETATIONS, where = '--rule'): InterpretationOptions {
  const out: Record<string, string> = { ...base };
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new UserError(`${where}: expected NAME=VALUE, got "${a}"; names: ${INTERPRETATIONS.map((s) => s.name).join(', ')}`);
    const name = a.slice(0, eq).trim();
    const value = a.slice(eq + 1).trim();
    const spec = findSpec(name);
    if (!spec) throw new UserError(`${where}: unknown rule option "${name}"; allowed: ${INTERPRETATIONS.map((s) => s.name).join(', ')}`);
    const allowed: readonly string[] = spec.values;
    const match = allowed.find((v) => v.toLowerCase() === value.toLowerCase());
    if (!match) throw new UserError(`${where}: ${name}: "${value}" is not one of ${allowed.join(', ')}`);
    out[name] = match;
  }
  return out as InterpretationOptions;
}

/** The options that differ from their defaults, as NAME=VALUE strings. */
export function changedOptions(options: InterpretationOptions): string[] {
  return INTERPRETATIONS.filter((s) => options[s.name] !== s.default).map((s) => `${s.name}=${options[s.name]}`);
}
