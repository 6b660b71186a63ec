// Named interpretation options: every place where the published rules are silent or
// ambiguous and the reading changes a number (ids from shared/rules: dice.md AMB-nn,
// combat.md interpretation names, game.md GM-nn).
// Each has a default (the one the rules digest gives) and a closed list of values;
// `--rule NAME=VALUE` overrides one, and every output records the set in force.
import { UserError } from '../errors.js';
import type { RulesData } from './types.js';
import { listInWords } from '../words.js';

/**
 * What can read an option: `jwsim dice`, the engagement commands (and the batch experiment
 * kinds of the same names), and full battles (`jwsim battle`, batch kind "battle").
 */
export const OPTION_READERS = ['dice', 'attack', 'volley', 'ram', 'duel', 'battle'] as const;
export type OptionReader = (typeof OPTION_READERS)[number];

// Scopes, from where each option's value is consumed (a command is in scope when its code
// path reads the option for some input, whether or not a given pool or unit exercises it):
/** The dice kernel's pool and roll code (compileDiceConfig: flex, Macro, rerolls): every command rolls dice
 * through it. (A ram's pools have no reroll sources, no Macro beside Flex and at most one Flex grant,
 * so of these only flex_selector can move a ram's numbers today; the kernel still reads them all.) */
const EVERYWHERE: readonly OptionReader[] = OPTION_READERS;
/** Opposed Rolls only (src/dice/opposed.ts), made by the attack engine for point defence
 * (src/engine/attack.ts); `jwsim dice` rolls one unopposed pool, and a ram's rolls are unopposed. */
const OPPOSED_ROLLS: readonly OptionReader[] = ['attack', 'volley', 'duel', 'battle'];
/** Damage resolution (src/engine/damage.ts), which every engagement applies; `jwsim dice` deals no damage. */
const DAMAGE: readonly OptionReader[] = ['attack', 'volley', 'ram', 'duel', 'battle'];
/** Weapon attack planning (src/engine/attackPlan.ts); a ram builds its own pools. */
const WEAPON_ATTACKS: readonly OptionReader[] = ['attack', 'volley', 'duel', 'battle'];
/** Whether a Crippled ship stays in the fight: duels (src/engine/duel.ts) and battles (battleRules inertHulks). */
const FIGHTS_ON: readonly OptionReader[] = ['duel', 'battle'];
/** Ram planning (src/engine/ram.ts): `jwsim ram` and rams in battles. */
const RAMS: readonly OptionReader[] = ['ram', 'battle'];
/** The battle engine only (src/engine/battle/battleRules.ts): movement, deployment, scoring, squadron procedures. */
const BATTLES: readonly OptionReader[] = ['battle'];
/** Read by no command at present (the spec's `unread` says why); every command refuses it. */
const NOWHERE: readonly OptionReader[] = [];

export interface InterpretationSpec {
  readonly name: string;
  readonly ids: readonly string[];
  readonly values: readonly string[];
  readonly default: string;
  /** The commands and batch experiment kinds that read the option; the others refuse it. */
  readonly scope: readonly OptionReader[];
  /** With an empty scope: why nothing reads the option. */
  readonly unread?: string;
  readonly summary: string;
}

export const INTERPRETATIONS = [
  {
    name: 'flex_stacking',
    ids: ['AMB-05'],
    values: ['SUM', 'MAX'],
    default: 'SUM',
    scope: EVERYWHERE,
    summary: 'several Flex grants on one roll: SUM adds them, MAX keeps only the largest',
  },
  {
    name: 'flex_selector',
    ids: ['AMB-07'],
    values: ['MAX_LEXI', 'MOST_RESULTS'],
    default: 'MAX_LEXI',
    scope: EVERYWHERE,
    summary: 'which Flex dice the roller discards: MAX_LEXI keeps the highest Magnitudes ([T] over [D,D]), MOST_RESULTS the most Results',
  },
  {
    name: 'flex_timing',
    ids: ['AMB-04', 'AMB-11', 'AMB-23', 'AMB-24'],
    values: ['AFTER_MACRO', 'BEFORE_MACRO'],
    default: 'AFTER_MACRO',
    scope: EVERYWHERE,
    summary: 'the Flex discard is chosen after seeing the Macro dice, or before',
  },
  {
    name: 'negative_macro_mode',
    ids: ['AMB-09', 'AMB-10'],
    values: ['LEVEL', 'COUNT'],
    default: 'LEVEL',
    scope: EVERYWHERE,
    summary: 'negative Macro on a set of 5+ dice: LEVEL steps the capped Magnitude down, COUNT removes a die and re-caps',
  },
  {
    name: 'max_rerolls',
    ids: ['AMB-15'],
    values: ['PER_SOURCE', 'ONCE'],
    default: 'PER_SOURCE',
    scope: EVERYWHERE,
    summary: 'one reroll per permitting source, or at most one reroll per roll (combat.md RerollOnce)',
  },
  {
    name: 'reroll_policy',
    ids: ['AMB-16'],
    values: ['ONLY_N', 'BELOW_T', 'BELOW_Q'],
    default: 'ONLY_N',
    scope: EVERYWHERE,
    summary: 'when a permitted reroll is taken: on [N] only, or whenever the best Result is below [T] / [Q] (v1.2.1 permits [N] only)',
  },
  {
    name: 'opposed_budget',
    ids: ['AMB-18'],
    values: ['SUM', 'HIGHEST'],
    default: 'SUM',
    scope: OPPOSED_ROLLS,
    summary: 'opposed roll with several Secondary Results: every Result diminishes (SUM), or only the highest',
  },
  {
    name: 'secondary_selector',
    ids: ['AMB-19'],
    values: ['GREEDY', 'GREEDY_LOW_VALUE'],
    default: 'GREEDY',
    scope: OPPOSED_ROLLS,
    summary: 'which Primary Result the Secondary diminishes: highest Magnitude, ties to the highest (or lowest) Value',
  },
  {
    name: 'post_effect_order',
    ids: ['AMB-13'],
    values: ['OWN_FIRST', 'SECONDARY_FIRST'],
    default: 'OWN_FIRST',
    // resolveOpposed (src/dice/opposed.ts) reads it only for a Primary with its own effect;
    // every Opposed Roll jwsim makes (point defence, src/engine/attack.ts) passes none.
    scope: NOWHERE,
    unread: 'no Opposed Roll that jwsim makes has post-roll effects of its own',
    summary: "the roll's own post-roll effects (Escalate, Diminish all) before or after the Secondary's Diminishes",
  },
  {
    name: 'zero_rating_hit',
    ids: ['ZeroRatingHit'],
    values: ['NONE', 'STRUCTURE', 'NEXT_RATING'],
    default: 'NONE',
    scope: DAMAGE,
    summary: 'a capital-ship [D] on a rating already at 0: no effect, one Structure instead, or the next rating (Defense, Sensors, Thrusters)',
  },
  {
    name: 'critical_effects',
    ids: ['CritDefault'],
    values: ['TABLE', 'NONE'],
    default: 'TABLE',
    scope: DAMAGE,
    summary: "criticals use the version's critical table (a placeholder unless an overlay gives the real one), or have no effect",
  },
  {
    name: 'crippled_squadrons',
    ids: ['Crippled122Sq', 'CrippledThreshold'],
    values: ['VERSION', 'ALWAYS', 'NEVER'],
    default: 'VERSION',
    scope: DAMAGE,
    summary: 'squadrons become Crippled (Fire Control 1) at their small damage boxes as the version says (v1.2.1 yes, v1.2.2 no), always, or never',
  },
  {
    name: 'crippled_capital',
    ids: ['GM-21'],
    values: ['INERT', 'FIGHTS_ON'],
    default: 'INERT',
    scope: FIGHTS_ON,
    summary: 'a Crippled capital ship is an inert hulk (out of the fight), or fights on with Fire Control 1',
  },
  {
    name: 'ram_front_bonus',
    ids: ['RamBonus', 'GM-22'],
    values: ['HEAD_ON', 'RAMMER_ALWAYS'],
    default: 'HEAD_ON',
    scope: RAMS,
    summary: 'the ramming +1d6 "for front arc": both ships when the contact is head-on (rule text), or always the rammer (v1.2.1 example label) with no separate side/rear bonus',
  },
  {
    name: 'ram_flank_mode',
    ids: ['GM-23'],
    values: ['EXAMPLE', 'GENERAL'],
    default: 'EXAMPLE',
    scope: RAMS,
    summary: "a ram into the side or rear: the ram bonus table (+1 / +2 base dice, from the worked example), or the version's attack bonus for that arc",
  },
  {
    name: 'evasive_penalty',
    ids: ['EvasivePenalty'],
    values: ['MACRO_1', 'NONE'],
    default: 'MACRO_1',
    scope: WEAPON_ATTACKS,
    summary: 'attacks at long range on a model with the Evasive trait lose 1 Macro die, or nothing',
  },
  {
    name: 'armor_vs_missiles',
    ids: ['combat.md §5.2'],
    values: ['YES', 'NO'],
    default: 'YES',
    scope: WEAPON_ATTACKS,
    summary: 'Armor also reduces the Macro Pool of missile attacks',
  },
  {
    name: 'offtable_rule',
    ids: ['GM-15'],
    values: ['CLAMP', 'WITHDRAWN', 'DESTROYED'],
    default: 'CLAMP',
    scope: BATTLES,
    summary: 'battles: a move that would take a base off the table stops at the edge (CLAMP), or the model leaves the table as Withdrawn, or as Destroyed (2017 beta)',
  },
  {
    name: 'pivot_point',
    ids: ['GM-55'],
    values: ['FRONT_CORNER', 'CENTRE'],
    default: 'FRONT_CORNER',
    scope: BATTLES,
    summary: 'battles: capital ships turn by pivoting on the front corner on the side of the turn, or on the centre of the base',
  },
  {
    name: 'squadron_contact_122',
    ids: ['GM-14'],
    values: ['NO_TOUCH', 'ALLOW_TOUCH'],
    default: 'NO_TOUCH',
    scope: BATTLES,
    summary: 'battles: where the version drops the 1" spacing (v1.2.2), a squadron still may not end a move touching another base, or may',
  },
  {
    name: 'zone_containment',
    ids: ['GM-82'],
    values: ['WHOLE_BASE', 'ANY_PART'],
    default: 'WHOLE_BASE',
    scope: BATTLES,
    summary: 'battles: a model deploys in a strip or quadrant zone when its whole base is inside, or any part of it',
  },
  {
    name: 'fleet_deploy_capitals',
    ids: ['GM-85'],
    values: ['VERSION', 'ALTERNATE_ONE', 'BLOCK'],
    default: 'VERSION',
    scope: BATTLES,
    summary: 'battles: the capital ships of the first Fleet Deployment phase as the version says (v1.2.1 in blocks, v1.2.2 one ship at a time), always alternating one ship at a time, or always in blocks; squadrons follow the version',
  },
  {
    name: 'reserve_vp',
    ids: ['GM-31'],
    values: ['FULL', 'NONE'],
    default: 'FULL',
    scope: BATTLES,
    summary: 'battles, v1.2.2 scoring: models still In Reserve at the end count at full value (literal reading) or not at all (blocks hoarding)',
  },
  {
    name: 'vp_rounding',
    ids: ['GM-94'],
    values: ['PER_MODEL_UP', 'NONE'],
    default: 'PER_MODEL_UP',
    scope: BATTLES,
    summary: 'battles: fractional Victory Points (a Withdrawn model) are rounded up per model, or kept as fractions',
  },
  {
    name: 'fuel_refill',
    ids: ['GM-13'],
    values: ['END_OF_OWN_ACTIVATION', 'END_PHASE'],
    default: 'END_OF_OWN_ACTIVATION',
    scope: BATTLES,
    summary: 'battles: a squadron\'s Fuel is replenished at the end of its own activation (v1.2.2 text), or in the End Phase (v1.2.4)',
  },
  {
    name: 'squadron_base_shape',
    ids: ['GM-45'],
    values: ['HEX', 'CIRCLE'],
    default: 'HEX',
    scope: BATTLES,
    summary: 'battles: a squadron base is a 1" hexagon with two sides parallel to the x axis (HEX), or a 1"-diameter disc (CIRCLE, the digest\'s faster approximation)',
  },
  {
    name: 'withdraw_allows_attacks',
    ids: ['GM-16'],
    values: ['NO', 'YES'],
    default: 'NO',
    scope: BATTLES,
    summary: 'battles: a model that declares Withdraw makes no attacks that activation (NO), or attacks as usual (YES; the digest gives no firing point, so jwsim fires from where it starts, before the move that takes it off the table)',
  },
  {
    name: 'crippled_counts_as_lost',
    ids: ['GM-52'],
    values: ['NO', 'YES'],
    default: 'NO',
    scope: BATTLES,
    summary: 'battles, the immediate end when a fleet has no capital ship left (v1.2.1): a Crippled capital ship still counts as one (NO), or counts as lost like a Destroyed one (YES). A scenario\'s End Phase check (early_end no_capital_ships) counts inert hulks as out either way, so YES mostly moves that end from the End Phase to the moment of crippling',
  },
  {
    name: 'boost_min_move',
    ids: ['GM-56'],
    values: ['HALF_BOOSTED', 'HALF_PRINTED'],
    default: 'HALF_BOOSTED',
    scope: BATTLES,
    summary: 'battles, capital-ship Boost (v1.2.1): the minimum move is half of the doubled Speed, i.e. the printed Speed (HALF_BOOSTED), or stays half the printed Speed (HALF_PRINTED)',
  },
  {
    name: 'boost_halves_fc',
    ids: ['GM-60'],
    values: ['ALL', 'CAPITAL_ONLY'],
    default: 'ALL',
    scope: BATTLES,
    summary: 'battles: Boost halves Fire Control (rounded up) for capital ships and squadrons alike (ALL), or for capital ships only (CAPITAL_ONLY: a boosting squadron keeps its full Fire Control)',
  },
  {
    name: 'station_keep_target_flex',
    ids: ['GM-63', 'StationKeepFlex122'],
    values: ['VERSION', 'NONE', 'ONE'],
    default: 'VERSION',
    scope: BATTLES,
    summary: 'battles: Flex dice for attacks on a ship that declared Station Keep this turn: as the version says (v1.2.1 none, v1.2.2 +1, in every Attack Window), none in any version, or +1 in any version',
  },
  {
    name: 'reserve_embark_rule',
    ids: ['GM-86'],
    values: ['CARRIER_IN_ZONE', 'ANY_CARRIER', 'TABLE_ONLY'],
    default: 'CARRIER_IN_ZONE',
    scope: BATTLES,
    summary: "battles, Fleet Deployment after the first Deployment Phase: a reserve squadron deploys in its zone or Embarked on a friendly carrier with room whose base lies wholly in the zone (CARRIER_IN_ZONE), on such a carrier anywhere on the table (ANY_CARRIER), or only on the table (TABLE_ONLY, never Embarked)",
  },
  {
    name: 'embarked_on_captured',
    ids: ['GM-76'],
    values: ['DESTROYED', 'PASS_TO_CAPTOR'],
    default: 'DESTROYED',
    scope: BATTLES,
    summary: "battles: models Embarked on a carrier that is Captured are Destroyed (DESTROYED), or stay aboard and pass to the captor with the carrier (PASS_TO_CAPTOR; jwsim's reading: they count as Captured like the ship, worth x1.5 to the captor, and serve it from the next turn)",
  },
  {
    name: 'embarked_activation',
    ids: ['GM-18'],
    values: ['OWN_ACTIVATION', 'CARRIER_ACTIVATION'],
    default: 'OWN_ACTIVATION',
    scope: BATTLES,
    summary: "battles: an Embarked model launches in its own activation (OWN_ACTIVATION), or launches during its carrier's activation and activates normally later that turn (CARRIER_ACTIVATION; the digest gives no moment, so jwsim launches every model aboard that has not activated this turn at the end of the carrier's activation, beside the carrier where it then stands; aboard, a model is not eligible to activate)",
  },
  {
    name: 'boarding_combat_timing',
    ids: ['GM-20', 'BoardedFight122'],
    values: ['START_OF_TARGET_ACTIVATION', 'END_PHASE'],
    default: 'START_OF_TARGET_ACTIVATION',
    scope: BATTLES,
    summary: "battles, Boarded state: Boarders and Marines fight once per turn at the start of the boarded ship's activation, or in the End Phase (END_PHASE; jwsim's reading: first thing in the End Phase, before objectives are scored, every Boarded ship on the table, the Initiative side's first)",
  },
  {
    name: 'boarding_pd_repel',
    ids: ['PDRepel121'],
    values: ['ANY_SUCCESS', 'CASUALTIES_ONLY'],
    default: 'ANY_SUCCESS',
    scope: BATTLES,
    summary: 'battles, v1.2.1 boarding raid: any [D+] of the ship\'s point defence drives the boarders off (besides the casualties), or the point defence only causes casualties',
  },
  {
    name: 'bombing_pd_drive_off',
    ids: ['NoDriveOff122'],
    values: ['NO', 'T_PLUS'],
    default: 'NO',
    scope: BATTLES,
    summary: 'battles: a bomber\'s point defence only deals damage, or a [T+] result also drives the bomber off (it makes no attack in that run and returns to base, as an Assault is driven off)',
  },
  {
    name: 'cap_boost_mode',
    ids: ['GM-09'],
    values: ['VERSION', 'DISABLED', 'DOUBLE_SPEED_HALF_FC', 'V121_DOUBLE_SPEED'],
    default: 'VERSION',
    scope: BATTLES,
    summary: 'battles: capital-ship Boost as the version says (v1.2.1 yes, v1.2.2 none), never, with Speed doubled inside the version\'s min/max move formulas, or as v1.2.1 (up to twice Speed); Fire Control is halved whenever a capital ship Boosts',
  },
  {
    name: 'enable_repair',
    ids: ['GM-19'],
    values: ['NO', 'YES'],
    default: 'NO',
    scope: BATTLES,
    summary: 'battles: the Repair action (rules not retrieved) is off, or a stub: a model with the Repair trait takes a Skill Test and on [D+] restores one lost box to itself (a knocked-out System trait, else a lost rating point, else 1 Structure)',
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
  const given = new Map<string, string>();
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
    // One list sets an option once: two values would leave the reader guessing which counts.
    const before = given.get(spec.name);
    if (before !== undefined && before !== match) throw new UserError(`${where}: ${spec.name} is given twice, as ${before} and as ${match}; give it once`);
    given.set(spec.name, match);
    out[name] = match;
  }
  return out as InterpretationOptions;
}

const READER_NOUNS: Record<OptionReader, string> = { dice: 'dice queries', attack: 'attacks', volley: 'volleys', ram: 'rams', duel: 'duels', battle: 'full battles' };

/** What an option's scope covers, e.g. 'full battles (jwsim battle; batch kind "battle")'. */
export function scopeText(scope: readonly OptionReader[]): string {
  if (scope.length === 0) return 'nothing jwsim runs at present';
  if (scope.length === OPTION_READERS.length) return 'every command (jwsim dice, attack, volley, ram, duel, battle; every batch kind)';
  const kinds = scope.filter((r) => r !== 'dice').map((r) => `"${r}"`);
  const batch = kinds.length ? `; batch kind${kinds.length > 1 ? 's' : ''} ${kinds.join(', ')}` : '';
  return `${listInWords(scope.map((r) => READER_NOUNS[r]), 'and')} (${scope.map((r) => `jwsim ${r}`).join(', ')}${batch})`;
}

/**
 * Why `command` refuses option `name` (known, and outside its scope): what reads it instead,
 * or why nothing does. E.g. "this option only affects full battles (...)".
 */
export function outOfScopeText(name: string): string {
  const spec: InterpretationSpec | undefined = findSpec(name);
  if (!spec) throw new Error(`no interpretation option ${name}`);
  return spec.scope.length ? `this option only affects ${scopeText(spec.scope)}` : `no jwsim command reads this option at present (${spec.unread ?? 'nothing consults it'})`;
}

/** The scope of a known option (the name as jwsim spells it). */
export function optionScope(name: string): readonly OptionReader[] {
  const spec = findSpec(name);
  if (!spec) throw new Error(`no interpretation option ${name}`);
  return spec.scope;
}

/**
 * Refuses NAME=VALUE assignments (already checked by applyRuleAssignments) that `command`
 * does not read: `reads` is what it runs (a dice query, an engagement kind, battles). One
 * problem is the message; further ones follow as details.
 */
export function refuseOutOfScope(assignments: readonly string[], reads: OptionReader, command: string, where = '--rule'): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const a of assignments) {
    const spec = findSpec(a.slice(0, a.indexOf('=')).trim());
    if (!spec || spec.scope.includes(reads) || seen.has(spec.name)) continue;
    seen.add(spec.name);
    problems.push(`${where} ${spec.name}: ${outOfScopeText(spec.name)}; ${command} does not read it`);
  }
  if (problems.length) throw new UserError(problems[0], problems.slice(1));
}

/** GM-14: the version drops the 1" spacing of squadrons (v1.2.2), the only case where squadron_contact_122 applies. */
export function spacingDropped(d: RulesData): boolean {
  return d.game.squadronCapitalSpacing === 0 && d.game.squadronEnemySpacing === 0;
}

/**
 * Options whose every reading is gated by rules data (or another option) that, when it is so,
 * leaves the option nothing to change: why, or null when the option can matter. Each gate is
 * the condition around the option's only reads in the code named.
 */
const IDLE_UNDER: Partial<Record<string, (data: RulesData, options: InterpretationOptions) => string | null>> = {
  // compileDiceConfig: a reroll is permitted only on [N] there, and every policy rerolls [N].
  reroll_policy: (d) => (d.dice.rerollOnlyNoResult ? 'these rules let a reroll replace only [N], which every policy rerolls' : null),
  // damage.ts and the duel/battle engines read it only for a Crippled capital ship.
  crippled_capital: (d) => (d.combat.capitalAtZero !== 'crippled' && d.combat.catastrophicTable.every((o) => o === 'destroyed') ? 'no capital ship can be Crippled under these rules: one at 0 Structure is Destroyed' : null),
  // firing.ts afterDamage: read only where a game ends as soon as a fleet has no capital ship left.
  crippled_counts_as_lost: (d) => (d.game.immediateEndWithoutCapitals ? null : 'these rules do not end a game when a fleet has no capital ship left'),
  // manoeuvre.ts moveTiers: read only for the v1.2.1 capital-ship Boost.
  boost_min_move: (d, o) => ((o.cap_boost_mode === 'VERSION' ? d.game.capitalBoost : o.cap_boost_mode === 'V121_DOUBLE_SPEED') ? null : 'capital ships make no v1.2.1 Boost under these rules (cap_boost_mode)'),
  // battleRules: point defence repels boarders only where the version's boarding lets it.
  boarding_pd_repel: (d) => (d.game.boarding.pdRepels ? null : "these rules' boarding gives point defence no chance to repel boarders"),
  // battleRules: squadrons may touch only where the version drops the squadrons' 1" spacing.
  squadron_contact_122: (d) => (spacingDropped(d) ? null : 'these rules keep squadrons 1" from capital ships and enemies, and no squadron may end a move touching another base'),
  // game.ts victoryPoints: the multiplier is read only where a side scores its own survivors.
  reserve_vp: (d) => (d.game.scoring === 'own_survivors' ? null : 'these rules score Victory Points from enemy losses, to which a model still In Reserve adds nothing'),
};

/** Why option `name` can change nothing under rules `data` (with `options` in force), or null when it can. */
export function idleUnder(name: string, data: RulesData, options: InterpretationOptions): string | null {
  return IDLE_UNDER[name]?.(data, options) ?? null;
}

/**
 * Of `changed` (NAME=VALUE, differing from the defaults), those that cannot change this run,
 * with why: read by none of what it runs (`reads`, named `command` in the reason; an overlay
 * may carry options for other commands), or idle under the rules data in force.
 */
export function withoutEffect(changed: readonly string[], reads: readonly OptionReader[] | null, data: RulesData, options: InterpretationOptions, command: string): Array<{ option: string; why: string }> {
  const out: Array<{ option: string; why: string }> = [];
  for (const a of changed) {
    const spec = findSpec(a.slice(0, a.indexOf('=')));
    if (!spec) continue;
    const why = reads !== null && !spec.scope.some((r) => reads.includes(r)) ? `not read by ${command}` : idleUnder(spec.name, data, options);
    if (why) out.push({ option: a, why });
  }
  return out;
}

/** The options that differ from their defaults, as NAME=VALUE strings. */
export function changedOptions(options: InterpretationOptions): string[] {
  return INTERPRETATIONS.filter((s) => options[s.name] !== s.default).map((s) => `${s.name}=${options[s.name]}`);
}
