// What a finished run folder's results.json and manifest.json must hold before the report,
// the nightly gate or anything else reads them: JSON Schemas for their shape, then checks a
// schema cannot express (intervals hold their value, experiments name known variants, no
// engagement twice). Every problem is a "FILE: PATH: message" line, as for the other inputs.
import { nonFinite, schemaProblems } from '../io/json.js';

export const RESULTS_FORMAT = 'jwsim-results/1';
export const MANIFEST_FORMAT = 'jwsim-manifest/1';

/** Larger figures than this are not results of a run (and would overflow the charts' arithmetic). */
const MAX_FIGURE = 1e12;

/** Metrics that are shares of trials: 0 to 1. The rest are means of non-negative per-trial quantities. */
export const isRateMetric = (name: string): boolean => name.startsWith('p_') || name.endsWith('_rate');

/** The metrics a run writes for each kind of engagement (src/sim/counts.ts metricsOf), all required. */
export const METRICS_OF_KIND: Record<'attack' | 'volley' | 'ram' | 'duel' | 'battle', readonly string[]> = {
  duel: ['a_win_rate', 'b_win_rate', 'draw_rate', 'mean_rounds', 'mean_damage_by_a', 'mean_damage_by_b'],
  attack: ['p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_defense_damage', 'mean_sensors_damage', 'mean_thrusters_damage', 'mean_criticals', 'damage_per_100_tv'],
  volley: ['p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_defense_damage', 'mean_sensors_damage', 'mean_thrusters_damage', 'mean_criticals', 'damage_per_100_tv', 'mean_attacks'],
  ram: ['p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_defense_damage', 'mean_sensors_damage', 'mean_thrusters_damage', 'mean_criticals', 'damage_per_100_tv', 'p_rams'],
  battle: ['a_win_rate', 'b_win_rate', 'draw_rate', 'mean_turns', 'mean_op_a', 'mean_op_b', 'mean_vp_a', 'mean_vp_b', 'mean_surviving_tv_a', 'mean_surviving_tv_b'],
};

/** An experiment's distribution.p per kind: its length and what the entries are. */
const DISTRIBUTION = {
  duel: [41, 'P(decided in r rounds), r = 0..40'],
  battle: [3, 'P(A wins), P(B wins), P(draw)'],
  attack: [11, 'P(k Structure lost), k = 0..10'],
  volley: [11, 'P(k Structure lost), k = 0..10'],
  ram: [11, 'P(k Structure lost), k = 0..10'],
} as const;

const text = { type: 'string' };
const nonEmptyText = { type: 'string', minLength: 1 };
const strings = { type: 'array', items: text };
const share = { type: 'number', minimum: 0, maximum: 1 };
const figure = { type: 'number', minimum: -MAX_FIGURE, maximum: MAX_FIGURE };
const count = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
/** A file's SHA-256 as the run recorded it (empty where the file was missing then). */
const sha256 = { type: 'string' };
const fileRef = { type: 'object', required: ['path', 'sha256'], properties: { path: nonEmptyText, sha256 } };

/** A mean with its 95% interval: the value is never negative (every per-trial quantity is a count or a sum). */
const meanMetric = {
  type: 'object',
  required: ['value', 'low', 'high'],
  additionalProperties: false,
  properties: { value: { type: 'number', minimum: 0, maximum: MAX_FIGURE }, low: figure, high: figure },
};
/** A rate with its (Wilson) 95% interval: all three from 0 to 1. */
const rateMetric = {
  type: 'object',
  required: ['value', 'low', 'high'],
  additionalProperties: false,
  properties: { value: share, low: share, high: share },
};

/** A battle unit type's figures, each with its interval under `intervals`, in results.csv's order. */
export const BATTLE_UNIT_FIGURES = ['destroyed_rate', 'crippled_rate', 'withdrawn_rate', 'captured_rate', 'damage_dealt', 'damage_per_100_tv'] as const;
export type BattleUnitFigure = (typeof BATTLE_UNIT_FIGURES)[number];

const battleUnit = {
  type: 'object',
  required: ['id', 'name', 'tv', 'models_per_game', 'sides', 'appearances', 'destroyed_rate', 'crippled_rate', 'withdrawn_rate', 'damage_dealt', 'damage_per_100_tv'],
  properties: {
    id: nonEmptyText,
    name: text,
    tv: { type: 'number', exclusiveMinimum: 0, maximum: MAX_FIGURE },
    models_per_game: count,
    sides: { type: 'array', items: { enum: ['a', 'b'] }, uniqueItems: true },
    appearances: count,
    destroyed_rate: share,
    crippled_rate: share,
    withdrawn_rate: share,
    captured_rate: share,
    damage_dealt: { type: 'number', minimum: 0, maximum: MAX_FIGURE },
    damage_per_100_tv: meanMetric,
    // Each figure's 95% interval (results files of earlier versions have none).
    intervals: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        BATTLE_UNIT_FIGURES.map((name) => [
          name,
          { type: 'object', required: ['low', 'high'], additionalProperties: false, properties: name.endsWith('_rate') ? { low: share, high: share } : { low: figure, high: figure } },
        ]),
      ),
    },
  },
};

const experiment = {
  type: 'object',
  required: ['experiment', 'engagement', 'kind', 'a', 'b', 'variant', 'rules', 'method', 'trials', 'metrics', 'distribution', 'placeholders'],
  properties: {
    experiment: nonEmptyText,
    engagement: nonEmptyText,
    kind: { enum: ['attack', 'volley', 'ram', 'duel', 'battle'] },
    a: text,
    b: text,
    variant: nonEmptyText,
    rules: text,
    method: { enum: ['exact', 'monte-carlo'] },
    trials: { anyOf: [{ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }] },
    metrics: {
      type: 'object',
      patternProperties: { '^p_|_rate$': rateMetric },
      additionalProperties: meanMetric,
    },
    distribution: {
      type: 'object',
      required: ['name', 'p'],
      properties: { name: text, p: { type: 'array', items: share } },
    },
    placeholders: strings,
    scenario: nonEmptyText,
    mirror: { type: 'boolean' },
    games: count,
    warnings: strings,
    units: { type: 'array', items: battleUnit },
  },
  allOf: (Object.keys(METRICS_OF_KIND) as Array<keyof typeof METRICS_OF_KIND>).map((kind) => ({
    if: { required: ['kind'], properties: { kind: { const: kind } } },
    then: {
      properties: {
        metrics: { required: [...METRICS_OF_KIND[kind]] },
      },
    },
  })),
};

export const RESULTS_SCHEMA = {
  $id: 'https://jwsim.invalid/schemas/results.schema.json',
  type: 'object',
  required: ['format', 'seed', 'variants', 'units', 'experiments'],
  properties: {
    format: { const: RESULTS_FORMAT },
    seed: nonEmptyText,
    variants: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['name', 'rules'], properties: { name: nonEmptyText, rules: nonEmptyText } },
    },
    units: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['name', 'tv'],
        properties: { name: text, faction: text, type: text, tv: { type: 'number', exclusiveMinimum: 0, maximum: MAX_FIGURE }, tv_placeholder: { type: 'boolean' } },
      },
    },
    experiments: { type: 'array', items: experiment },
  },
};

export const MANIFEST_SCHEMA = {
  $id: 'https://jwsim.invalid/schemas/manifest.schema.json',
  type: 'object',
  required: ['format', 'batch', 'seed', 'threads', 'wall_seconds', 'variants', 'placeholders_used'],
  properties: {
    format: { const: MANIFEST_FORMAT },
    git_commit: { anyOf: [text, { type: 'null' }] },
    batch: { type: 'object', required: ['path', 'sha256'], properties: { path: nonEmptyText, sha256, description: { anyOf: [text, { type: 'null' }] } } },
    units: { type: 'array', items: fileRef },
    scenario_inputs: { type: 'array', items: fileRef },
    seed: nonEmptyText,
    threads: count,
    wall_seconds: { type: 'number', minimum: 0, maximum: MAX_FIGURE },
    variants: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'rules', 'rules_changes', 'options', 'overlay'],
        properties: {
          name: nonEmptyText,
          rules: nonEmptyText,
          rules_changes: strings,
          options: strings,
          overlay: { anyOf: [{ type: 'null' }, { ...fileRef, properties: { ...fileRef.properties, options: strings } }] },
          options_without_effect: { type: 'array', items: { type: 'object', required: ['option', 'why'], properties: { option: nonEmptyText, why: nonEmptyText } } },
        },
      },
    },
    placeholders_used: strings,
    warnings: strings,
  },
};

const show = (x: number) => String(Number(x.toPrecision(12)));
/** Slack for the intervals' own rounding (results.json keeps 6 decimals). */
const SLACK = 1e-9;

/** "value within low..high" for one metric at `path`. */
function intervalProblem(m: { value: number; low: number; high: number }, file: string, path: string): string | null {
  if (m.low <= m.value + SLACK && m.value <= m.high + SLACK) return null;
  return `${file}: ${path}: value ${show(m.value)} is outside its interval ${show(m.low)} .. ${show(m.high)}; low <= value <= high is required`;
}

interface ResultsShape {
  variants: Array<{ name: string }>;
  experiments: Array<{ engagement: string; variant: string; kind: keyof typeof METRICS_OF_KIND; distribution: { p: number[] }; metrics: Record<string, { value: number; low: number; high: number }>; units?: Array<Record<string, unknown> & { damage_per_100_tv: { value: number; low: number; high: number }; intervals?: Record<string, { low: number; high: number }> }> }>;
}

/** Every problem of a results.json (`data` as parsed), as "FILE: PATH: message" lines. */
export function resultsProblems(data: unknown, file: string): string[] {
  const head = shapeProblems(data, file, RESULTS_FORMAT, 'a jwsim results file', RESULTS_SCHEMA);
  if (head.length) return head;
  const r = data as ResultsShape;
  const out: string[] = [];
  if (r.experiments.length === 0) out.push(`${file}: experiments: the list is empty; a finished run has at least one engagement`);
  const variants = variantIndex(r.variants, file, out);
  const known = [...variants.keys()].map((n) => `"${n}"`).join(', ');
  const seen = new Map<string, number>();
  r.experiments.forEach((e, i) => {
    if (!variants.has(e.variant)) out.push(`${file}: experiments[${i}].variant: "${e.variant}" is not one of the run's variants (${known})`);
    const key = `${e.engagement}\u0000${e.variant}`;
    if (seen.has(key)) out.push(`${file}: experiments[${i}]: engagement "${e.engagement}" under variant "${e.variant}" is also experiments[${seen.get(key)}]; each appears once`);
    else seen.set(key, i);
    const [length, entries] = DISTRIBUTION[e.kind];
    if (e.distribution.p.length !== length) out.push(`${file}: experiments[${i}].distribution.p: ${e.distribution.p.length} entries; a ${e.kind}'s has ${length} (${entries})`);
    for (const [name, m] of Object.entries(e.metrics)) {
      const p = intervalProblem(m, file, `experiments[${i}].metrics.${name}`);
      if (p) out.push(p);
    }
    (e.units ?? []).forEach((u, j) => {
      const p = intervalProblem(u.damage_per_100_tv, file, `experiments[${i}].units[${j}].damage_per_100_tv`);
      if (p) out.push(p);
      for (const [name, ci] of Object.entries(u.intervals ?? {})) {
        const value = u[name];
        const q = typeof value === 'number' ? intervalProblem({ value, low: ci.low, high: ci.high }, file, `experiments[${i}].units[${j}].intervals.${name}`) : null;
        if (q) out.push(q);
      }
    });
  });
  return out;
}

/** Every problem of a manifest.json, as "FILE: PATH: message" lines. */
export function manifestProblems(data: unknown, file: string): string[] {
  const head = shapeProblems(data, file, MANIFEST_FORMAT, 'a jwsim run manifest', MANIFEST_SCHEMA);
  if (head.length) return head;
  const out: string[] = [];
  variantIndex((data as { variants: Array<{ name: string }> }).variants, file, out);
  return out;
}

/** What is wrong with a run file as a whole, first found first: figures JSON cannot hold, the format, the schema. */
export function shapeProblems(data: unknown, file: string, wanted: string, what: string, schema: object): string[] {
  const infinite = nonFinite(data, file);
  if (infinite.length) return infinite;
  const format = (data as { format?: unknown } | null)?.format;
  if (data && typeof data === 'object' && !Array.isArray(data) && format !== wanted) {
    return [`${file}: format: ${JSON.stringify(format) ?? 'missing'} is not ${JSON.stringify(wanted)}: not ${what}`];
  }
  return schemaProblems(schema, data, file);
}

/** Each variant's index by name; a name used twice is a problem (pushed to `out`). */
function variantIndex(variants: ReadonlyArray<{ name: string }>, file: string, out: string[]): Map<string, number> {
  const index = new Map<string, number>();
  variants.forEach((v, i) => {
    if (index.has(v.name)) out.push(`${file}: variants[${i}].name: "${v.name}" is also variants[${index.get(v.name)}]'s name; variant names are unique`);
    else index.set(v.name, i);
  });
  return index;
}

/**
 * Problems between the two files of one run folder (each already valid on its own): the same
 * seed, and every variant of results.json described in manifest.json.
 */
export function runFolderProblems(results: { seed: string; variants: Array<{ name: string }> }, resultsFile: string, manifest: { seed: string; variants: Array<{ name: string }> }, manifestFile: string): string[] {
  const out: string[] = [];
  if (results.seed !== manifest.seed) out.push(`${manifestFile}: seed: "${manifest.seed}" differs from ${resultsFile}'s seed "${results.seed}"; the two files are from different runs`);
  const described = new Set(manifest.variants.map((v) => v.name));
  results.variants.forEach((v, i) => {
    if (!described.has(v.name)) out.push(`${resultsFile}: variants[${i}].name: "${v.name}" is not described in ${manifestFile} (its variants: ${[...described].map((n) => `"${n}"`).join(', ')})`);
  });
  return out;
}

