// The JSON Schema of rules overlay files (published as scenarios/schemas/overlay.schema.json).
// `tables` mirrors the rules data that `jwsim rules --tables` prints.
import { INTERPRETATIONS } from './interpretations.js';
import { CRITICAL_EFFECTS } from './types.js';

export const OVERLAY_FORMAT = 'jwsim-overlay/1';

const int = (min: number, max: number, description?: string) => ({ type: 'integer', minimum: min, maximum: max, ...(description ? { description } : {}) });
const inches = (description: string) => ({ type: 'number', minimum: 0, maximum: 48, description });
const bonus = (description: string) => ({
  type: 'object',
  additionalProperties: false,
  description,
  properties: { base: int(-6, 6, 'base dice'), flex: int(0, 6, 'Flex dice'), macro: int(-6, 6, 'Macro dice') },
});
const byValue = (items: object, description: string) => ({ type: 'array', minItems: 6, maxItems: 6, items, description: `${description}, for Values 1 to 6` });

const dice = {
  type: 'object',
  additionalProperties: false,
  properties: {
    successTerm: { type: 'string', maxLength: 40 },
    rerollOnlyNoResult: { type: 'boolean', description: 'rerolls may only replace a [N] outcome' },
    opposedDiminishPerD: int(0, 6, 'Diminishes per Secondary [D] in an opposed roll'),
    opposedDiminishPerT: int(0, 6, 'Diminishes per Secondary [T] in an opposed roll'),
    opposedSource: { type: 'string', maxLength: 200 },
  },
};

const combat = {
  type: 'object',
  additionalProperties: false,
  properties: {
    shortRangeAC: inches('short range against capital ships'),
    shortRangeAS: inches('short range against squadrons'),
    longRangePerSensors: inches('extra long range per Sensors point'),
    sideBonus: bonus('attack bonus from a capital ship\'s port or starboard arc'),
    rearBonus: bonus('attack bonus from a capital ship\'s aft arc'),
    shortRangeBonus: bonus('attack bonus against a target within short range (own Activation window only)'),
    bombingBonus: bonus('attack bonus in a Bombing window'),
    positionalInBombing: { type: 'boolean', description: 'Bombing attacks also get the side and rear bonuses' },
    beamRerollOwnActivationOnly: { type: 'boolean', description: 'the Beam Projector reroll is not made in dogfight or bombing attacks' },
    missileSupport: int(0, 3, 'missile defence dice per friendly model with Defense >= 1 within 3" of the attacker-target line'),
    barrierReach: inches('how far from a Barrier model friends may defend with its Defense'),
    barrierCoversKinetic: { type: 'boolean', description: 'a Barrier model also defends friends within barrierReach against Mass Driver and Kinetic Cannon attacks' },
    barrierWithSupport: { type: 'boolean', description: 'other friends still add missile support to a defence made with a lent Barrier Defense' },
    armorByArc: { type: 'boolean', description: 'Armor per arc reduces the Macro Pool' },
    beltTrait: { type: 'boolean', description: 'the Belt:X trait reduces the Macro Pool of port/starboard attacks' },
    squadronDamage: {
      type: 'object',
      additionalProperties: false,
      description: 'Structure a squadron loses per Result; -1 means the Result destroys it',
      properties: { D: int(-1, 12), T: int(-1, 12), Q: int(-1, 12) },
    },
    squadronCrippling: { type: 'boolean', description: 'squadrons are Crippled (Fire Control 1) at their small damage boxes' },
    valueToRating: byValue({ enum: ['defense', 'sensors', 'thrusters'] }, 'rating a capital-ship [D] damages'),
    capitalT: { type: 'object', additionalProperties: false, properties: { structure: int(0, 6), criticals: int(0, 6) } },
    capitalQ: { type: 'object', additionalProperties: false, properties: { structure: int(0, 6), criticals: int(0, 6) } },
    criticalTable: byValue({ enum: [...CRITICAL_EFFECTS] }, 'effect of one critical hit'),
    capitalAtZero: { enum: ['crippled', 'catastrophic'] },
    catastrophicTable: {
      type: 'array',
      minItems: 4,
      maxItems: 4,
      items: { enum: ['destroyed', 'crippled'] },
      description: 'Catastrophic Damage outcome with 0, 1, 2 or 3 ratings at 0',
    },
    ramHeadOnBonus: int(0, 6, 'base dice for a head-on ram'),
    ramSideBonus: int(0, 6, 'base dice for ramming the target\'s side'),
    ramRearBonus: int(0, 6, 'base dice for ramming the target\'s rear'),
  },
};

export const OVERLAY_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://jwsim.invalid/schemas/overlay.schema.json',
  title: 'jwsim rules overlay',
  description: 'Patches the rules data and interpretation options of a rules version (jwsim --rules-overlay FILE).',
  type: 'object',
  required: ['format'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    format: { const: OVERLAY_FORMAT },
    description: { type: 'string' },
    rules: { enum: ['1.2.1', '1.2.2', 'v1.2.1', 'v1.2.2'], description: 'the rules version this overlay is written for' },
    options: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(INTERPRETATIONS.map((s) => [s.name, { enum: [...s.values], description: `${s.summary} (default ${s.default})` }])),
    },
    tables: { type: 'object', additionalProperties: false, properties: { dice, combat } },
  },
};
