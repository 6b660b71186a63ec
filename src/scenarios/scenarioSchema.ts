// The JSON Schema of battle scenario files (published as scenarios/schemas/scenario.schema.json)
// and of the fleet files a scenario side may point to. Checks a schema cannot express (unit ids,
// objectives on the table, fleet composition) are made by src/scenarios/scenario.ts.

export const SCENARIO_FORMAT = 'jwsim-scenario/1';

/** Models (counts expanded) one side may field. */
export const MAX_MODELS_PER_SIDE = 60;
export const MAX_COUNT_PER_ENTRY = 50;
export const MAX_TURNS = 50;
export const TABLE_MIN_IN = 12;
export const TABLE_MAX_IN = 120;

/** Defaults applied by the loader when a field is absent. */
export const SCENARIO_DEFAULTS = {
  table: { width: 48, height: 48 },
  points: 250,
  stripDepth: 12,
  turns: 7,
  initiative: 'random',
  objectiveRadius: 3,
  objectivePoints: 1,
  objectiveFromTurn: 1,
  sideNames: ['A', 'B'],
} as const;

const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

const fleetEntry = {
  type: 'object',
  required: ['unit'],
  additionalProperties: false,
  description: 'some models of one unit',
  properties: {
    unit: { type: 'string', minLength: 1, description: 'unit id from the roster (see `jwsim units`)' },
    count: { type: 'integer', minimum: 1, maximum: MAX_COUNT_PER_ENTRY, default: 1, description: 'how many models of this unit' },
  },
};

const fleet = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_MODELS_PER_SIDE,
  items: fleetEntry,
  description: `the fleet, as unit id + count entries (at most ${MAX_MODELS_PER_SIDE} models in all)`,
};

/** A file named by a side's `fleet_file`. */
export const FLEET_FILE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'jwsim fleet',
  description: 'A fleet list that scenario sides can share through `fleet_file`.',
  type: 'object',
  required: ['fleet'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'editor hint, ignored' },
    description: { type: 'string', description: 'free text, ignored' },
    fleet,
  },
};

/** Scripted policy orders: what `do`, `target`, `range` and `units` accept. */
export const ORDER_KINDS = ['hold', 'close', 'withdraw', 'objective', 'screen'] as const;
export const ORDER_TARGETS = ['largest', 'nearest', 'weakest', 'capital', 'squadron'] as const;
export const ORDER_RANGES = ['long', 'short'] as const;
export const ORDER_UNITS = ['capital', 'squadron', 'all'] as const;
export const SCREEN_DEFAULT_IN = 4;
export const SCREEN_MAX_IN = 24;
export const MAX_ORDERS = 50;

const order = {
  type: 'object',
  required: ['turns', 'do'],
  additionalProperties: false,
  description: 'one order of the scripted policy: what the models it covers do in some Game Turns',
  properties: {
    turns: { type: 'string', minLength: 1, description: 'the turns it applies to: "N" or "N-M" (inclusive, within the scenario\'s turns); two orders covering the same models may not share a turn' },
    do: {
      enum: [...ORDER_KINDS],
      description: 'hold: keep at the `range` band from the nearest enemy and fire; close: move to short range of the `target` and focus it; withdraw: the models (capital ships and squadrons) declare Withdraw once they can reach their own edge, else head for it; objective: move onto the nearest objective marker and stay (no strikes that would leave it); screen: squadrons keep within `distance` of the nearest friendly capital ship',
    },
    target: { enum: [...ORDER_TARGETS], description: 'close and hold: the enemy to focus: largest (highest TV), nearest, weakest (least Structure left), capital, squadron (close default: nearest; hold default: the best shot)' },
    range: { enum: [...ORDER_RANGES], default: 'long', description: 'hold: long (the edge of the model\'s own long range) or short (just inside short range)' },
    units: { enum: [...ORDER_UNITS], default: 'all', description: 'which of the side\'s models the order covers' },
    distance: { type: 'number', minimum: 0, maximum: SCREEN_MAX_IN, default: SCREEN_DEFAULT_IN, description: 'screen: inches (base to base) a squadron stays within of the nearest friendly capital ship' },
  },
};

const side = {
  type: 'object',
  required: ['policy'],
  additionalProperties: false,
  description: 'one player: a fleet (either `fleet` or `fleet_file`, exactly one) and the policy that plays it',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64, description: 'shown in reports (default "A" / "B")' },
    fleet,
    fleet_file: { type: 'string', minLength: 1, description: 'a JSON file { "fleet": [...] }, relative to the scenario file; instead of `fleet`' },
    policy: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      description: 'the decision policy that plays this side',
      properties: {
        name: { enum: ['aggressive', 'standoff', 'random', 'scripted', 'lookahead'], description: 'policy module' },
        params: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
          additionalProperties: { type: 'number' },
          description: 'policy parameters, name -> number (each policy checks which names it knows)',
        },
        orders: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_ORDERS,
          items: order,
          description: 'scripted policy only: orders by turn; models and turns no order covers play as aggressive',
        },
      },
    },
  },
};

const objective = {
  type: 'object',
  required: ['id', 'x', 'y'],
  additionalProperties: false,
  description: 'an objective marker: at each End Phase from `from_turn` on, the side holding it (own models within `radius`, no enemy) scores `points` OP',
  properties: {
    id: { type: 'string', pattern: ID_PATTERN, description: 'marker id, unique in the scenario' },
    x: { type: 'number', minimum: 0, maximum: TABLE_MAX_IN, description: 'inches from the left table edge (0..table width)' },
    y: { type: 'number', minimum: 0, maximum: TABLE_MAX_IN, description: 'inches from the y = 0 edge (0..table height)' },
    radius: { type: 'number', minimum: 0, maximum: 24, default: SCENARIO_DEFAULTS.objectiveRadius, description: 'holding distance, inches, to the nearest point of a base' },
    points: { type: 'integer', minimum: 1, maximum: 100, default: SCENARIO_DEFAULTS.objectivePoints, description: 'Objective Points per End Phase for holding it' },
    from_turn: { type: 'integer', minimum: 1, maximum: MAX_TURNS, default: SCENARIO_DEFAULTS.objectiveFromTurn, description: 'first Game Turn whose End Phase scores it' },
  },
};

export const SCENARIO_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://jwsim.invalid/schemas/scenario.schema.json',
  title: 'jwsim scenario',
  description: 'A battle scenario for `jwsim battle`: table, point level, deployment zone and type, turns, objectives, early end, and the two sides (fleet and policy).',
  type: 'object',
  required: ['format', 'id', 'deployment', 'sides'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', description: 'editor hint, ignored' },
    format: { const: SCENARIO_FORMAT, description: 'file format and version' },
    id: { type: 'string', pattern: ID_PATTERN, description: 'scenario id, used in reports and random stream names' },
    description: { type: 'string', description: 'free text shown in reports' },
    units: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'unit card files, relative to the scenario file (default: the sample roster)' },
    table: {
      type: 'object',
      required: ['width', 'height'],
      additionalProperties: false,
      description: 'table size in inches (default 48 x 48, GM-01)',
      properties: {
        width: { type: 'number', minimum: TABLE_MIN_IN, maximum: TABLE_MAX_IN, description: 'inches along x' },
        height: { type: 'number', minimum: TABLE_MIN_IN, maximum: TABLE_MAX_IN, description: 'inches along y; standard zones lie along the y = 0 and y = height edges' },
      },
    },
    points: { type: 'integer', minimum: 1, maximum: 10000, default: SCENARIO_DEFAULTS.points, description: "the game's point level; fleets are validated against it (game.md §11)" },
    deployment: {
      type: 'object',
      required: ['zone', 'type'],
      additionalProperties: false,
      description: 'deployment zone and deployment type (game.md §12.2)',
      properties: {
        zone: { enum: ['standard', 'beacon', 'corner'], description: 'standard: strips along opposite edges; beacon: within 3" of the side\'s four beacons; corner: diagonally opposite quadrants' },
        type: { enum: ['fleet', 'escalating'], description: 'fleet: all capital ships, then squadrons; escalating: one capital ship and two squadrons each in the first phase' },
        strip_depth: { type: 'number', minimum: 1, maximum: TABLE_MAX_IN / 2, default: SCENARIO_DEFAULTS.stripDepth, description: 'standard zones: strip depth in inches, at most half the table height (ignored by other zones)' },
      },
    },
    turns: { type: 'integer', minimum: 1, maximum: MAX_TURNS, default: SCENARIO_DEFAULTS.turns, description: 'Game Turns before the game ends' },
    initiative: { enum: ['a', 'b', 'random'], default: SCENARIO_DEFAULTS.initiative, description: 'who holds Initiative: side a, side b, or a random choice per game' },
    objectives: { type: 'array', maxItems: 32, items: objective, description: 'objective markers (default none: Victory Points decide)' },
    early_end: {
      type: 'object',
      additionalProperties: false,
      description: 'conditions checked in the End Phase that end the game before the last turn',
      properties: {
        no_capital_ships: { type: 'boolean', default: false, description: 'end when a side has no capital ship left that can fight' },
        op_at_least: { anyOf: [{ type: 'integer', minimum: 1, maximum: 10000 }, { type: 'null' }], default: null, description: 'end when a side has at least this many Objective Points (null: never)' },
      },
    },
    sides: {
      type: 'object',
      required: ['a', 'b'],
      additionalProperties: false,
      description: 'the two players',
      properties: { a: side, b: side },
    },
  },
};
