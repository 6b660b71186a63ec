import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { loadRoster } from '../../src/units/load.js';
import { jwsim } from '../helpers/cli.js';
import { userError } from '../helpers/errors.js';

const SAMPLE = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
const unitsFixture = (name: string) => fileURLToPath(new URL(`../fixtures/units/${name}`, import.meta.url));
const overlayFixture = (name: string) => fileURLToPath(new URL(`../fixtures/overlays/${name}`, import.meta.url));

/** Runs jwsim, expects exit 0 and a clean stderr, and parses the JSON on stdout. */
function json(...args: string[]) {
  const r = jwsim(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

/** The problems loadRoster reports for these files (what the CLI must print). */
function rosterProblems(files: string[]): UserError {
  return userError(() => loadRoster(files));
}

const ALEX_PC = ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Particle Cannon', '--target', 'jovian.valiant'];

describe('jwsim units', () => {
  it('--json lists the 25 units of the sample roster, with their placeholders', () => {
    const j = json('units');
    expect(j.files).toEqual([SAMPLE]);
    expect(j.units).toHaveLength(25);
    const alexander = j.units.find((u: { id: string }) => u.id === 'jovian.alexander');
    expect(alexander).toMatchObject({ name: 'Alexander', type: 'capital_ship', sensors: 3, file: SAMPLE });
    expect(alexander.placeholders).toContain('tv');
    expect(alexander.placeholders).not.toContain('sensors');
    expect(j.units.every((u: { placeholders: string[] }) => u.placeholders.length > 0)).toBe(true);
  });

  it('human output marks placeholder values with *', () => {
    const r = jwsim('units');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`25 units from ${SAMPLE}`);
    expect(r.stdout).toMatch(/^jovian\.alexander .* 31\* /m);
    expect(r.stdout).toMatch(/25 of 25 units use some/);
  });

  it('--units FILE lists that file instead', () => {
    const file = unitsFixture('good.json');
    const j = json('units', '--units', file);
    expect(j.files).toEqual([file]);
    expect(j.units.map((u: { id: string }) => u.id)).toEqual(['test.cruiser', 'test.fighter']);
  });

  it('--check on a good file exits 0', () => {
    const file = unitsFixture('good.json');
    const r = jwsim('units', '--check', file);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${file}: valid, 2 units\n`);
    expect(json('units', '--check', file, SAMPLE)).toEqual({ valid: true, files: [file, SAMPLE], units: 27 });
  });

  it('--check on bad files exits 2 with every problem on stderr and nothing on stdout', () => {
    const files = [unitsFixture('schema-errors.json'), unitsFixture('semantic-errors.json')];
    const expected = rosterProblems(files);
    expect(expected.details.length).toBe(23);
    const r = jwsim('units', '--check', ...files);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('jwsim: error: unit files: 23 problems');
    expect(lines.slice(1)).toEqual(expected.details.map((d) => `  ${d}`));
    expect(r.stderr).toContain(`${files[0]}: units[0].weapons[0].arcs[0]: "X" is not one of F, P, S, R, T`);
    expect(r.stderr).toContain(`${files[1]}: units[1].crippled_at: 6 must be below structure (6)`);
  });
});

describe('jwsim attack / volley / ram / duel --json', () => {
  it('attack: rules, options, placeholders, damage figures', () => {
    const j = json(...ALEX_PC, '--range', '8');
    for (const k of ['rules', 'options', 'placeholders', 'p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_rating_damage', 'damage_per_100_tv']) {
      expect(j, k).toHaveProperty(k);
    }
    expect(j.rules).toBe('1.2.2');
    expect(j.method).toBe('exact');
    expect(j.options.zero_rating_hit).toBe('NONE');
    expect(Array.isArray(j.placeholders)).toBe(true);
    expect(j.placeholders.length).toBeGreaterThan(0);
    expect(j.placeholders).toContain('jovian.alexander.tv');
    expect(Object.keys(j.mean_rating_damage).sort()).toEqual(['defense', 'sensors', 'thrusters']);
    for (const v of Object.values(j.mean_rating_damage)) expect(v).toBeGreaterThanOrEqual(0);
    for (const p of [j.p_destroyed, j.p_crippled]) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
    expect(j.mean_structure_damage).toBeGreaterThan(0);
    expect(j.damage_per_100_tv).toBeCloseTo((100 * j.mean_structure_damage) / j.attacker.tv, 12);
    expect(j.attacker).toMatchObject({ id: 'jovian.alexander', tv: 31 });
    expect(j.situation).toMatchObject({ range_inches: 8, aspect: 'front', band: 'long' });
  });

  it('attack with --trials samples, reproducibly, near the exact value', () => {
    const args = [...ALEX_PC, '--range', '8', '--trials', '20000', '--seed', '3'];
    const a = jwsim(...args, '--json');
    expect(a.status).toBe(0);
    expect(jwsim(...args, '--json').stdout).toBe(a.stdout);
    const mc = JSON.parse(a.stdout);
    const ex = json(...ALEX_PC, '--range', '8');
    expect(mc.method).toBe('monte-carlo');
    expect(mc.trials).toBe(20000);
    expect(Math.abs(mc.mean_structure_damage - ex.mean_structure_damage)).toBeLessThan(5 * mc.se.mean_structure_damage + 1e-9);
  });

  it('volley: the attacks in order and the damage figures', () => {
    const j = json('volley', '--attacker', 'jovian.alexander', '--target', 'jovian.valiant', '--range', '8', '--trials', '2000', '--seed', '5');
    for (const k of ['rules', 'options', 'placeholders', 'method', 'trials', 'seed', 'attacker', 'target', 'situation', 'attacks', 'skipped', 'mean_attacks', 'p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_rating_damage', 'damage_per_100_tv', 'se']) {
      expect(j, k).toHaveProperty(k);
    }
    expect(j.trials).toBe(2000);
    expect(j.seed).toBe('5');
    expect(j.attacks.length).toBeGreaterThan(0);
    expect(j.attacks.length).toBeLessThanOrEqual(3); // the Alexander's Fire Control
    expect(Object.keys(j.mean_rating_damage).sort()).toEqual(['defense', 'sensors', 'thrusters']);
    expect(j.placeholders).toContain('jovian.alexander.fire_control');
  });

  it('ram: the case, the pools and the damage on both sides', () => {
    const j = json('ram', '--rammer', 'jovian.valiant', '--target', 'unknown.tengu', '--aspect', 'side', '--rules', '1.2.1');
    for (const k of ['rules', 'options', 'placeholders', 'method', 'case', 'rammer', 'target', 'aspect', 'pools', 'p_rams', 'p_shot_down', 'p_skill_fails', 'p_destroyed', 'p_crippled', 'mean_structure_damage', 'mean_rating_damage', 'damage_per_100_tv', 'rammer_damage']) {
      expect(j, k).toHaveProperty(k);
    }
    expect(j.rules).toBe('1.2.1');
    expect(j.method).toBe('exact');
    expect(j.aspect).toBe('side');
    expect(j.rammer).toMatchObject({ id: 'jovian.valiant', structure: 4 });
    expect(j.target).toMatchObject({ id: 'unknown.tengu', structure: 3 });
    expect(j.rammer_damage).toHaveProperty('p_destroyed');
    expect(j.rammer_damage).toHaveProperty('mean_structure_damage');
    expect(j.p_rams).toBeGreaterThan(0);
    expect(j.p_rams).toBeLessThanOrEqual(1);
  });

  it('duel: win and draw rates with 95% intervals that sum to 1, TVs, mean rounds', () => {
    const j = json('duel', 'cega.wyvern', 'jovian.pathfinder', '--range', '6', '--trials', '2000', '--seed', '7');
    for (const k of ['rules', 'options', 'placeholders', 'method', 'trials', 'seed', 'situation', 'a', 'b', 'draw_rate', 'draw_rate_95', 'mean_rounds', 'rounds_histogram']) {
      expect(j, k).toHaveProperty(k);
    }
    expect(j.trials).toBe(2000);
    expect(j.a).toMatchObject({ id: 'cega.wyvern', tv: 24 });
    expect(j.b).toMatchObject({ id: 'jovian.pathfinder', tv: 29 });
    expect(j.a.win_rate + j.b.win_rate + j.draw_rate).toBeCloseTo(1, 12);
    for (const [rate, ci] of [
      [j.a.win_rate, j.a.win_rate_95],
      [j.b.win_rate, j.b.win_rate_95],
    ]) {
      expect(Object.keys(ci).sort()).toEqual(['high', 'low']);
      expect(ci.low).toBeGreaterThanOrEqual(0);
      expect(ci.low).toBeLessThanOrEqual(rate);
      expect(ci.high).toBeGreaterThanOrEqual(rate);
      expect(ci.high).toBeLessThanOrEqual(1);
      expect(ci.high).toBeGreaterThan(ci.low);
    }
    // This duel has no draws. The draw interval's low end should then be exactly 0, but
    // wilson(0, 2000) gives 1.08e-19 (rounding), so "low <= draw_rate" is not asserted here.
    expect(Object.keys(j.draw_rate_95).sort()).toEqual(['high', 'low']);
    expect(j.draw_rate_95.low).toBeGreaterThanOrEqual(0);
    expect(j.draw_rate_95.low).toBeLessThan(1e-12);
    expect(j.draw_rate_95.high).toBeGreaterThanOrEqual(j.draw_rate);
    expect(j.draw_rate_95.high).toBeLessThanOrEqual(1);
    expect(j.mean_rounds).toBeGreaterThanOrEqual(1);
    expect(j.mean_rounds).toBeLessThanOrEqual(20);
    expect(j.rounds_histogram.reduce((s: number, p: number) => s + p, 0)).toBeCloseTo(1, 12);
    expect(j.placeholders.length).toBeGreaterThan(0);
  });

  it('the same seed gives byte-identical output (duel, volley); another seed does not', () => {
    const duel = ['duel', 'cega.wyvern', 'jovian.pathfinder', '--range', '6', '--trials', '2000', '--seed', '11', '--json'];
    const d1 = jwsim(...duel);
    const d2 = jwsim(...duel);
    expect(d1.status).toBe(0);
    expect(d2.stdout).toBe(d1.stdout);
    const volley = ['volley', '--attacker', 'jovian.alexander', '--target', 'jovian.valiant', '--range', '8', '--trials', '2000', '--seed', '11', '--json'];
    const v1 = jwsim(...volley);
    const v2 = jwsim(...volley);
    expect(v1.status).toBe(0);
    expect(v2.stdout).toBe(v1.stdout);
    // Human output too.
    expect(jwsim(...duel.slice(0, -1)).stdout).toBe(jwsim(...duel.slice(0, -1)).stdout);
    const other = jwsim(...duel.slice(0, -2), '12', '--json');
    expect(other.status).toBe(0);
    expect(other.stdout).not.toBe(d1.stdout);
  });

  it('--rules-overlay is recorded with its SHA-256 and --rule wins over its options', () => {
    const file = overlayFixture('options.json');
    const j = json(...ALEX_PC, '--range', '8', '--rules-overlay', file, '--rule', 'zero_rating_hit=NEXT_RATING');
    expect(j.overlay).toEqual({ path: file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex'), description: 'house rules: interpretation options only' });
    expect(j.options).toMatchObject({ negative_macro_mode: 'COUNT', zero_rating_hit: 'NEXT_RATING' });
    const crit = overlayFixture('critical-structure.json');
    const human = jwsim(...ALEX_PC, '--range', '8', '--rules-overlay', crit);
    expect(human.status).toBe(0);
    expect(human.stdout).toContain(`overlay: ${crit} (sha256 `);
  });
});

describe('engagement errors: exit 2, "jwsim: error:" on stderr, nothing on stdout', () => {
  const VOLLEY = ['volley', '--attacker', 'jovian.alexander', '--target', 'jovian.valiant'];
  const DUEL = ['duel', 'jovian.alexander', 'jovian.valiant'];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const malformed = unitsFixture('malformed.json');
  const otherVersion = overlayFixture('other-version.json');
  const cases: Array<[string, string[], RegExp]> = [
    ['unknown unit id: lists the known ids', ['attack', '--attacker', 'zzz', '--weapon', '#1', '--target', 'jovian.valiant', '--range', '5'], /--attacker: unknown unit "zzz"; known units: jovian\.alexander, jovian\.valiant, /],
    ['unknown unit id: suggests a near one', [...ALEX_PC.slice(0, 5), '--target', 'valiant', '--range', '5'], /--target: unknown unit "valiant"; did you mean jovian\.valiant\?/],
    ['unknown unit id in a duel', ['duel', 'jovian.alexander', 'nobody', '--range', '5'], /B: unknown unit "nobody"; known units: /],
    ['unknown weapon name: lists the lines', ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Laser', '--target', 'jovian.valiant', '--range', '5'], /--weapon: Alexander has no weapon line "Laser"; its lines: #1 "Particle Cannon", #2 "Mass Driver Turret", #3 "Missiles"$/m],
    ['weapon line number out of range', ['attack', '--attacker', 'jovian.alexander', '--weapon', '#4', '--target', 'jovian.valiant', '--range', '5'], /--weapon: Alexander has no weapon line "#4"/],
    ['out of range', [...ALEX_PC, '--range', '17'], /^jwsim: error: cannot attack: out of range: 17 in > 15 in for AC at Sensors 3$/m],
    ['out of range against a squadron (3 in + 3 x Sensors 3)', ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Mass Driver Turret', '--target', 'cega.wyvern', '--range', '12.5'], /out of range: 12\.5 in > 12 in for AS at Sensors 3/],
    ['weapon without an AS rating against a squadron', ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Particle Cannon', '--target', 'cega.wyvern', '--range', '5'], /cannot attack: Particle Cannon has no AS rating: it cannot attack a squadron/],
    ['weapon not bearing', [...ALEX_PC, '--range', '5', '--firing-arc', 'R'], /cannot attack: Particle Cannon \(arcs F\) does not bear: the target is in the attacker's rear arc/],
    ['volley with no weapon able to fire', ['volley', '--attacker', 'jovian.alexander', '--target', 'cega.wyvern', '--range', '100'], /cannot attack: no weapon of Alexander can fire at Wyvern: .*out of range/],
    ['capital ship ramming a squadron', ['ram', '--rammer', 'jovian.valiant', '--target', 'cega.wyvern'], /--target: a capital ship may not ram a squadron \(Valiant -> Wyvern\)/],
    ['negative --range', [...ALEX_PC, '--range', '-1'], /--range.*from 0 to 120/],
    ['text --range', [...VOLLEY, '--range', 'far'], /--range.*from 0 to 120/],
    ['--range beyond 120', [...DUEL, '--range', '121'], /--range.*from 0 to 120/],
    ['bad --aspect', [...ALEX_PC, '--range', '5', '--aspect', 'top'], /--aspect.*front, side, rear/],
    ['bad --aspect for ram', ['ram', '--rammer', 'jovian.valiant', '--target', 'unknown.tengu', '--aspect', 'above'], /--aspect.*front, side, rear/],
    ['bad --firing-arc', [...ALEX_PC, '--range', '5', '--firing-arc', 'X'], /--firing-arc.*F, P, S, R, auto/],
    ['--trials 0 (attack)', [...ALEX_PC, '--range', '5', '--trials', '0'], /--trials.*integer from 1 to 10000000/],
    ['--trials 0 (volley)', [...VOLLEY, '--range', '5', '--trials', '0'], /--trials.*integer from 1 to 10000000/],
    ['--trials 0 (duel)', [...DUEL, '--range', '5', '--trials', '0'], /--trials.*integer from 1 to 10000000/],
    ['--trials 0 (ram)', ['ram', '--rammer', 'jovian.valiant', '--target', 'unknown.tengu', '--trials', '0'], /--trials.*integer from 1 to 10000000/],
    ['bad --seed', [...DUEL, '--range', '5', '--seed', 'a b'], /--seed/],
    ['malformed JSON in --units', [...ALEX_PC, '--range', '5', '--units', malformed], new RegExp(`^jwsim: error: ${esc(malformed)}: not valid JSON at line 6, column 7: .+\\n$`)],
    ['missing --units file', [...DUEL, '--range', '5', '--units', unitsFixture('missing.json')], /missing\.json: cannot read file \(no such file\)/],
    ['unknown --rule', [...VOLLEY, '--range', '5', '--rule', 'foo=BAR'], /--rule: unknown rule option "foo"; allowed: .*zero_rating_hit/],
    ['bad --rule value', [...ALEX_PC, '--range', '5', '--rule', 'zero_rating_hit=ALWAYS'], /--rule: zero_rating_hit: "ALWAYS" is not one of NONE, STRUCTURE, NEXT_RATING/],
    ['unknown --rules version', [...ALEX_PC, '--range', '5', '--rules', '2.0'], /--rules: unknown rules version "2\.0"/],
    ['--rules-overlay for another version', [...ALEX_PC, '--range', '5', '--rules-overlay', otherVersion], new RegExp(`^jwsim: error: ${esc(otherVersion)}: rules: the overlay is written for v1\\.2\\.1 but the run uses v1\\.2\\.2`)],
    ['missing --rules-overlay file', [...ALEX_PC, '--range', '5', '--rules-overlay', overlayFixture('missing.json')], /^jwsim: error: --rules-overlay: .*missing\.json: cannot read file \(no such file\)/],
    ['attack without --weapon', ['attack', '--attacker', 'jovian.alexander', '--target', 'jovian.valiant', '--range', '5'], /required option '--weapon <name>' not specified/],
    ['attack without --range', ALEX_PC, /required option '--range <inches>' not specified/],
    ['volley without --target', ['volley', '--attacker', 'jovian.alexander', '--range', '5'], /required option '--target <id>' not specified/],
    ['ram without --rammer', ['ram', '--target', 'unknown.tengu'], /required option '--rammer <id>' not specified/],
    ['duel without B', ['duel', 'jovian.alexander', '--range', '5'], /missing required argument 'b'/],
    ['duel without --range', DUEL, /required option '--range <inches>' not specified/],
    ['bad --until', [...DUEL, '--range', '5', '--until', 'bored'], /--until.*destroyed, crippled/],
    ['bad --rounds', [...DUEL, '--range', '5', '--rounds', '0'], /--rounds.*1 to 1000/],
  ];
  for (const [name, args, pattern] of cases) {
    it(name, () => {
      const r = jwsim(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^jwsim: error: /);
      expect(r.stderr).toMatch(pattern);
    });
  }

  const multiline: Array<[string, string[], string, string[]]> = [
    [
      'schema violations in --units: a summary line, then every problem',
      [...ALEX_PC, '--range', '5', '--units', unitsFixture('schema-errors.json')],
      `jwsim: error: ${unitsFixture('schema-errors.json')}: 15 problems`,
      rosterProblems([unitsFixture('schema-errors.json')]).details.map((d) => `  ${d}`),
    ],
    [
      'a bad --rules-overlay file: a summary line, then every problem',
      [...DUEL, '--range', '5', '--rules-overlay', overlayFixture('bad-tables.json')],
      `jwsim: error: ${overlayFixture('bad-tables.json')}: 6 problems`,
      [],
    ],
  ];
  it('an unknown option in a --rules-overlay file: the one problem is the whole message', () => {
    const r = jwsim(...VOLLEY, '--range', '5', '--rules-overlay', overlayFixture('unknown-option.json'));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^jwsim: error: ${overlayFixture('unknown-option.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: options: unknown field "dice_colour"; allowed here: flex_stacking, .*, enable_repair\n$`));
  });
  for (const [name, args, first, details] of multiline) {
    it(name, () => {
      const r = jwsim(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe(first);
      const count = Number(/: (\d+) problems?$/.exec(first)![1]);
      expect(lines).toHaveLength(1 + count);
      for (const l of lines.slice(1)) expect(l).toMatch(/^ {2}\S/);
      if (details.length) expect(lines.slice(1)).toEqual(details);
    });
  }
});
