import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sampleRosterFiles } from '../../src/paths.js';
import { PUBLISHED_SCHEMAS } from '../../src/schemas/index.js';
import { TRAIT_NAMES, WEAPON_CLASSES } from '../../src/units/catalogue.js';
import { MAX_WEAPON_LINES } from '../../src/units/schema.js';
import { findUnit, loadRoster } from '../../src/units/load.js';
import { userError } from '../helpers/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'scenarios', 'units', 'sample-roster.json');
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/units/${name}`, import.meta.url));

/** Every unit named in shared/rules/units.md (§3, including the name-only units of §3.14). */
const UNITS_MD_NAMES = [
  'Alexander',
  'Valiant',
  'Tengu',
  'Pathfinder',
  'Wyvern',
  'Uller',
  'Fury',
  'Ryu',
  'Corsair',
  'Shan-Yu',
  'Wraith',
  'Thunderbolt',
  'Syreen',
  'Hector',
  'Dragon Striker',
  'Storm Rider',
  'Poseidon',
  'Vindicator',
  'Lancer',
  'Retaliator',
  'Syrtis',
  'Mackie',
  'Stiletto',
  'Intruder',
  'Crusader',
];

type Json = Record<string, unknown>;

/** Card-relative paths (as UnitCard.placeholders spells them) of every { value, status } in `v`. */
function ratingPaths(v: unknown, path: string, status: string, out: string[]): string[] {
  if (Array.isArray(v)) {
    v.forEach((x, i) => ratingPaths(x, `${path}[${i}]`, status, out));
  } else if (v !== null && typeof v === 'object') {
    const o = v as Json;
    if ('value' in o && typeof o.value === 'number' && o.status === status) out.push(path);
    for (const [k, x] of Object.entries(o)) ratingPaths(x, path ? `${path}.${k}` : k, status, out);
  }
  return out;
}

describe('loadRoster: the sample roster', () => {
  const raw = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { units: Json[] };
  const roster = loadRoster([SAMPLE]);
  const cards = [...roster.units.values()];

  it('is the default roster and loads 25 units, in file order', () => {
    expect(sampleRosterFiles()).toEqual([SAMPLE]);
    expect(roster.files).toEqual([SAMPLE]);
    expect(roster.units.size).toBe(25);
    expect(cards.map((c) => c.id)).toEqual(raw.units.map((u) => u.id));
    for (const c of cards) expect(c.file).toBe(SAMPLE);
  });

  it('holds every unit named in shared/rules/units.md, once', () => {
    const names = cards.map((c) => c.name);
    expect([...names].sort()).toEqual([...UNITS_MD_NAMES].sort());
  });

  it('the values units.md gives land on the cards', () => {
    const u = (id: string) => findUnit(roster, id, 'test');
    expect(u('jovian.alexander')).toMatchObject({ sensors: 3, armor: { fore: 1 }, isCapital: true });
    expect(u('jovian.valiant').structure).toBe(4);
    expect(u('unknown.tengu').structure).toBe(3);
    expect(u('jovian.pathfinder')).toMatchObject({ skill: 2, structure: 6, type: 'exo_armor', isCapital: false });
    expect(u('jovian.pathfinder').weapons[0]).toMatchObject({ name: 'Beam Projector', as: 3, arcs: ['T'] });
    expect(u('cega.wyvern').weapons[0]).toMatchObject({ name: 'Mass Driver', ac: 2, as: 2, macro: 1 });
    expect(u('cega.wyvern').weapons[1]).toMatchObject({ as: 2, ac: null });
    expect(u('venus.shan-yu')).toMatchObject({ speed: 6, turns: 1, thrusters: 4 });
    expect(u('unknown.corsair')).toMatchObject({ fireControl: 2, unitCap: 2 });
    expect(u('unknown.corsair').weapons).toHaveLength(3);
    expect(u('cega.fury').unitCap).toBe(5);
    expect(u('venus.ryu').unitCap).toBe(4);
    expect(u('unknown.wraith').fuel).toBe(2);
    expect(u('unknown.wraith').traits.has('Heavy')).toBe(true);
  });

  it('every number in the file is a { value, status } rating: no bare integers anywhere', () => {
    const bare: string[] = [];
    const statuses = new Set<unknown>();
    const walk = (v: unknown, path: string, parentIsRating: boolean) => {
      if (typeof v === 'number') {
        if (!parentIsRating) bare.push(path);
      } else if (Array.isArray(v)) {
        v.forEach((x, i) => walk(x, `${path}[${i}]`, false));
      } else if (v !== null && typeof v === 'object') {
        const o = v as Json;
        const isRating = 'value' in o;
        if (isRating) statuses.add(o.status);
        for (const [k, x] of Object.entries(o)) walk(x, `${path}.${k}`, isRating && k === 'value');
      }
    };
    walk(raw, '', false);
    expect(bare).toEqual([]);
    expect([...statuses].sort()).toEqual(['INFERRED', 'PLACEHOLDER', 'SOURCED']);
  });

  it('every trait says where it comes from (SOURCED, INFERRED or PLACEHOLDER)', () => {
    for (const u of raw.units) {
      for (const t of [...((u.traits as unknown[]) ?? []), ...(u.weapons as Json[]).flatMap((w) => (w.traits as unknown[]) ?? [])]) {
        expect(typeof t).toBe('object');
        expect(['SOURCED', 'INFERRED', 'PLACEHOLDER']).toContain((t as Json).status);
      }
    }
  });

  it('PLACEHOLDER ratings are recorded in card.placeholders; SOURCED and INFERRED ones are not', () => {
    raw.units.forEach((u, i) => {
      const card = cards[i];
      // Ratings here; traits are checked below (their paths are "traits.<Name>").
      const withoutTraits = (paths: Iterable<string>) => [...paths].filter((p) => !/(^|\.)traits[[.]/.test(p)).sort();
      expect(withoutTraits(card.placeholders), card.id).toEqual(withoutTraits(ratingPaths(u, '', 'PLACEHOLDER', [])));
      for (const p of [...ratingPaths(u, '', 'SOURCED', []), ...ratingPaths(u, '', 'INFERRED', [])]) {
        expect(card.placeholders.has(p), `${card.id} ${p}`).toBe(false);
      }
    });
    const alexander = roster.units.get('jovian.alexander')!;
    expect(alexander.placeholders.has('tv')).toBe(true);
    expect(alexander.placeholders.has('weapons[0].ac')).toBe(true);
    expect(alexander.placeholders.has('armor.port_starboard')).toBe(true);
    expect(alexander.placeholders.has('base.width_in')).toBe(true);
    expect(alexander.placeholders.has('sensors')).toBe(false);
    expect(alexander.placeholders.has('armor.fore')).toBe(false);
    expect(roster.units.get('cega.wyvern')!.placeholders.has('weapons[0].ac')).toBe(false);
    // Traits marked PLACEHOLDER, and placeholder trait values, are recorded as "traits.<Name>".
    expect(alexander.placeholders.has('traits.Belt')).toBe(true);
    expect(roster.units.get('unknown.tengu')!.placeholders.has('traits.Countermeasures')).toBe(true);
    expect(roster.units.get('unknown.wraith')!.placeholders.has('traits.Heavy')).toBe(false); // INFERRED
  });
});

describe('loadRoster: a valid file of its own', () => {
  it('plain integers are values from a real card (not placeholders); defaults fill what is omitted', () => {
    const r = loadRoster([fixture('good.json')]);
    expect([...r.units.keys()]).toEqual(['test.cruiser', 'test.fighter']);
    const cruiser = r.units.get('test.cruiser')!;
    expect([...cruiser.placeholders].sort()).toEqual(['defense', 'weapons[0].macro']);
    expect(cruiser).toMatchObject({ tv: 40, defense: 2, unitCap: null, crippledAt: null, base: { widthIn: 1.5, lengthIn: 2 }, armor: { fore: 1, portStarboard: 0, aft: 0 } });
    expect(cruiser.traits.get('Repair')).toBe(1);
    expect(cruiser.traits.get('Command')).toBe(1);
    expect(cruiser.weapons[0]).toMatchObject({ index: 0, cls: 'mass_driver', count: 1, ac: 3, as: 2, macro: 1, arcs: ['F', 'P'] });
    expect(cruiser.weapons[1]).toMatchObject({ index: 1, cls: 'missile', count: 2, ac: 2, as: null, macro: 0, arcs: ['T'] });
    expect(cruiser.weapons[1].traits.has('Precise')).toBe(true);
    const fighter = r.units.get('test.fighter')!;
    expect(fighter.placeholders.size).toBe(0);
    expect(fighter).toMatchObject({ type: 'fighter', isCapital: false, tv: 12, fuel: 3, structure: 6, crippledAt: 2, base: null });
    expect(fighter.weapons[0]).toMatchObject({ ac: null, as: 3, arcs: ['T'] });
    // A squadron weapon may say arcs ["T"] (any direction); it is the same as omitting them.
    expect(fighter.weapons[1].arcs).toEqual(['T']);
  });

  it('no files at all is a UserError', () => {
    expect(userError(() => loadRoster([])).message).toMatch(/no unit files/);
  });
});

describe('loadRoster: bad input is a UserError naming the file and JSON path, every problem at once', () => {
  it('malformed JSON: file, line and column', () => {
    const file = fixture('malformed.json');
    const e = userError(() => loadRoster([file]));
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/not valid JSON/);
    expect(e.message).toMatch(/not valid JSON at line 6, column 7: expected ',' or '}'/);
    expect(e.message).not.toContain('\n');
  });

  it('a missing file', () => {
    const file = fixture('no-such-file.json');
    const e = userError(() => loadRoster([file]));
    expect(e.message).toBe(`${file}: cannot read file (no such file)`);
  });

  it('a folder instead of a file', () => {
    const dir = fileURLToPath(new URL('../fixtures/units/', import.meta.url)).replace(/\/$/, '');
    expect(userError(() => loadRoster([dir])).message).toMatch(/cannot read file \(it is a folder\)/);
  });

  it('schema violations: all of them, each with file and path, in one error', () => {
    const file = fixture('schema-errors.json');
    const e = userError(() => loadRoster([file]));
    const expected = [
      '(top level): unknown field "colour"; allowed here: $schema, format, description, units',
      'format: "jwsim-units/2" must be "jwsim-units/1"',
      'units[0]: missing required field "armor"',
      'units[0]: missing required field "base"',
      'units[0].tv: 2.5 must be integer',
      'units[0].skill: -1 must be >= 0',
      'units[0].structure: 11 must be <= 10',
      `units[0].traits[0]: "Warp Drive" is not one of ${TRAIT_NAMES.join(', ')}`,
      `units[0].weapons[0].class: "laser" is not one of ${WEAPON_CLASSES.join(', ')}`,
      'units[0].weapons[0].ac: 13 must be <= 12',
      'units[0].weapons[0].arcs[0]: "X" is not one of F, P, S, R, T',
      'units[1]: missing required field "fuel"',
      'units[1].fire_control.status: "GUESSED" is not one of SOURCED, INFERRED, PLACEHOLDER',
      'units[1].weapons[0]: unknown field "range"; allowed here: name, class, count, ac, as, macro, arcs, traits, note',
      `units[1].weapons[0].traits[0].name: "Teleport" is not one of ${TRAIT_NAMES.join(', ')}`,
    ].map((m) => `${file}: ${m}`);
    expect([...e.details].sort()).toEqual([...expected].sort());
    expect(e.message).toBe(`${file}: ${expected.length} problems`);
  });

  it('checks beyond the schema: trait values, crippled_at, arcs, duplicate ids', () => {
    const file = fixture('semantic-errors.json');
    const e = userError(() => loadRoster([file]));
    const expected = [
      'units[0].crippled_at: only squadrons have small damage boxes',
      'units[0].weapons[0].arcs: capital-ship weapons need arcs (F, P, S, R, T)',
      'units[0].traits[0]: trait Belt needs a value, e.g. { "name": "Belt", "value": 1 }',
      'units[0].traits[1]: trait Cloak takes no value',
      'units[1].crippled_at: 6 must be below structure (6)',
      'units[1].weapons[0].arcs: squadron weapons fire in any direction; omit arcs',
      'units[1].weapons[0].traits[0]: trait Repair needs a value, e.g. { "name": "Repair", "value": 1 }',
      `units[2].id: duplicate id "test.capital" (also in ${file})`,
    ].map((m) => `${file}: ${m}`);
    expect([...e.details].sort()).toEqual([...expected].sort());
    expect(e.message).toBe(`${file}: 8 problems`);
  });

  it('checks beyond the schema: fields a unit type does not have, repeated weapon names (repeated traits stack, combat.md §7)', () => {
    const file = fixture('card-conflicts.json');
    const e = userError(() => loadRoster([file]));
    const expected = [
      'units[0].fuel: only squadrons have Fuel; leave it out for a capital ship',
      'units[0].weapons[2].name: duplicate weapon name "Mass Driver" (also weapons[0]); each weapon line of a unit needs its own name',
      'units[0].weapons[3].name: duplicate weapon name "particle cannon" (also weapons[1] "Particle Cannon"; names are compared ignoring case); each weapon line of a unit needs its own name',
      'units[1].armor: only capital ships have Armor (rules v1.2.2); leave it out for a squadron',
      'units[1].turns: only capital ships have Turns; leave it out for a squadron',
      'units[1].thrusters: only capital ships have Thrusters; leave it out for a squadron',
      'units[1].base: only capital ships have a base size (squadrons use a 1" hex); leave it out for a squadron',
    ].map((m) => `${file}: ${m}`);
    expect(e.details).toEqual(expected);
    expect(e.message).toBe(`${file}: 7 problems`);
  });

  it('a trait listed twice stacks (combat.md §7): Belt 1 and Belt 3 make Belt 4', () => {
    const u = loadRoster([fixture('stacked-traits.json')]).units.get('test.belted')!;
    expect(u.traits.get('Belt')).toBe(4);
    expect(u.traits.has('Cloak')).toBe(true);
  });

  it(`a card with more than ${MAX_WEAPON_LINES} weapon lines is refused with the count and the limit (battles keep per-line records of that size)`, () => {
    const roster = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { units: Array<{ id: string; weapons: Array<{ name: string }> }> };
    const u = roster.units.find((x) => x.id === 'jovian.alexander')!;
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-units-'));
    const write = (lines: number) => {
      u.weapons = Array.from({ length: lines }, (_, i) => ({ ...u.weapons[0], name: `Line ${i + 1}` }));
      const file = join(dir, `lines-${lines}.json`);
      writeFileSync(file, JSON.stringify(roster));
      return file;
    };
    expect(loadRoster([write(MAX_WEAPON_LINES)]).units.get('jovian.alexander')!.weapons).toHaveLength(MAX_WEAPON_LINES);
    const file = write(MAX_WEAPON_LINES + 1);
    expect(userError(() => loadRoster([file])).message).toBe(`${file}: units[0].weapons: has ${MAX_WEAPON_LINES + 1} items; allowed: at most ${MAX_WEAPON_LINES}`);
  });

  it('a valid file with a weaponless ship and a squadron without small damage boxes loads', () => {
    const r = loadRoster([fixture('engagement-edge.json')]);
    expect(r.units.get('test.hulk')!.weapons).toEqual([]);
    expect(r.units.get('test.torpedo-boat')).toMatchObject({ crippledAt: 0, fuel: 2, isCapital: false });
  });

  it('a duplicate id across two files names both files', () => {
    const a = fixture('dup-a.json');
    const b = fixture('dup-b.json');
    const e = userError(() => loadRoster([a, b]));
    // A single problem is the whole message.
    expect(e.message).toBe(`${b}: units[0].id: duplicate id "test.fighter" (also in ${a})`);
    expect(e.details).toEqual([]);
    // Each file on its own is valid.
    expect(loadRoster([a]).units.size).toBe(1);
    expect(loadRoster([b]).units.size).toBe(1);
  });

  it('problems of several files are listed together', () => {
    const s = fixture('schema-errors.json');
    const m = fixture('semantic-errors.json');
    const e = userError(() => loadRoster([s, m, fixture('good.json')]));
    expect(e.message).toBe('unit files: 23 problems');
    expect(e.details.filter((d) => d.startsWith(`${s}: `))).toHaveLength(15);
    expect(e.details.filter((d) => d.startsWith(`${m}: `))).toHaveLength(8);
  });
});

describe('findUnit', () => {
  const roster = loadRoster([SAMPLE]);
  it('an unknown id names the option, suggests near ids and lists known ones', () => {
    const e = userError(() => findUnit(roster, 'alexander', '--attacker'));
    expect(e.message).toMatch(/^--attacker: unknown unit "alexander"; did you mean jovian\.alexander\? known units: jovian\.alexander, /);
    const far = userError(() => findUnit(roster, 'zzz', '--target'));
    expect(far.message).not.toMatch(/did you mean/);
    expect(far.message).toMatch(/known units: jovian\.alexander, .*\(jwsim units lists all\)/);
  });
  it('suggests only ids that are likely meant, nearest first', () => {
    const suggested = (id: string) => /did you mean (.*?)\? /.exec(userError(() => findUnit(roster, id, '--target')).message)?.[1] ?? null;
    // A one-letter name is inside many ids and within two edits of every short one: nothing is suggested.
    expect(suggested('x.y')).toBeNull();
    expect(suggested('ab')).toBeNull();
    // A typo: the one id within reach; a short name allows one edit only.
    expect(suggested('jovian.valient')).toBe('jovian.valiant');
    expect(suggested('ryy')).toBe('venus.ryu');
    expect(suggested('fyry')).toBe('cega.fury');
    expect(suggested('fxxy')).toBeNull();
    // The right name under a wrong faction prefix comes before names that merely contain it.
    expect(suggested('cega.alexander')).toBe('jovian.alexander');
    expect(suggested('striker')).toBe('unknown.dragon-striker');
  });
});

describe('published JSON Schemas', () => {
  it('scenarios/schemas/ holds exactly the current schemas (run `npm run schemas` after a change)', () => {
    expect(Object.keys(PUBLISHED_SCHEMAS)).toEqual(expect.arrayContaining(['units.schema.json', 'overlay.schema.json']));
    // No stale schema file is left behind, and none is missing.
    const onDisk = readdirSync(join(ROOT, 'scenarios', 'schemas')).filter((f) => f.endsWith('.schema.json'));
    expect(onDisk.sort()).toEqual(Object.keys(PUBLISHED_SCHEMAS).sort());
    for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
      const published = readFileSync(join(ROOT, 'scenarios', 'schemas', name), 'utf8');
      expect(published, name).toBe(JSON.stringify(schema, null, 2) + '\n');
    }
  });
});

describe('loadRoster: malformed files do not hide other files\' problems', () => {
  it('two malformed files are both reported, each with line, column and reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-units-'));
    const bad = join(dir, 'trailing-comma.json');
    writeFileSync(bad, '{"format": "jwsim-units/1", "units": [1,]}');
    const e = userError(() => loadRoster([bad, fixture('malformed.json')]));
    expect(e.message).toBe('unit files: 2 problems');
    expect(e.details[0]).toBe(`${bad}: not valid JSON at line 1, column 41: trailing comma before ]`);
    expect(e.details[1]).toMatch(/malformed\.json: not valid JSON at line 6, column 7/);
  });
});
