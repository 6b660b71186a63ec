// Loading unit card files: schema validation, then the checks a schema cannot express,
// every problem of every file reported at once.
import { dirname, resolve } from 'node:path';
import { failOnProblems, isObject, readJsonFile, schemaProblems } from '../io/json.js';
import { sampleRosterFiles } from '../paths.js';
import { UserError } from '../errors.js';
import { editDistance } from '../words.js';
import { TRAITS, type TraitName, type WeaponClass } from './catalogue.js';
import { UNITS_SCHEMA } from './schema.js';
import type { Arc, Roster, UnitCard, UnitType, WeaponLine } from './types.js';

type Json = Record<string, unknown>;

/** Reads a rating written as n or { value: n, status }; records PLACEHOLDER paths. */
function reader(placeholders: Set<string>) {
  return (raw: unknown, path: string, fallback: number): number => {
    if (raw === undefined || raw === null) return fallback;
    if (typeof raw === 'number') return raw;
    const r = raw as { value: number; status: string };
    if (r.status === 'PLACEHOLDER') placeholders.add(path);
    return r.value;
  };
}

/**
 * Traits as name -> value. A trait entry marked PLACEHOLDER, or with a placeholder value,
 * records the card path `${prefix}traits.${name}` (e.g. "traits.Belt", "weapons[0].traits.Nuke").
 */
function traitMap(list: unknown[] | undefined, where: string, prefix: string, read: ReturnType<typeof reader>, placeholders: Set<string>, problems: string[], file: string): Map<TraitName, number> {
  const map = new Map<TraitName, number>();
  (list ?? []).forEach((t, i) => {
    const name = (typeof t === 'string' ? t : (t as Json).name) as TraitName;
    const info = TRAITS[name];
    const value = typeof t === 'string' ? undefined : (t as Json).value;
    const path = `${prefix}traits.${name}`;
    if (info.hasValue && value === undefined) problems.push(`${file}: ${where}[${i}]: trait ${name} needs a value, e.g. { "name": "${name}", "value": 1 }`);
    if (!info.hasValue && value !== undefined) problems.push(`${file}: ${where}[${i}]: trait ${name} takes no value`);
    if (typeof t !== 'string' && (t as Json).status === 'PLACEHOLDER') placeholders.add(path);
    // Several instances of a trait stack (rules v1.2.1/v1.2.2 traits pages, combat.md §7).
    map.set(name, (map.get(name) ?? 0) + read(value, path, 1));
  });
  return map;
}

function toCard(u: Json, i: number, file: string, problems: string[]): UnitCard {
  const placeholders = new Set<string>();
  const read = reader(placeholders);
  const where = `units[${i}]`;
  const type = u.type as UnitType;
  const isCapital = type === 'capital_ship';
  const structure = read(u.structure, 'structure', 1);
  const crippledAt = u.crippled_at === undefined ? null : read(u.crippled_at, 'crippled_at', 0);
  if (crippledAt !== null && crippledAt >= structure) {
    problems.push(`${file}: ${where}.crippled_at: ${crippledAt} must be below structure (${structure})`);
  }
  if (isCapital && crippledAt !== null) problems.push(`${file}: ${where}.crippled_at: only squadrons have small damage boxes`);
  // units.md §2.2: Fuel is a squadron rating; Armor is a capital-ship rating in v1.2.2 (v1.2.1 has none).
  if (isCapital && u.fuel !== undefined && u.fuel !== null) problems.push(`${file}: ${where}.fuel: only squadrons have Fuel; leave it out for a capital ship`);
  if (!isCapital && u.armor !== undefined) problems.push(`${file}: ${where}.armor: only capital ships have Armor (rules v1.2.2); leave it out for a squadron`);
  // Turns and Thrusters rule capital-ship movement only, and squadrons stand on a 1" hex (units.md §2.2).
  for (const [field, what] of [['turns', 'Turns'], ['thrusters', 'Thrusters'], ['base', 'a base size (squadrons use a 1" hex)']] as const) {
    if (!isCapital && u[field] !== undefined) problems.push(`${file}: ${where}.${field}: only capital ships have ${what}; leave it out for a squadron`);
  }
  const armor = (u.armor ?? {}) as Json;
  const base = u.base as Json | undefined;
  const weaponNames = new Map<string, number>();
  const weapons: WeaponLine[] = ((u.weapons ?? []) as Json[]).map((w, j) => {
    const wp = `weapons[${j}]`;
    // --weapon picks a line by name, ignoring case: two lines with one name would make one unreachable.
    const key = String(w.name).trim().toLowerCase();
    const same = weaponNames.get(key);
    if (same !== undefined) {
      const other = (u.weapons as Json[])[same].name as string;
      problems.push(`${file}: ${where}.${wp}.name: duplicate weapon name "${w.name as string}" (also weapons[${same}]${other === w.name ? '' : ` "${other}"; names are compared ignoring case`}); each weapon line of a unit needs its own name`);
    } else weaponNames.set(key, j);
    const arcs = (w.arcs as Arc[] | undefined) ?? (isCapital ? [] : ['T']);
    if (isCapital && w.arcs === undefined) problems.push(`${file}: ${where}.${wp}.arcs: capital-ship weapons need arcs (F, P, S, R, T)`);
    if (!isCapital && w.arcs !== undefined && !(arcs.length === 1 && arcs[0] === 'T')) {
      problems.push(`${file}: ${where}.${wp}.arcs: squadron weapons fire in any direction; omit arcs`);
    }
    return {
      index: j,
      name: w.name as string,
      cls: w.class as WeaponClass,
      count: (w.count as number | undefined) ?? 1,
      ac: w.ac === undefined || w.ac === null ? null : read(w.ac, `${wp}.ac`, 0),
      as: w.as === undefined || w.as === null ? null : read(w.as, `${wp}.as`, 0),
      macro: read(w.macro, `${wp}.macro`, 0),
      arcs: isCapital ? arcs : ['T'],
      traits: traitMap(w.traits as unknown[] | undefined, `${where}.${wp}.traits`, `${wp}.`, read, placeholders, problems, file),
    };
  });
  return {
    id: u.id as string,
    name: u.name as string,
    faction: u.faction as string,
    type,
    isCapital,
    tv: read(u.tv, 'tv', 0),
    unitCap: u.unit_cap === undefined ? null : read(u.unit_cap, 'unit_cap', 0),
    skill: read(u.skill, 'skill', 0),
    speed: read(u.speed, 'speed', 0),
    turns: read(u.turns, 'turns', 0),
    thrusters: read(u.thrusters, 'thrusters', 0),
    fuel: read(u.fuel, 'fuel', 0),
    fireControl: read(u.fire_control, 'fire_control', 0),
    sensors: read(u.sensors, 'sensors', 0),
    defense: read(u.defense, 'defense', 0),
    armor: { fore: read(armor.fore, 'armor.fore', 0), portStarboard: read(armor.port_starboard, 'armor.port_starboard', 0), aft: read(armor.aft, 'armor.aft', 0) },
    structure,
    crippledAt,
    marines: read(u.marines, 'marines', 0),
    hangers: read(u.hangers, 'hangers', 0),
    base: base ? { widthIn: read(base.width_in, 'base.width_in', 0), lengthIn: read(base.length_in, 'base.length_in', 0) } : null,
    traits: traitMap(u.traits as unknown[] | undefined, `${where}.traits`, '', read, placeholders, problems, file),
    weapons,
    placeholders,
    file,
  };
}

/** Loads and validates unit files; throws one UserError listing every problem found. */
export function loadRoster(files: readonly string[]): Roster {
  if (files.length === 0) throw new UserError('no unit files given');
  const problems: string[] = [];
  const units = new Map<string, UnitCard>();
  const seen = new Set<string>();
  for (const file of files) {
    // A file named twice (or by two paths) is read once: its cards are not duplicates of themselves.
    if (seen.has(resolve(file))) continue;
    seen.add(resolve(file));
    let data: unknown;
    try {
      data = readJsonFile(file);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(e.message, ...e.details);
      continue;
    }
    const schemaErrors = schemaProblems(UNITS_SCHEMA, data, file);
    if (schemaErrors.length) {
      problems.push(...schemaErrors);
      continue;
    }
    ((data as Json).units as Json[]).forEach((u, i) => {
      const card = toCard(u, i, file, problems);
      const prior = units.get(card.id);
      if (prior) problems.push(`${file}: units[${i}].id: duplicate id "${card.id}" (also in ${prior.file})`);
      else units.set(card.id, card);
    });
  }
  failOnProblems(files.length === 1 ? files[0] : 'unit files', problems);
  return { files, units };
}

/** The unit with this id, or a UserError listing the ids that exist. */
export function findUnit(roster: Roster, id: string, option: string): UnitCard {
  const unit = roster.units.get(id);
  if (unit) return unit;
  throw new UserError(`${option}: ${unknownUnitMessage(roster, id)}`);
}

/**
 * How near a known id is to a mistyped one (lower is nearer), or Infinity when it is no likely
 * meaning: the same name under another (or no) faction prefix, one name inside the other, or a
 * name within a typo or two (one for names of up to five letters, where two would make almost
 * any short name "near"). Names of one or two letters match nothing: they are inside too many.
 */
function nearness(known: string, id: string): number {
  const tail = (x: string) => (x.split('.').pop() ?? x).toLowerCase();
  const k = tail(known), t = tail(id);
  if (t.length < 3) return Infinity;
  if (k === t) return 0;
  const d = editDistance(k, t);
  if (d <= (t.length <= 5 ? 1 : 2)) return d;
  return k.length >= 3 && (k.includes(t) || t.includes(k)) ? 3 : Infinity;
}

/** 'unknown unit "ID"' with near matches (typos, a missing faction prefix), nearest first, and some known ids: on the command line, in batches and in scenarios. */
export function unknownUnitMessage(roster: Roster, id: string): string {
  const ids = [...roster.units.keys()];
  const near = ids
    .map((x, i) => ({ x, i, d: nearness(x, id) }))
    .filter((n) => n.d < Infinity)
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((n) => n.x);
  const known = ids.length > 8 ? `${ids.slice(0, 8).join(', ')}, ... (jwsim units lists all)` : ids.join(', ');
  return `unknown unit "${id}"; ${near.length ? `did you mean ${near.slice(0, 5).join(', ')}? ` : ''}known units: ${known}`;
}

/**
 * For a batch or scenario file that failed its schema check: the unit files its `units` field
 * names (one path or a list, relative to the file), the sample roster when it names none, or
 * null when the field is not readable.
 */
export function looseUnitFiles(file: string, data: unknown): string[] | null {
  if (!isObject(data) || data.units === undefined) return sampleRosterFiles();
  const units = typeof data.units === 'string' ? [data.units] : data.units;
  if (!Array.isArray(units) || !units.every((u) => typeof u === 'string')) return null;
  return units.map((f: string) => resolve(dirname(resolve(file)), f));
}

/**
 * For a file that failed its schema check: the unit ids it names that are not in the roster,
 * read defensively (a field that is not a string, or a list of strings, is left to the schema
 * messages). `refs` pairs each message prefix ("FILE: experiments[0].attacker") with the
 * field's raw value. The roster comes from `rosterFiles()` when it loads; when it does not
 * (or cannot be named yet), no ids are checked and the schema messages stand alone.
 */
export function looseUnitProblems(rosterFiles: () => readonly string[] | null, refs: ReadonlyArray<readonly [string, unknown]>): string[] {
  const ids = refs.flatMap(([at, v]) => (typeof v === 'string' ? [[at, v] as const] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => [at, x] as const) : []));
  if (ids.length === 0) return [];
  let roster: Roster;
  try {
    const files = rosterFiles();
    if (!files) return [];
    roster = loadRoster(files);
  } catch (e) {
    if (e instanceof UserError) return [];
    throw e;
  }
  return ids.filter(([, id]) => !roster.units.has(id)).map(([at, id]) => `${at}: ${unknownUnitMessage(roster, id)}`);
}

/** The weapon line called `name` (case-insensitive), or "#N" for the N-th line; undefined if none. */
export function weaponLine(unit: UnitCard, name: string): WeaponLine | undefined {
  const m = /^#(\d+)$/.exec(name.trim());
  return m ? unit.weapons[Number(m[1]) - 1] : unit.weapons.find((w) => w.name.toLowerCase() === name.trim().toLowerCase());
}

/** The lines of a unit as "#1 "Name", #2 ..." for error messages. */
export function weaponLines(unit: UnitCard): string {
  return unit.weapons.map((w, i) => `#${i + 1} "${w.name}"`).join(', ') || 'none';
}
