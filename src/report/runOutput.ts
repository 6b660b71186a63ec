// The files of a run folder: results.csv (tidy), results.json, manifest.json; for a shard,
// partial.json. Files are written under a temporary name and renamed; manifest.json comes
// last, so a folder without it never looks complete.
import { JWSIM_VERSION } from '../version.js';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { WriteFailure, writeFilesAtomically } from '../io/atomicWrite.js';
import { projectRoot } from '../paths.js';
import { getRulesVersion } from '../rules/registry.js';
import type { Overlay } from '../rules/overlay.js';
import type { Batch } from '../scenarios/batch.js';
import { B_N } from '../sim/battles.js';
import { batchWarnings, variantOptionsWithoutEffect } from '../sim/cells.js';
import { battleUnitStats, gamesPerTrial, type BattleUnitStats, type Metric, unitMetrics } from '../sim/counts.js';
import type { Slot } from '../sim/slots.js';

export const CSV_COLUMNS = ['experiment', 'engagement', 'kind', 'variant', 'rules', 'metric', 'value', 'low', 'high', 'trials', 'seed'] as const;

/** Fixed formatting so result files compare byte for byte. */
export const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(6) : String(x));

/** A battle slot's per-unit-type figures (none for other kinds). */
export function battleUnitsOf(s: Slot): BattleUnitStats[] {
  return s.cell.kind === 'battle' ? battleUnitStats(s.counts, s.engine.battleUnits, gamesPerTrial(s.cell)) : [];
}

/**
 * Rows of results.csv: every metric of every slot; battles add their unit types' figures,
 * named unit:<unit id>:<figure> (destroyed_rate, crippled_rate, withdrawn_rate,
 * captured_rate, damage_dealt, damage_per_100_tv), after the cell's own metrics.
 */
export function resultRows(batch: Batch, slots: readonly Slot[]): string[][] {
  const rows: string[][] = [];
  for (const s of slots) {
    const v = batch.variants[s.variant];
    const trials = s.engine.exact ? 'exact' : String(s.trials());
    const perUnit = battleUnitsOf(s).flatMap((u) => unitMetrics(u).map((m) => ({ ...m, name: `unit:${u.unit.id}:${m.name}` })));
    for (const m of [...s.metrics(), ...perUnit]) rows.push([s.cell.experiment, s.cell.id, s.cell.kind, v.name, v.rules, m.name, fmt(m.value), fmt(m.low), fmt(m.high), trials, batch.seed]);
  }
  return rows;
}

const num = (x: number) => Number(fmt(x));
const interval = (m: Metric) => ({ value: num(m.value), low: num(m.low), high: num(m.high) });

/** results.json's `units` of a battle: per unit type, in the scenario's order. */
function battleUnitsJson(s: Slot) {
  return battleUnitsOf(s).map((u) => ({
    id: u.unit.id,
    name: u.unit.name,
    tv: u.unit.tv,
    models_per_game: u.unit.models,
    sides: [...u.unit.sides],
    appearances: u.appearances,
    destroyed_rate: num(u.destroyed.value),
    crippled_rate: num(u.crippled.value),
    withdrawn_rate: num(u.withdrawn.value),
    captured_rate: num(u.captured.value),
    damage_dealt: num(u.damageDealt.value),
    damage_per_100_tv: interval(u.damagePer100Tv),
    // Every figure's 95% interval (the trial as the sampling unit), as results.csv and `jwsim battle --json` give them.
    intervals: Object.fromEntries(unitMetrics(u).map((m) => [m.name, { low: num(m.low), high: num(m.high) }])),
  }));
}

export function resultsCsv(batch: Batch, slots: readonly Slot[]): string {
  return stringify([[...CSV_COLUMNS], ...resultRows(batch, slots)]);
}

export function resultsJson(batch: Batch, slots: readonly Slot[]): string {
  const experiments = slots.map((s) => ({
    experiment: s.cell.experiment,
    engagement: s.cell.id,
    kind: s.cell.kind,
    a: s.cell.a,
    b: s.cell.b,
    variant: batch.variants[s.variant].name,
    rules: batch.variants[s.variant].rules,
    method: s.engine.exact ? 'exact' : 'monte-carlo',
    trials: s.engine.exact ? null : s.trials(),
    metrics: Object.fromEntries(s.metrics().map((m) => [m.name, interval(m)])),
    distribution: {
      // duels: P(decided in r rounds | decided), r = 0..40 (40 = 40 or more); battles: P(A wins), P(B wins), P(draw); others: P(k Structure lost), k = 0..10
      name: s.cell.kind === 'duel' ? 'rounds_to_decide' : s.cell.kind === 'battle' ? 'outcome' : 'structure_lost',
      p: s.distribution().map((x) => Number(fmt(x))),
    },
    placeholders: s.engine.placeholders,
    // Battles only (other kinds keep their old shape, with warnings only where there are some).
    ...(s.cell.kind === 'battle' ? { scenario: s.cell.scenario, mirror: s.cell.mirror !== false, games: s.counts[B_N], warnings: s.engine.warnings, units: battleUnitsJson(s) } : s.engine.warnings.length ? { warnings: s.engine.warnings } : {}),
  }));
  const used = new Set(slots.flatMap((s) => [s.cell.a, s.cell.b]));
  const units = Object.fromEntries(
    [...batch.roster.units.values()].filter((u) => used.has(u.id)).map((u) => [u.id, { name: u.name, faction: u.faction, type: u.type, tv: u.tv, tv_placeholder: u.placeholders.has('tv') }]),
  );
  return JSON.stringify({ format: 'jwsim-results/1', seed: batch.seed, variants: batch.variants.map((v) => ({ name: v.name, rules: v.rules })), units, experiments }, null, 2) + '\n';
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface RunFacts {
  threads: number;
  shard: { index: number; count: number } | null;
  wallSeconds: number;
  commandLine: readonly string[];
  resumed: boolean;
}

/** A variant's overlay in a manifest: its file, hash and the options it sets (which apply before the variant's own). */
export function overlayRef(o: Overlay | null): { path: string; sha256: string; options?: string[] } | null {
  return o ? { path: o.file, sha256: o.sha256, ...(o.options.length ? { options: [...o.options] } : {}) } : null;
}

export function manifest(batch: Batch, slots: readonly Slot[], facts: RunFacts): string {
  const placeholders = [...new Set(slots.flatMap((s) => s.engine.placeholders))].sort();
  const warnings = batchWarnings(batch, slots);
  const body = {
    format: 'jwsim-manifest/1',
    jwsim: JWSIM_VERSION,
    git_commit: gitCommit(),
    command_line: facts.commandLine,
    batch: { path: batch.file, sha256: batch.sha256, description: batch.description },
    units: batch.unitFiles,
    seed: batch.seed,
    threads: facts.threads,
    shard: facts.shard ? `${facts.shard.index}/${facts.shard.count}` : null,
    resumed: facts.resumed,
    wall_seconds: Number(facts.wallSeconds.toFixed(3)),
    variants: batch.variants.map((v) => {
      const version = getRulesVersion(v.rules);
      const idle = variantOptionsWithoutEffect(batch, v);
      return {
        name: v.name,
        rules: version.id,
        rules_changes: version.changes.map((c) => c.summary),
        options: v.options,
        overlay: overlayRef(v.overlay),
        ...(idle.length ? { options_without_effect: idle } : {}),
      };
    }),
    trials: slots.map((s) => ({ engagement: s.cell.id, variant: batch.variants[s.variant].name, trials: s.engine.exact ? 'exact' : s.trials() })),
    placeholders_used: placeholders,
    ...(batch.scenarioFiles?.length ? { scenario_inputs: batch.scenarioFiles } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
  return JSON.stringify(body, null, 2) + '\n';
}

/** Writes the named files into `dir`, all or none (writeFilesAtomically), in the order given. */
export function writeAtomically(dir: string, files: ReadonlyArray<[string, string | Uint8Array]>): void {
  try {
    writeFilesAtomically(files.map(([name, content]) => [join(dir, name), content] as const));
  } catch (e) {
    throw e instanceof WriteFailure ? e.cause : e;
  }
}
