import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { policyParams } from '../../src/policies/index.js';
import { loadScenario, validateFleet } from '../../src/scenarios/scenario.js';
import { SCENARIO_FORMAT } from '../../src/scenarios/scenarioSchema.js';
import type { UnitCard } from '../../src/units/types.js';
import { userError } from '../helpers/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const battle = (name: string) => join(ROOT, 'scenarios', 'battles', name);
const V122 = { rulesVersion: '1.2.2', allowInvalidFleets: false };

/** A card with only what fleet validation reads. */
function card(id: string, tv: number, isCapital: boolean, unitCap: number | null = null): UnitCard {
  return { id, tv, isCapital, unitCap, type: isCapital ? 'capital_ship' : 'exo_armor' } as unknown as UnitCard;
}
const capital = (tv: number) => card(`cap-${tv}`, tv, true);
const squadron = (tv: number) => card(`sq-${tv}`, tv, false);

type Json = Record<string, unknown>;

/** A valid scenario (sample roster, 250 points) with `patch` applied on top. */
function scenarioJson(patch: Json = {}): Json {
  return {
    format: SCENARIO_FORMAT,
    id: 'test',
    deployment: { zone: 'standard', type: 'fleet' },
    sides: {
      a: { fleet: [{ unit: 'jovian.alexander', count: 3 }, { unit: 'jovian.pathfinder', count: 3 }], policy: { name: 'aggressive' } },
      b: { fleet: [{ unit: 'unknown.corsair', count: 2 }, { unit: 'cega.wyvern', count: 3 }], policy: { name: 'standoff', params: { range_margin: 2 } } },
    },
    ...patch,
  };
}

function writeTemp(name: string, content: string | Json): string {
  const dir = mkdtempSync(join(tmpdir(), 'jwsim-scenario-'));
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** Message plus details of a UserError, one string, for matching. */
function allText(fn: () => unknown): string {
  const e = userError(fn);
  return [e.message, ...e.details].join('\n');
}

describe('validateFleet: game.md §11.3 vectors (v1.2.2)', () => {
  it('FB-01: capital 180 + squadrons 70 at 250 is valid', () => {
    expect(validateFleet('1.2.2', 250, [capital(180), squadron(70)])).toEqual([]);
  });
  it('FB-02: capital 200 + squadrons 50 at 250 is invalid (squadrons below 62.5)', () => {
    const p = validateFleet('1.2.2', 250, [capital(200), squadron(50)]);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/squadrons total 50 TV, below 25% of the 250-point level \(62\.5/);
  });
  it('FB-03: capital 75 + squadrons 25 at 100 is valid (25 >= 25)', () => {
    expect(validateFleet('1.2.2', 100, [capital(75), squadron(25)])).toEqual([]);
  });
  it('FB-04: capital 380 + squadrons 130 at 500 is invalid (total 510)', () => {
    const p = validateFleet('1.2.2', 500, [capital(200), capital(180), squadron(130)]);
    expect(p).toEqual(['total 510 TV is over the 500-point level']);
  });
  it('FB-05: capital 200 + squadrons 150 at 500 is fine; static defences cannot be expressed, so their cap is never broken', () => {
    // The vector's failure comes from 130 TV of static defences, a model type the unit format
    // does not have; the rest of the fleet (total 350 <= 500, both 25% shares met) is valid.
    expect(validateFleet('1.2.2', 500, [capital(200), squadron(150)])).toEqual([]);
  });
});

describe('validateFleet: details', () => {
  it('25% of the level is compared exactly (GM-29): 62 TV fails at 250, 63 passes', () => {
    expect(validateFleet('1.2.2', 250, [capital(62), squadron(63)])).toEqual([expect.stringMatching(/^capital ships total 62 TV, below 25% .*62\.5/)]);
    expect(validateFleet('1.2.2', 250, [capital(63), squadron(63)])).toEqual([]);
  });
  it('a fleet may spend less than the level', () => {
    expect(validateFleet('1.2.2', 250, [capital(70), squadron(70)])).toEqual([]);
  });
  it('v1.2.1 uses the 1.2.2 percentages (GM-30); "v" prefixes are accepted', () => {
    const fleet = [capital(200), squadron(50)];
    expect(validateFleet('1.2.1', 250, fleet)).toEqual(validateFleet('1.2.2', 250, fleet));
    expect(validateFleet('v1.2.1', 250, fleet)).toEqual(validateFleet('1.2.2', 250, fleet));
  });
  it('every problem is reported at once', () => {
    expect(validateFleet('1.2.2', 250, [squadron(300)])).toHaveLength(2);
  });
  it('unit caps are not checked: they arrive in v1.2.3 (game.md §11.2), after both versions', () => {
    const fury = card('cega.fury', 20, false, 2);
    const ship = capital(70);
    for (const version of ['1.2.1', '1.2.2']) expect(validateFleet(version, 250, [ship, fury, fury, fury, fury, fury])).toEqual([]);
  });
  it('an unknown rules version is a UserError', () => {
    expect(userError(() => validateFleet('9.9', 250, [])).message).toMatch(/unknown rules version "9\.9"/);
  });
});

describe('sample scenarios (scenarios/battles)', () => {
  const samples = {
    'standard-engagement.json': { zone: 'standard', deployment: 'fleet', objectives: 0, policies: ['aggressive', 'aggressive'] },
    'beacon-assault.json': { zone: 'beacon', deployment: 'fleet', objectives: 2, policies: ['aggressive', 'aggressive'] },
    'corner-escalation.json': { zone: 'corner', deployment: 'escalating', objectives: 1, policies: ['standoff', 'aggressive'] },
  } as const;
  for (const [name, want] of Object.entries(samples)) {
    it(`${name} loads, and both fleets are valid at 250 points under v1.2.1 and v1.2.2`, () => {
      for (const rulesVersion of ['1.2.1', '1.2.2']) {
        const s = loadScenario(battle(name), { rulesVersion, allowInvalidFleets: false });
        expect(s.id).toBe(name.replace(/\.json$/, ''));
        expect(s.zone).toBe(want.zone);
        expect(s.deployment).toBe(want.deployment);
        expect(s.objectives).toHaveLength(want.objectives);
        expect(s.sides.map((x) => x.policy.name)).toEqual(want.policies);
        expect(s.table).toEqual({ width: 48, height: 48 });
        expect(s.points).toBe(250);
        expect(s.turns).toBe(7);
        expect(s.fleetWarnings).toEqual([]);
        for (const side of s.sides) {
          expect(side.tv).toBe(side.fleet.reduce((t, u) => t + u.tv, 0));
          expect(side.tv).toBeGreaterThan(225);
          expect(side.tv).toBeLessThanOrEqual(250);
          expect(validateFleet(rulesVersion, 250, side.fleet)).toEqual([]);
        }
        expect(s.sha256).toBe(createHash('sha256').update(readFileSync(battle(name))).digest('hex'));
      }
    });
  }

  it('standard-engagement: no objectives, ends early without capital ships', () => {
    const s = loadScenario(battle('standard-engagement.json'), V122);
    expect(s.earlyEnd).toEqual({ noCapitalShips: true, opAtLeast: null });
    expect(s.stripDepth).toBe(12);
    expect(s.sides[0].name).toBe('Jovian Navy');
  });

  it('beacon-assault: two 1-OP markers scoring from turn 2', () => {
    const s = loadScenario(battle('beacon-assault.json'), V122);
    expect(s.objectives.map((o) => [o.points, o.fromTurn, o.radius])).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  it('corner-escalation: side b comes from a fleet file, one central objective', () => {
    const s = loadScenario(battle('corner-escalation.json'), V122);
    expect(s.objectives).toEqual([{ id: 'centre', x: 24, y: 24, radius: 3, points: 1, fromTurn: 1 }]);
    expect(s.sides[1].fleet.map((u) => u.id)).toContain('unknown.intruder');
    expect(s.sides[1].tv).toBe(245);
  });
});

describe('loadScenario: policy parameters', () => {
  it('every bad parameter of both sides is reported with the other problems of the file, each at its path', () => {
    const data = scenarioJson();
    const sides = data.sides as Record<'a' | 'b', Json>;
    sides.a.policy = { name: 'aggressive', params: { agression: 1, focus: 0.5 } };
    sides.b.policy = { name: 'aggressive', params: { caution: 2 } };
    (sides.a.fleet as Json[]).push({ unit: 'unknown.poseidon', count: 3 });
    const file = writeTemp('params.json', data);
    const lines = allText(() => loadScenario(file, V122)).split('\n');
    expect(lines[0]).toBe(`${file}: 4 problems`);
    expect(lines.slice(1).map((l) => l.slice(0, l.indexOf(':', file.length + 2)))).toEqual([
      `${file}: sides.a.policy.params.agression`,
      `${file}: sides.a.policy.params.focus`,
      `${file}: sides.b.policy.params.caution`,
      `${file}: sides.a.fleet`,
    ]);
    expect(lines[2]).toContain('0.5 is not allowed; it must be 0 or 1');
  });
});

describe('loadScenario: defaults and options', () => {
  it('fills in every default', () => {
    const s = loadScenario(writeTemp('min.json', scenarioJson()), V122);
    expect(s).toMatchObject({
      description: null,
      table: { width: 48, height: 48 },
      points: 250,
      stripDepth: 12,
      turns: 7,
      initiative: 'random',
      objectives: [],
      earlyEnd: { noCapitalShips: false, opAtLeast: null },
      fleetWarnings: [],
    });
    expect(s.sides.map((x) => x.name)).toEqual(['A', 'B']);
    expect(s.sides[0].policy).toEqual({ name: 'aggressive', params: {} });
    expect(s.sides[1].policy).toEqual({ name: 'standoff', params: { range_margin: 2 } });
    expect(s.sides[0].fleet).toHaveLength(6);
    expect(s.sides[0].fleet.slice(0, 3).every((u) => u.id === 'jovian.alexander')).toBe(true);
    expect(s.sides[0].tv).toBe(3 * 31 + 3 * 29);
  });

  it('objective defaults', () => {
    const s = loadScenario(writeTemp('obj.json', scenarioJson({ objectives: [{ id: 'o', x: 0, y: 48 }] })), V122);
    expect(s.objectives).toEqual([{ id: 'o', x: 0, y: 48, radius: 3, points: 1, fromTurn: 1 }]);
  });

  it('a fleet_file is read relative to the scenario', () => {
    const file = writeTemp('ff.json', scenarioJson());
    const raw = scenarioJson() as { sides: { b: Json } };
    mkdirSync(join(file, '..', 'fleets'));
    writeFileSync(join(file, '..', 'fleets', 'b.json'), JSON.stringify({ fleet: [{ unit: 'unknown.poseidon' }, { unit: 'cega.uller', count: 2 }, { unit: 'cega.wyvern' }] }));
    raw.sides.b = { fleet_file: 'fleets/b.json', policy: { name: 'random' } };
    writeFileSync(file, JSON.stringify(raw));
    const s = loadScenario(file, V122);
    expect(s.sides[1].fleet.map((u) => u.id)).toEqual(['unknown.poseidon', 'cega.uller', 'cega.uller', 'cega.wyvern']);
  });

  it('opts.units replaces the file\'s units list', () => {
    const file = writeTemp('units.json', scenarioJson({ units: ['no-such-roster.json'] }));
    expect(loadScenario(file, { ...V122, units: [join(ROOT, 'scenarios', 'units', 'sample-roster.json')] }).roster.units.size).toBeGreaterThan(10);
    const e = userError(() => loadScenario(file, V122));
    expect(e.message).toMatch(/units\.json: units: .*no-such-roster\.json: cannot read file \(no such file\)/);
    expect(userError(() => loadScenario(file, { ...V122, units: ['nope.json'] })).message).toMatch(/: --units: nope\.json: cannot read file/);
  });

  it('an unknown rules version fails first', () => {
    expect(userError(() => loadScenario(battle('standard-engagement.json'), { rulesVersion: '2.0', allowInvalidFleets: false })).message).toMatch(/^--rules: unknown rules version "2\.0"/);
  });
});

describe('loadScenario: bad input', () => {
  it('malformed JSON names the file, line and column', () => {
    const file = writeTemp('bad.json', '{ "format": "jwsim-scenario/1", }');
    expect(userError(() => loadScenario(file, V122)).message).toBe(`${file}: not valid JSON at line 1, column 33: trailing comma before }`);
  });

  it('a key given twice in one object is refused at its second place (the last value would win silently)', () => {
    const file = writeTemp('dup.json', '{ "turns": 7,\n  "turns": 3 }');
    expect(userError(() => loadScenario(file, V122)).message).toBe(`${file}: not valid JSON at line 2, column 3: the key "turns" appears twice in one object`);
  });

  it('policy switches must be 0 or 1, and counts whole numbers', () => {
    const check = (params: Record<string, number>, name: 'aggressive' | 'lookahead' = 'aggressive') => policyParams({ name, params }, 'f.json: sides.a.policy');
    expect(userError(() => check({ intercept: 0.5 })).message).toMatch(/^f\.json: sides\.a\.policy\.params\.intercept: 0\.5 is not allowed; it must be 0 or 1/);
    expect(userError(() => check({ hold_squadrons: 2.5 })).message).toMatch(/params\.hold_squadrons: 2\.5 is not allowed; it must be a whole number in 0\.\.60/);
    expect(userError(() => check({ hold_until: 2.5 })).message).toMatch(/params\.hold_until: 2\.5 is not allowed/);
    expect(userError(() => check({ depth: 1.5 }, 'lookahead')).message).toMatch(/params\.depth: 1\.5 is not allowed; it must be a whole number in 1\.\.2/);
    expect(check({ intercept: 0, hold_squadrons: 2, deploy_depth: 0.25 })).toMatchObject({ intercept: 0, hold_squadrons: 2, deploy_depth: 0.25 });
  });

  it('an unknown unit id names the file and field and lists known ids', () => {
    const raw = scenarioJson() as { sides: { a: { fleet: Json[] } } };
    raw.sides.a.fleet[0] = { unit: 'jovian.alexandr', count: 3 };
    const file = writeTemp('unknown.json', raw);
    const text = allText(() => loadScenario(file, V122));
    expect(text).toContain(`${file}: sides.a.fleet[0].unit: unknown unit "jovian.alexandr"; did you mean jovian.alexander? known units: jovian.alexander, `);
    expect(text).not.toMatch(/squadrons total|capital ships total/); // no composition noise for a broken fleet
  });

  it('an unknown unit id is reported beside schema problems, not in a second round', () => {
    const raw = scenarioJson({ turns: 0 }) as { sides: { a: { fleet: Json[] }; b: { fleet: unknown[] } } };
    raw.sides.a.fleet[0] = { unit: 'jovian.alexandr', count: 3 };
    raw.sides.b.fleet[0] = { unit: 42 }; // not a string: left to the schema message
    const file = writeTemp('both.json', raw);
    const lines = allText(() => loadScenario(file, V122)).split('\n');
    expect(lines.filter((l) => l.includes('turns: 0 must be >= 1'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(`${file}: sides.a.fleet[0].unit: unknown unit "jovian.alexandr"; did you mean jovian.alexander?`))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('sides.b.fleet[0].unit')).every((l) => !l.includes('unknown unit'))).toBe(true);
    // A units list the schema refuses names no roster: only the schema messages are given.
    const bad = writeTemp('both-units.json', { ...raw, units: 7 });
    expect(allText(() => loadScenario(bad, V122))).not.toContain('unknown unit');
  });

  it('a bad zone name lists the allowed zones', () => {
    const file = writeTemp('zone.json', scenarioJson({ deployment: { zone: 'diagonal', type: 'fleet' } }));
    expect(allText(() => loadScenario(file, V122))).toContain(`${file}: deployment.zone: "diagonal" is not one of standard, beacon, corner`);
  });

  it('an objective off the table names the objective and the table', () => {
    const file = writeTemp('off.json', scenarioJson({ table: { width: 36, height: 36 }, objectives: [{ id: 'far', x: 40, y: 10 }] }));
    expect(allText(() => loadScenario(file, V122))).toContain(`${file}: objectives[0].x: 40 is off the table; x must lie in 0..36 on a 36" x 36" table`);
  });

  it('duplicate objective ids, a marker that never scores, and op_at_least without objectives', () => {
    const dup = writeTemp('dup.json', scenarioJson({ turns: 3, objectives: [{ id: 'o', x: 1, y: 1 }, { id: 'o', x: 2, y: 2, from_turn: 4 }] }));
    const text = allText(() => loadScenario(dup, V122));
    expect(text).toContain(`${dup}: objectives[1].id: duplicate objective id "o"`);
    expect(text).toContain(`${dup}: objectives[1].from_turn: 4 is after the last turn (3)`);
    const op = writeTemp('op.json', scenarioJson({ early_end: { op_at_least: 3 } }));
    expect(userError(() => loadScenario(op, V122)).message).toMatch(/op\.json: early_end\.op_at_least: the scenario has no objectives/);
  });

  it('zones that do not fit the table', () => {
    const deep = writeTemp('deep.json', scenarioJson({ table: { width: 48, height: 30 }, deployment: { zone: 'standard', type: 'fleet', strip_depth: 16 } }));
    expect(userError(() => loadScenario(deep, V122)).message).toBe(`${deep}: deployment.strip_depth: 16 is more than half the table height (15" on a 48" x 30" table); the two strips would overlap`);
    const small = writeTemp('small.json', scenarioJson({ table: { width: 20, height: 48 }, deployment: { zone: 'beacon', type: 'fleet' } }));
    expect(userError(() => loadScenario(small, V122)).message).toMatch(/small\.json: table: the beacon zone needs a table at least 24" x 24"/);
    const corner = writeTemp('corner.json', scenarioJson({ table: { width: 13, height: 99 }, deployment: { zone: 'corner', type: 'escalating' } }));
    expect(loadScenario(corner, V122).zone).toBe('corner');
  });

  it('a fleet over the level fails, naming the file and side; --allow-invalid-fleets turns it into warnings', () => {
    const raw = scenarioJson() as { sides: { b: { fleet: Json[] } } };
    raw.sides.b.fleet = [{ unit: 'unknown.poseidon', count: 1 }, { unit: 'unknown.corsair', count: 2 }, { unit: 'cega.fury', count: 5 }];
    const file = writeTemp('expensive.json', raw); // 68 + 82 + 95 = 245 at a lower level
    const patched = writeTemp('expensive.json', { ...raw, points: 200 });
    const e = userError(() => loadScenario(patched, V122));
    expect(e.message).toBe(`${patched}: sides.b.fleet: total 245 TV is over the 200-point level (fleet rules v1.2.2; --allow-invalid-fleets runs it anyway)`);
    const s = loadScenario(patched, { ...V122, allowInvalidFleets: true });
    expect(s.fleetWarnings).toEqual(['sides.b.fleet: total 245 TV is over the 200-point level']);
    expect(s.sides[1].tv).toBe(245);
    expect(loadScenario(file, V122).fleetWarnings).toEqual([]);
  });

  it('fleet and fleet_file together, or neither, are refused', () => {
    const raw = scenarioJson() as { sides: { a: Json; b: Json } };
    raw.sides.a.fleet_file = 'fleets/a.json';
    delete raw.sides.b.fleet;
    const file = writeTemp('both.json', raw);
    const text = allText(() => loadScenario(file, V122));
    expect(text).toContain(`${file}: sides.a: give either "fleet" or "fleet_file", not both`);
    expect(text).toContain(`${file}: sides.b: missing "fleet"`);
  });

  it('problems inside a fleet file name both files', () => {
    const raw = scenarioJson() as { sides: { b: Json } };
    raw.sides.b = { fleet_file: 'fleet.json', policy: { name: 'aggressive' } };
    const file = writeTemp('outer.json', raw);
    const fleetFile = join(file, '..', 'fleet.json');
    writeFileSync(fleetFile, JSON.stringify({ fleet: [{ unit: 'cega.wyvern', count: 0 }] }));
    expect(allText(() => loadScenario(file, V122))).toContain(`${file}: sides.b.fleet_file: ${fleetFile}: fleet[0].count: 0 must be >= 1`);
    writeFileSync(fleetFile, JSON.stringify({ fleet: [{ unit: 'cega.nope' }] }));
    expect(allText(() => loadScenario(file, V122))).toContain(`${file}: sides.b.fleet_file: ${fleetFile}: fleet[0].unit: unknown unit "cega.nope"`);
  });

  it('more than 60 models on a side is refused', () => {
    const raw = scenarioJson() as { sides: { a: { fleet: Json[] } } };
    raw.sides.a.fleet = [{ unit: 'unknown.mackie', count: 50 }, { unit: 'cega.fury', count: 11 }];
    const file = writeTemp('many.json', raw);
    expect(allText(() => loadScenario(file, { ...V122, allowInvalidFleets: true }))).toContain(`${file}: sides.a.fleet: 61 models; a side may field at most 60`);
  });

  it('schema problems are all listed with their paths', () => {
    const file = writeTemp('schema.json', scenarioJson({ format: 'jwsim-scenario/2', turns: 0, initiative: 'c', extra: 1 }));
    const e = userError(() => loadScenario(file, V122));
    expect(e.message).toMatch(/schema\.json: \d+ problems$/);
    const text = e.details.join('\n');
    expect(text).toContain(`${file}: format: "jwsim-scenario/2" must be "jwsim-scenario/1"`);
    expect(text).toContain(`${file}: turns: 0 must be >= 1`);
    expect(text).toContain(`${file}: initiative: "c" is not one of a, b, random`);
    expect(text).toContain(`${file}: (top level): unknown field "extra"`);
  });

  it('policy params must be numbers', () => {
    const raw = scenarioJson() as { sides: { a: { policy: Json } } };
    raw.sides.a.policy = { name: 'aggressive', params: { deploy_depth: 'deep' } };
    const file = writeTemp('params.json', raw);
    expect(allText(() => loadScenario(file, V122))).toContain(`${file}: sides.a.policy.params.deploy_depth: "deep" must be number`);
  });
});
