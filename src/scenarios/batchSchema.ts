// The JSON Schema of batch files (published as scenarios/schemas/batch.schema.json).
import { INTERPRETATIONS } from '../rules/interpretations.js';

export const BATCH_FORMAT = 'jwsim-batch/1';
export const MAX_TRIALS_PER_EXPERIMENT = 50_000_000;
export const MAX_CELLS = 20_000;
/** Engagements x variants in one batch: each is built and kept in memory (about 14 KB each). */
export const MAX_RUNS = 50_000;

const ids = (description: string) => ({
  description: `${description}: one unit id, or a list (every combination is run)`,
  anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type: 'string', minLength: 1 } }],
});
const aspect = (description: string) => ({ enum: ['front', 'side', 'rear'], default: 'front', description });
const firingArc = (description: string) => ({ enum: ['F', 'P', 'S', 'R', 'auto'], default: 'auto', description });
const trials = { type: 'integer', minimum: 1, maximum: MAX_TRIALS_PER_EXPERIMENT, description: 'Monte Carlo trials (per variant)' };
const precision = {
  type: 'object',
  required: ['half_width', 'max_trials'],
  additionalProperties: false,
  description: 'stop each variant once the 95% interval of `metric` is narrower than ±half_width (checked after every chunk, in order)',
  properties: {
    metric: { type: 'string', description: 'key metric (default: a_win_rate for duels and battles, mean_structure_damage otherwise)' },
    half_width: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
    min_trials: { type: 'integer', minimum: 1, maximum: MAX_TRIALS_PER_EXPERIMENT },
    max_trials: { type: 'integer', minimum: 1, maximum: MAX_TRIALS_PER_EXPERIMENT },
  },
};
const common = {
  id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'experiment id, unique in the batch' },
  description: { type: 'string' },
  trials,
  precision,
};

const experiment = {
  type: 'object',
  required: ['id', 'kind'],
  properties: { kind: { enum: ['attack', 'volley', 'ram', 'duel', 'battle'] } },
  allOf: [
    {
      if: { required: ['kind'], properties: { kind: { const: 'attack' } } },
      then: {
        required: ['attacker', 'weapon', 'target', 'range'],
        additionalProperties: false,
        properties: {
          ...common,
          kind: { const: 'attack' },
          attacker: ids('attacking unit'),
          weapon: { type: 'string', minLength: 1, description: 'weapon line name (or #N)' },
          target: ids('target unit'),
          range: { type: 'number', minimum: 0, maximum: 120 },
          aspect: aspect("the target's arc the attacker is in"),
          firing_arc: firingArc("the attacker's arc the target is in"),
          exact: { type: 'boolean', default: true, description: 'compute exactly (default); false samples `trials` attacks' },
        },
      },
    },
    {
      if: { required: ['kind'], properties: { kind: { const: 'volley' } } },
      then: {
        required: ['attacker', 'target', 'range'],
        additionalProperties: false,
        properties: { ...common, kind: { const: 'volley' }, attacker: ids('attacking unit'), target: ids('target unit'), range: { type: 'number', minimum: 0, maximum: 120 }, aspect: aspect("the target's arc the attacker is in"), firing_arc: firingArc("the attacker's arc the target is in") },
      },
    },
    {
      if: { required: ['kind'], properties: { kind: { const: 'ram' } } },
      then: {
        required: ['rammer', 'target'],
        additionalProperties: false,
        properties: { ...common, kind: { const: 'ram' }, rammer: ids('ramming unit'), target: ids('rammed unit'), aspect: aspect("the target's arc the rammer strikes"), exact: { type: 'boolean', default: true } },
      },
    },
    {
      if: { required: ['kind'], properties: { kind: { const: 'duel' } } },
      then: {
        required: ['range'],
        additionalProperties: false,
        properties: {
          ...common,
          kind: { const: 'duel' },
          units: { description: 'units of the matrix: "all" (the whole roster) or a list of ids', anyOf: [{ const: 'all' }, { type: 'array', minItems: 2, maxItems: 200, uniqueItems: true, items: { type: 'string' } }] },
          pairs: { enum: ['ordered', 'unordered'], default: 'ordered', description: 'every ordered pair (A vs B and B vs A) or each pair once' },
          matchups: { type: 'array', minItems: 1, maxItems: MAX_CELLS, uniqueItems: true, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' } }, description: 'explicit [A, B] pairs instead of a matrix' },
          range: { type: 'number', minimum: 0, maximum: 120 },
          aspect: aspect("where A stands: B's arc that A attacks from (B turns its better broadside to a side)"),
          b_aspect: aspect("where B stands: A's arc that B attacks from (A turns its better broadside to a side)"),
          until: { enum: ['destroyed', 'crippled'], default: 'destroyed' },
          rounds: { type: 'integer', minimum: 1, maximum: 1000, default: 20 },
          first: { enum: ['a', 'b', 'random'], default: 'random' },
        },
      },
    },
    {
      if: { required: ['kind'], properties: { kind: { const: 'battle' } } },
      then: {
        required: ['scenario'],
        additionalProperties: false,
        properties: {
          ...common,
          kind: { const: 'battle' },
          trials: { ...trials, description: 'Monte Carlo trials (per variant; default 2000); with `mirror` each trial is two games' },
          scenario: { type: 'string', minLength: 1, description: 'battle scenario file (jwsim-scenario/1), relative to the batch file; the batch\'s `units`, when given, replace the scenario\'s own' },
          mirror: { type: 'boolean', default: true, description: 'play every trial twice, the second time with the fleets\' table positions (and Initiative slot) swapped' },
          allow_invalid_fleets: { type: 'boolean', default: false, description: 'run fleets that break the fleet-building rules of a variant\'s rules version (their problems are reported as warnings)' },
        },
      },
    },
  ],
};

const variant = {
  type: 'object',
  required: ['name', 'rules'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' },
    rules: { enum: ['1.2.1', '1.2.2', 'v1.2.1', 'v1.2.2'] },
    options: { type: 'object', additionalProperties: false, properties: Object.fromEntries(INTERPRETATIONS.map((s) => [s.name, { enum: [...s.values] }])) },
    overlay: { type: 'string', description: 'rules overlay file, relative to the batch file' },
  },
};

export const BATCH_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://jwsim.invalid/schemas/batch.schema.json',
  title: 'jwsim batch',
  description: 'A batch of experiments for `jwsim run`: every experiment runs under every variant (rules version, options, overlay) on common random numbers.',
  type: 'object',
  required: ['format', 'experiments'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    format: { const: BATCH_FORMAT },
    description: { type: 'string' },
    units: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'unit card files, relative to the batch file (default: the sample roster)' },
    seed: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
    variants: { type: 'array', minItems: 1, maxItems: 16, items: variant, description: 'default: one variant, rules v1.2.2 with default options' },
    experiments: { type: 'array', minItems: 1, maxItems: 1000, items: experiment },
  },
};
