// The JSON Schema of unit card files. It is the one definition of the format: the loader
// validates against it, and `npm run schemas` writes it to scenarios/schemas/ for editors
// (a test checks the published copy is current).
import { TRAIT_NAMES, WEAPON_CLASSES } from './catalogue.js';

export const UNITS_FORMAT = 'jwsim-units/1';
export const MAX_RATING = 99;
/** Ratings rolled as dice pools stay within what the dice kernel supports. */
export const MAX_POOL = 12;
export const MAX_MACRO = 6;
/** Structure is also a ram pool (starting Structure + up to 2 bonus dice). */
export const MAX_STRUCTURE = 10;
export const MAX_TV = 10000;
/** Weapon lines per unit: the battle engine keeps per-line records in arrays of this size. */
export const MAX_WEAPON_LINES = 64;

const STATUS = ['SOURCED', 'INFERRED', 'PLACEHOLDER'] as const;

/** A SOURCED or INFERRED value must say where it comes from (README: unit cards). */
const SOURCE_NEEDED = { if: { required: ['status'], properties: { status: { enum: ['SOURCED', 'INFERRED'] } } }, then: { required: ['source'] } };

/**
 * A value written plainly (taken from a real card) or as { value, status, source?, note? }
 * saying where it comes from; status PLACEHOLDER marks a value jwsim invented.
 */
function valued(description: string, value: object) {
  return {
    description,
    if: { type: 'object' },
    then: {
      type: 'object',
      required: ['value', 'status'],
      additionalProperties: false,
      ...SOURCE_NEEDED,
      properties: {
        value,
        status: { enum: [...STATUS], description: 'SOURCED (printed in the rules), INFERRED (follows from a worked example), PLACEHOLDER (invented by jwsim)' },
        source: { type: 'string', minLength: 1, description: 'where the value comes from (required for SOURCED and INFERRED)' },
        note: { type: 'string' },
      },
    },
    else: value,
  };
}

/** A rating: an integer from min to max, plain or with its status. */
function rating(description: string, min = 0, max = MAX_RATING) {
  return valued(description, { type: 'integer', minimum: min, maximum: max });
}

/** A length in inches, plain or with its status. */
function inches(description: string) {
  return valued(description, { type: 'number', exclusiveMinimum: 0, maximum: 24 });
}

const trait = {
  description: 'a trait name, or { "name": ..., "value": X } for traits with a value such as Belt:X',
  if: { type: 'object' },
  then: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    ...SOURCE_NEEDED,
    properties: {
      name: { enum: [...TRAIT_NAMES] },
      value: rating('the X of traits such as Belt:X, Repair:X'),
      status: { enum: [...STATUS] },
      source: { type: 'string', minLength: 1 },
    },
  },
  else: { enum: [...TRAIT_NAMES] },
};

const weapon = {
  type: 'object',
  required: ['name', 'class'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80, description: 'the weapon line as printed, e.g. "Mass Driver"' },
    class: { enum: [...WEAPON_CLASSES], description: 'weapon class; decides special rules (rerolls, point defence against missiles)' },
    count: { type: 'integer', minimum: 1, maximum: 12, default: 1, description: 'instances on the line; each fires once and costs 1 Fire Control' },
    ac: { ...rating('dice against capital ships; omit or null when the weapon cannot attack them', 0, MAX_POOL), if: { type: 'object' }, else: { type: ['integer', 'null'], minimum: 0, maximum: MAX_POOL } },
    as: { ...rating('dice against squadrons; omit or null when the weapon cannot attack them', 0, MAX_POOL), if: { type: 'object' }, else: { type: ['integer', 'null'], minimum: 0, maximum: MAX_POOL } },
    macro: rating('Macro dice (default 0)', 0, MAX_MACRO),
    arcs: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['F', 'P', 'S', 'R', 'T'] },
      description: 'capital-ship weapon arcs: F front, P port, S starboard, R rear, T turret (any); squadron weapons fire in any direction and omit this',
    },
    traits: { type: 'array', items: trait },
    note: { type: 'string' },
  },
};

const unit = {
  type: 'object',
  required: ['id', 'name', 'faction', 'type', 'tv', 'skill', 'speed', 'fire_control', 'sensors', 'defense', 'structure', 'weapons'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'unique id used on the command line, e.g. "jovian.alexander"' },
    name: { type: 'string', minLength: 1, maxLength: 80 },
    faction: { type: 'string', minLength: 1, maxLength: 40 },
    type: { enum: ['capital_ship', 'exo_armor', 'fighter'], description: 'capital ships use AC ratings against them; exo-armor and fighters are squadrons (AS)' },
    tv: rating('Threat Value: points cost', 1, MAX_TV),
    unit_cap: rating('Unit Cap: copies allowed per 250 points (a v1.2.3 rule: recorded, not checked under v1.2.1 or v1.2.2)'),
    skill: rating('Skill: dice for Skill Tests', 0, MAX_POOL - 1),
    speed: rating('Speed in inches'),
    turns: rating('capital ships: 45-degree turns per activation'),
    thrusters: rating('capital ships: Thrusters (damageable system)'),
    fuel: rating('squadrons: Fuel'),
    fire_control: rating('Fire Control: weapon uses per activation or attack window'),
    sensors: rating('Sensors: long range reaches 3 in further per point'),
    defense: rating('Defense: point defence dice', 0, MAX_POOL),
    armor: {
      type: 'object',
      additionalProperties: false,
      required: ['fore', 'port_starboard', 'aft'],
      description: 'capital ships: Armor per arc (rules v1.2.2), subtracted from the attacker\'s Macro Pool',
      properties: { fore: rating('Fore arc', 0, MAX_MACRO), port_starboard: rating('Port and Starboard arcs', 0, MAX_MACRO), aft: rating('Aft arc', 0, MAX_MACRO) },
    },
    structure: rating('Structure (capital ships) or Damage (squadrons, v1.2.1)', 1, MAX_STRUCTURE),
    crippled_at: rating('squadrons, v1.2.1: crippled when Damage is at or below this (the small boxes); default half the starting Damage, rounded down'),
    marines: rating('capital ships: Marines'),
    hangers: rating('capital ships: Hangers capacity'),
    base: {
      type: 'object',
      additionalProperties: false,
      required: ['width_in', 'length_in'],
      description: 'capital ships: base size in inches (squadrons use a 1 in hex)',
      properties: { width_in: inches('across the heading'), length_in: inches('along the heading') },
    },
    traits: { type: 'array', items: trait },
    weapons: { type: 'array', items: weapon, maxItems: MAX_WEAPON_LINES, description: `the weapon lines of the card (at most ${MAX_WEAPON_LINES})` },
    note: { type: 'string' },
  },
  allOf: [
    {
      if: { properties: { type: { const: 'capital_ship' } }, required: ['type'] },
      then: { required: ['turns', 'thrusters', 'armor', 'base'] },
      else: { required: ['fuel'] },
    },
  ],
};

/** The fields of a unit card (placeholder paths start with one of them: "armor.fore", "weapons[0].ac"). */
export const CARD_FIELDS: readonly string[] = Object.keys(unit.properties);

export const UNITS_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://jwsim.invalid/schemas/units.schema.json',
  title: 'jwsim unit cards',
  description: 'Unit cards for jwsim, the Jovian Wars balance analyser. Ratings are integers, or { "value", "status" } objects; status PLACEHOLDER marks a value jwsim invented.',
  type: 'object',
  required: ['format', 'units'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    format: { const: UNITS_FORMAT },
    description: { type: 'string' },
    units: { type: 'array', items: unit, maxItems: 1000 },
  },
};
