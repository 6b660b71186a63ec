// Rules overlays: a designer's JSON file that patches data tables and interpretation options
// of a rules version (house rules, or the real critical table once it is known), without
// touching code. Outputs record the overlay's path and SHA-256.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { failOnProblems, readJsonFile, schemaProblems } from '../io/json.js';
import { OVERLAY_SCHEMA } from './overlaySchema.js';
import type { RulesData, RulesVersion } from './types.js';

export interface Overlay {
  readonly file: string;
  readonly sha256: string;
  readonly description: string | null;
  /** The version the overlay was written for, if it says ("1.2.2": loadOverlay drops a leading "v"). */
  readonly rules: string | null;
  /** Interpretation options as NAME=VALUE. */
  readonly options: readonly string[];
  /** Partial rules data, merged over the version's. */
  readonly tables: Readonly<Record<string, unknown>>;
}

export function loadOverlay(file: string): Overlay {
  const data = readJsonFile(file) as Record<string, unknown>;
  failOnProblems(file, schemaProblems(OVERLAY_SCHEMA, data, file));
  const options = Object.entries((data.options ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`);
  return {
    file,
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    description: (data.description as string | undefined) ?? null,
    rules: (data.rules as string | undefined)?.replace(/^v/, '') ?? null,
    options,
    tables: (data.tables ?? {}) as Record<string, unknown>,
  };
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Leaf paths an overlay sets, e.g. "combat.criticalTable" (arrays are replaced whole). */
function leafPaths(patch: unknown, prefix: string, out: string[]): string[] {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    out.push(prefix);
    return out;
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!FORBIDDEN_KEYS.has(k)) leafPaths(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

/** Plain-data deep merge: objects merge key by key, anything else replaces. */
function merge(base: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return patch;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(base)) out[k] = v;
  for (const [k, v] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(k)) continue;
    out[k] = merge(out[k], v);
  }
  return { ...out };
}

/** How a caller names what runs the rules version, and what it allows instead. */
export interface VersionClash {
  /** E.g. "the run uses": the message reads "... but the run uses v1.2.1". */
  readonly uses: string;
  /** What the user may do, given the version the overlay is written for, e.g. "pass --rules 1.2.2 or change the overlay". */
  readonly allowed: (written: string) => string;
}

const RUN_CLASH: VersionClash = { uses: 'the run uses', allowed: (w) => `pass --rules ${w} or change the overlay` };

/**
 * Why the overlay cannot patch rules version `versionId`, or null when it can. An overlay
 * whose "rules" names a version patches that version only: on another one its tables would
 * mix a version change into the house rule. Every command that applies overlays (dice,
 * attack, run's batch variants, compare --variant) refuses with this one check.
 */
export function overlayVersionProblem(overlay: Pick<Overlay, 'file' | 'rules'>, versionId: string, clash: VersionClash = RUN_CLASH): string | null {
  const written = overlay.rules?.replace(/^v/, '') ?? null;
  if (written === null || written === versionId) return null;
  return `${overlay.file}: rules: the overlay is written for v${written} but ${clash.uses} v${versionId}; ${clash.allowed(written)}`;
}

/**
 * The version with the overlay's tables merged in. Data the overlay sets is no longer a
 * placeholder: the designer has supplied it.
 */
export function applyOverlay(version: RulesVersion, overlay: Overlay): RulesVersion {
  const clash = overlayVersionProblem(overlay, version.id);
  if (clash) throw new UserError(clash);
  const set = leafPaths(overlay.tables, '', []);
  const placeholders = Object.fromEntries(
    Object.entries(version.data.placeholders).filter(([path]) => !set.some((p) => p === path || p.startsWith(path + '.') || path.startsWith(p + '.'))),
  );
  const dice = merge(version.data.dice, overlay.tables.dice ?? {}) as RulesData['dice'];
  const combat = merge(version.data.combat, overlay.tables.combat ?? {}) as RulesData['combat'];
  return { ...version, data: { ...version.data, dice, combat, placeholders } };
}
