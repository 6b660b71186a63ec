// What a nightly run adds to its run folder: nightly.json, the gate against the baseline and
// the trends the history held when the run was recorded. The report reads it from the folder,
// so `jwsim report DIR` renders a nightly folder again with its gate section and trend charts,
// the same as the nightly wrote them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { failOnProblems, readJsonFile } from '../io/json.js';
import type { GateResult } from './gate.js';
import type { TrendRow } from './history.js';
import { shapeProblems } from './runFolderSchema.js';

export const NIGHTLY_FILE = 'nightly.json';
const NIGHTLY_FORMAT = 'jwsim-nightly/1';

/** What a nightly run adds to its report: the gate against the baseline and trends from the history. */
export interface NightlyExtras {
  /** Null on a first night, run without a baseline: nothing was gated. */
  gate: GateResult | null;
  baselineDir: string | null;
  trends: TrendRow[];
}

/** nightly.json's content. The gate's failures are not stored: they are its shifts that fail. */
export function nightlyJson(x: NightlyExtras): string {
  let gate: Omit<GateResult, 'failures'> | null = null;
  if (x.gate) {
    const { failures: _derived, ...rest } = x.gate;
    gate = rest;
  }
  return JSON.stringify({ format: NIGHTLY_FORMAT, baselineDir: x.baselineDir, gate, trends: x.trends }, null, 2) + '\n';
}

const text = { type: 'string' };
const number = { type: 'number' };
const count = { type: 'integer', minimum: 0 };
const shift = {
  type: 'object',
  required: ['engagement', 'variant', 'metric', 'baseline', 'current', 'shift', 'low', 'high', 'significant', 'fails'],
  properties: { engagement: text, variant: text, metric: text, baseline: number, current: number, shift: number, low: number, high: number, significant: { type: 'boolean' }, fails: { type: 'boolean' }, threshold: { type: 'number', exclusiveMinimum: 0 } },
};
const trend = {
  type: 'object',
  required: ['run', 'recordedAt', 'variant', 'unit', 'score', 'low', 'high'],
  properties: { run: count, recordedAt: text, variant: text, unit: text, score: number, low: number, high: number },
};
export const NIGHTLY_SCHEMA = {
  type: 'object',
  required: ['format', 'baselineDir', 'gate', 'trends'],
  properties: {
    format: { const: NIGHTLY_FORMAT },
    baselineDir: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
    gate: {
      type: ['object', 'null'],
      required: ['sameSeed', 'maxShift', 'checked', 'tested', 'z', 'shifts', 'unmatched'],
      properties: {
        sameSeed: { type: 'boolean' },
        maxShift: { type: 'number', exclusiveMinimum: 0 },
        checked: count,
        tested: count,
        z: { type: 'number', exclusiveMinimum: 0 },
        shifts: { type: 'array', items: shift },
        unmatched: { type: 'array', items: text },
      },
    },
    trends: { type: 'array', items: trend },
  },
};

/** The nightly part of run folder `dir`, checked in full; null where the folder is not a nightly run's. */
export function readNightlyRecord(dir: string): NightlyExtras | null {
  const file = join(dir, NIGHTLY_FILE);
  if (!existsSync(file)) return null;
  const data = readJsonFile(file);
  const problems = shapeProblems(data, file, NIGHTLY_FORMAT, "a jwsim nightly run's gate and trends", NIGHTLY_SCHEMA);
  const { baselineDir, gate, trends } = data as { baselineDir: string | null; gate: Omit<GateResult, 'failures'> | null; trends: TrendRow[] };
  if (problems.length === 0 && (gate === null) !== (baselineDir === null)) problems.push(`${file}: gate and baselineDir: a gate needs its baseline, and a first night (no baseline) has no gate`);
  if (problems.length === 0 && gate && gate.checked !== gate.shifts.length) problems.push(`${file}: gate.checked: ${gate.checked}, but gate.shifts lists ${gate.shifts.length} metrics; each checked metric has one shift`);
  failOnProblems(`${file}: damaged nightly record`, problems, 40);
  return { baselineDir, gate: gate ? { ...gate, failures: gate.shifts.filter((s) => s.fails) } : null, trends };
}
