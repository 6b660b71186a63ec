// Battle scenario files: load, check everything a designer can get wrong (schema, unit ids,
// objectives on the table, zones that fit, fleet composition), report every problem at once,
// and hand the battle engine a Scenario with all defaults filled in.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { failOnProblems, isObject, readJsonFile, schemaProblems } from '../io/json.js';
import { sampleRosterFiles } from '../paths.js';
import { getRulesVersion, type RulesVersionId } from '../rules/registry.js';
import { paramProblems } from '../policies/index.js';
import { loadRoster, looseUnitFiles, looseUnitProblems, unknownUnitMessage } from '../units/load.js';
import type { Roster, UnitCard } from '../units/types.js';
import { FLEET_FILE_SCHEMA, MAX_MODELS_PER_SIDE, SCENARIO_DEFAULTS, SCENARIO_SCHEMA, SCREEN_DEFAULT_IN } from './scenarioSchema.js';
import type { DeploymentType, EarlyEnd, ObjectiveMarker, OrderKind, OrderTarget, OrderUnits, PolicyName, PolicySpec, Scenario, ScriptedOrder, SideSpec, ZoneKind } from './scenarioTypes.js';

type Json = Record<string, unknown>;

export interface LoadScenarioOptions {
  /** Rules version the battle runs under ("1.2.2" or "v1.2.2"); fleets are validated for it. */
  readonly rulesVersion: string;
  /** Keep going with fleets that break the fleet-building rules; their problems become fleetWarnings. */
  readonly allowInvalidFleets: boolean;
  /** Unit files that replace the scenario's own `units` list (like --units elsewhere). */
  readonly units?: readonly string[];
  /** How the caller lets invalid fleets run, for the refusal message (default: the --allow-invalid-fleets flag). */
  readonly allowInvalidHow?: string;
}

/** Smallest table side on which a beacon zone makes sense (four beacons each, 12" apart). */
export const BEACON_MIN_TABLE_IN = 24;

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * Fleet-building problems of `fleet` (every model, counts expanded) at point level `points`,
 * as sentences without a location prefix; empty when the fleet is legal.
 *
 * v1.2.2 (game.md §11.2) and v1.2.1 (GM-30: the 1.2.2 percentages): total TV at most the level;
 * squadrons and capital ships each at least 25% of the level (GM-29: of the level, not of the
 * points spent; compared exactly, so 62.5 needs 63 whole points). Static defences do not exist
 * in the unit format, so their 25% cap cannot be broken. A card's unit cap is not checked: Unit
 * Caps arrive in v1.2.3 (game.md §11.2, §16), so neither version limits copies of a unit.
 */
export function validateFleet(version: string, points: number, fleet: readonly UnitCard[]): string[] {
  const bare = (version.startsWith('v') ? version.slice(1) : version) as RulesVersionId;
  getRulesVersion(version, 'rules version'); // an unknown version is a UserError
  switch (bare) {
    case '1.2.1':
    case '1.2.2':
      return percentageRules(points, fleet);
    default: {
      const unhandled: never = bare;
      throw new Error(`no fleet-building rules for version ${String(unhandled)}`);
    }
  }
}

function percentageRules(points: number, fleet: readonly UnitCard[]): string[] {
  const problems: string[] = [];
  let total = 0;
  let capital = 0;
  let squadrons = 0;
  for (const u of fleet) {
    total += u.tv;
    if (u.isCapital) capital += u.tv;
    else squadrons += u.tv;
  }
  const quarter = points / 4;
  if (total > points) problems.push(`total ${fmt(total)} TV is over the ${points}-point level`);
  // `x * 4 < points` is the exact form of `x < 25% of points`.
  if (squadrons * 4 < points) problems.push(`squadrons total ${fmt(squadrons)} TV, below 25% of the ${points}-point level (${fmt(quarter)}; GM-29)`);
  if (capital * 4 < points) problems.push(`capital ships total ${fmt(capital)} TV, below 25% of the ${points}-point level (${fmt(quarter)}; GM-29)`);
  return problems;
}

/** Which kinds of model an order's `units` covers. */
const COVERS: Record<OrderUnits, readonly ('capital' | 'squadron')[]> = { all: ['capital', 'squadron'], capital: ['capital'], squadron: ['squadron'] };

/**
 * The scripted policy's orders (schema-checked already): turn ranges parsed and checked
 * against the scenario's turns, no two orders for the same models sharing a turn, and each
 * field only on the orders that read it. Problems go to `problems` as "FILE: PATH: message".
 */
export function parseOrders(raw: readonly Json[], file: string, path: string, turns: number, problems: string[]): ScriptedOrder[] {
  const out: Array<ScriptedOrder & { i: number; text: string }> = [];
  raw.forEach((o, i) => {
    const at = `${file}: ${path}[${i}]`;
    const kind = o.do as OrderKind;
    const text = o.turns as string;
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
    let ok = true;
    if (!m) {
      problems.push(`${at}.turns: "${text}" is not a turn or a range of turns; write "N" or "N-M" with turns 1..${turns}, e.g. "1-2"`);
      ok = false;
    }
    const from = m ? Number(m[1]) : 0;
    const to = m ? Number(m[2] ?? m[1]) : 0;
    if (m && from > to) {
      problems.push(`${at}.turns: "${text}" runs backwards; write the earlier turn first ("${to}-${from}")`);
      ok = false;
    } else if (m && (from < 1 || to > turns)) {
      problems.push(`${at}.turns: "${text}" lies outside the scenario's turns; allowed 1..${turns} ("N" or "N-M")`);
      ok = false;
    }
    const misplaced = (field: string, readers: string) => {
      if (o[field] !== undefined) problems.push(`${at}.${field}: only ${readers} orders read "${field}"; this is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} "${kind}" order (drop the field)`);
    };
    if (kind !== 'hold') misplaced('range', '"hold"');
    if (kind !== 'close' && kind !== 'hold') misplaced('target', '"close" and "hold"');
    if (kind !== 'screen') misplaced('distance', '"screen"');
    const units = (o.units as OrderUnits | undefined) ?? 'all';
    if (kind === 'screen' && units === 'capital') problems.push(`${at}.units: a "screen" order moves squadrons; units "capital" leaves it nothing to do (use "squadron" or "all")`);
    if (!ok) return;
    out.push({
      i,
      text,
      from,
      to,
      do: kind,
      range: (o.range as 'long' | 'short' | undefined) ?? 'long',
      target: (o.target as OrderTarget | undefined) ?? (kind === 'close' ? 'nearest' : null),
      units,
      distance: (o.distance as number | undefined) ?? SCREEN_DEFAULT_IN,
    });
  });
  // A screen order only ever moves squadrons, whatever its `units`.
  const covered = (o: ScriptedOrder) => COVERS[o.units].filter((u) => o.do !== 'screen' || u === 'squadron');
  for (let j = 1; j < out.length; j++) {
    for (let k = 0; k < j; k++) {
      const a = out[k], b = out[j];
      const lo = Math.max(a.from, b.from), hi = Math.min(a.to, b.to);
      const shared = covered(a).filter((u) => covered(b).includes(u));
      if (lo > hi || !shared.length) continue;
      const when = lo === hi ? `turn ${lo}` : `turns ${lo}-${hi}`;
      problems.push(`${file}: ${path}[${b.i}].turns: "${b.text}" overlaps ${path}[${a.i}] ("${a.text}") in ${when} for the same models (${shared.map((u) => (u === 'capital' ? 'capital ships' : 'squadrons')).join(' and ')}); give each turn at most one order per kind of model (split them with "units": "capital" / "squadron")`);
      break;
    }
  }
  return out.map(({ i: _i, text: _t, ...o }) => o);
}

/** A side's policy: name, params, and (scripted) its checked orders. */
function loadPolicy(file: string, path: string, policy: Json, turns: number, problems: string[]): PolicySpec {
  const name = policy.name as PolicyName;
  const params = { ...((policy.params as Record<string, number> | undefined) ?? {}) };
  problems.push(...paramProblems({ name, params }, `${file}: ${path}`));
  const raw = policy.orders as Json[] | undefined;
  if (name !== 'scripted') {
    if (raw !== undefined) problems.push(`${file}: ${path}.orders: only the "scripted" policy reads orders; this side plays "${name}" (set "name": "scripted" or drop "orders")`);
    return { name, params };
  }
  if (raw === undefined) {
    problems.push(`${file}: ${path}: the "scripted" policy needs "orders", a list of { "turns": "N-M", "do": hold | close | withdraw | objective | screen, ... }`);
    return { name, params, orders: [] };
  }
  return { name, params, orders: parseOrders(raw, file, `${path}.orders`, turns, problems) };
}

interface SideResult {
  readonly spec: SideSpec;
  /** Fleet-building problems, each already prefixed with its location. */
  readonly fleetProblems: string[];
}

function loadSide(file: string, base: string, key: 'a' | 'b', raw: Json, roster: Roster, points: number, turns: number, rulesVersion: string, problems: string[]): SideResult {
  const path = `sides.${key}`;
  const hasFleet = raw.fleet !== undefined;
  const hasFile = raw.fleet_file !== undefined;
  let entries: Json[] = [];
  // `at(i)` locates entry i for messages; `where` names the fleet for fleet-building problems.
  let at = (i: number) => `${file}: ${path}.fleet[${i}]`;
  let where = `${path}.fleet`;
  let usable = true;
  let fleetFile: string | undefined;
  if (hasFleet && hasFile) {
    problems.push(`${file}: ${path}: give either "fleet" or "fleet_file", not both`);
    usable = false;
  } else if (!hasFleet && !hasFile) {
    problems.push(`${file}: ${path}: missing "fleet" (a list of { "unit", "count" }) or "fleet_file" (a fleet file relative to the scenario)`);
    usable = false;
  } else if (hasFleet) {
    entries = raw.fleet as Json[];
  } else {
    fleetFile = resolve(base, raw.fleet_file as string);
    const ctx = `${file}: ${path}.fleet_file`;
    where = `${path}.fleet_file (${fleetFile})`;
    at = (i: number) => `${ctx}: ${fleetFile}: fleet[${i}]`;
    try {
      const data = readJsonFile(fleetFile);
      const errs = schemaProblems(FLEET_FILE_SCHEMA, data, fleetFile);
      if (errs.length) {
        problems.push(...errs.map((e) => `${ctx}: ${e}`));
        usable = false;
      } else entries = (data as Json).fleet as Json[];
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(`${ctx}: ${e.message}`, ...e.details);
      usable = false;
    }
  }

  const fleet: UnitCard[] = [];
  entries.forEach((entry, i) => {
    const id = entry.unit as string;
    const unit = roster.units.get(id);
    if (!unit) {
      problems.push(`${at(i)}.unit: ${unknownUnitMessage(roster, id)}`);
      usable = false;
      return;
    }
    const count = (entry.count as number | undefined) ?? 1;
    for (let k = 0; k < count; k++) fleet.push(unit);
  });
  const models = entries.reduce((n, e) => n + ((e.count as number | undefined) ?? 1), 0);
  if (models > MAX_MODELS_PER_SIDE) {
    problems.push(`${file}: ${where}: ${models} models; a side may field at most ${MAX_MODELS_PER_SIDE}`);
    usable = false;
  }
  const fleetProblems = usable ? validateFleet(rulesVersion, points, fleet).map((p) => `${where}: ${p}`) : [];
  const policy = loadPolicy(file, `${path}.policy`, raw.policy as Json, turns, problems);
  return {
    spec: {
      name: (raw.name as string | undefined) ?? SCENARIO_DEFAULTS.sideNames[key === 'a' ? 0 : 1],
      fleet,
      policy,
      tv: fleet.reduce((s, u) => s + u.tv, 0),
      ...(fleetFile !== undefined ? { fleetFile } : {}),
    },
    fleetProblems,
  };
}

/** The unit ids of the sides' inline fleets, with their message prefixes (as loadSide words them). */
function looseUnitRefs(file: string, data: unknown): Array<[string, unknown]> {
  const sides = isObject(data) && isObject(data.sides) ? data.sides : {};
  return (['a', 'b'] as const).flatMap((key) => {
    const side = sides[key];
    if (!isObject(side) || !Array.isArray(side.fleet)) return [];
    return side.fleet.flatMap((entry: unknown, i): Array<[string, unknown]> => (isObject(entry) ? [[`${file}: sides.${key}.fleet[${i}].unit`, entry.unit]] : []));
  });
}

/**
 * Loads and checks a `jwsim-scenario/1` file. Every problem (schema, unit ids, objectives,
 * zones, fleets) is collected and thrown as one UserError naming the file and JSON path.
 * Fleet-building problems become `fleetWarnings` instead when `allowInvalidFleets` is set.
 */
export function loadScenario(file: string, opts: LoadScenarioOptions): Scenario {
  getRulesVersion(opts.rulesVersion); // fail on a bad version before reading anything
  const data = readJsonFile(file) as Json;
  const shape = schemaProblems(SCENARIO_SCHEMA, data, file);
  // Unit ids are checked even then, where readable, so every problem shows in one round.
  if (shape.length) failOnProblems(file, [...shape, ...looseUnitProblems(() => opts.units ?? looseUnitFiles(file, data), looseUnitRefs(file, data))]);
  const base = dirname(resolve(file));
  const unitFiles = opts.units ? [...opts.units] : data.units ? (data.units as string[]).map((f) => resolve(base, f)) : sampleRosterFiles();
  let roster: Roster;
  try {
    roster = loadRoster(unitFiles);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    throw new UserError(`${file}: ${opts.units ? '--units' : 'units'}: ${e.message}`, e.details);
  }

  const problems: string[] = [];
  const table = (data.table as { width: number; height: number } | undefined) ?? SCENARIO_DEFAULTS.table;
  const points = (data.points as number | undefined) ?? SCENARIO_DEFAULTS.points;
  const deployment = data.deployment as Json;
  const zone = deployment.zone as ZoneKind;
  const stripDepth = (deployment.strip_depth as number | undefined) ?? SCENARIO_DEFAULTS.stripDepth;
  const turns = (data.turns as number | undefined) ?? SCENARIO_DEFAULTS.turns;
  const size = `${fmt(table.width)}" x ${fmt(table.height)}"`;

  if (zone === 'standard' && stripDepth * 2 > table.height) {
    problems.push(`${file}: deployment.strip_depth: ${fmt(stripDepth)} is more than half the table height (${fmt(table.height / 2)}" on a ${size} table); the two strips would overlap`);
  }
  if (zone === 'beacon' && (table.width < BEACON_MIN_TABLE_IN || table.height < BEACON_MIN_TABLE_IN)) {
    problems.push(`${file}: table: the beacon zone needs a table at least ${BEACON_MIN_TABLE_IN}" x ${BEACON_MIN_TABLE_IN}" (eight beacons 12" apart); this one is ${size}`);
  }
  // Corner zones are the table's four quadrants (halves of each side), so every table size works.

  const objectives: ObjectiveMarker[] = [];
  const objectiveIds = new Set<string>();
  ((data.objectives as Json[] | undefined) ?? []).forEach((o, i) => {
    const where = `${file}: objectives[${i}]`;
    const m: ObjectiveMarker = {
      id: o.id as string,
      x: o.x as number,
      y: o.y as number,
      radius: (o.radius as number | undefined) ?? SCENARIO_DEFAULTS.objectiveRadius,
      points: (o.points as number | undefined) ?? SCENARIO_DEFAULTS.objectivePoints,
      fromTurn: (o.from_turn as number | undefined) ?? SCENARIO_DEFAULTS.objectiveFromTurn,
    };
    if (objectiveIds.has(m.id)) problems.push(`${where}.id: duplicate objective id "${m.id}"`);
    objectiveIds.add(m.id);
    if (m.x > table.width) problems.push(`${where}.x: ${m.x} is off the table; x must lie in 0..${fmt(table.width)} on a ${size} table`);
    if (m.y > table.height) problems.push(`${where}.y: ${m.y} is off the table; y must lie in 0..${fmt(table.height)} on a ${size} table`);
    if (m.fromTurn > turns) problems.push(`${where}.from_turn: ${m.fromTurn} is after the last turn (${turns}); the marker would never score`);
    objectives.push(m);
  });

  const rawEnd = (data.early_end as Json | undefined) ?? {};
  const earlyEnd: EarlyEnd = {
    noCapitalShips: (rawEnd.no_capital_ships as boolean | undefined) ?? false,
    opAtLeast: (rawEnd.op_at_least as number | null | undefined) ?? null,
  };
  if (earlyEnd.opAtLeast !== null && objectives.length === 0) {
    problems.push(`${file}: early_end.op_at_least: the scenario has no objectives, so no side can score Objective Points; add objectives or drop op_at_least`);
  }

  const sides = data.sides as Record<'a' | 'b', Json>;
  const a = loadSide(file, base, 'a', sides.a, roster, points, turns, opts.rulesVersion, problems);
  const b = loadSide(file, base, 'b', sides.b, roster, points, turns, opts.rulesVersion, problems);
  const fleetProblems = [...a.fleetProblems, ...b.fleetProblems];
  if (!opts.allowInvalidFleets) {
    const v = opts.rulesVersion.replace(/^v?/, 'v');
    problems.push(...fleetProblems.map((p) => `${file}: ${p} (fleet rules ${v}; ${opts.allowInvalidHow ?? '--allow-invalid-fleets'} runs it anyway)`));
  }
  failOnProblems(file, problems);

  return {
    file,
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    id: data.id as string,
    description: (data.description as string | undefined) ?? null,
    table: { width: table.width, height: table.height },
    points,
    zone,
    deployment: deployment.type as DeploymentType,
    stripDepth,
    turns,
    initiative: (data.initiative as 'a' | 'b' | 'random' | undefined) ?? SCENARIO_DEFAULTS.initiative,
    objectives,
    earlyEnd,
    sides: [a.spec, b.spec],
    roster,
    fleetWarnings: opts.allowInvalidFleets ? fleetProblems : [],
  };
}
