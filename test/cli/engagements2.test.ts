// Engagement commands: options that cannot apply are refused (squadrons have no facing; a
// duel nobody can win), error messages that end properly, and the --units word-swallowing
// hint for duel. Every refusal: exit 2, one "jwsim: error:" line, nothing on stdout.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jwsim } from '../helpers/cli.js';

const SAMPLE = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
const unitsFixture = (name: string) => fileURLToPath(new URL(`../fixtures/units/${name}`, import.meta.url));
const EDGE = unitsFixture('engagement-edge.json');

/** Runs jwsim and expects a refusal: exit 2, nothing on stdout, exactly this one line on stderr. */
function refused(args: string[], message: string) {
  const r = jwsim(...args);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`jwsim: error: ${message}\n`);
  expect(r.status).toBe(2);
}

/** Runs jwsim, expects exit 0 and a clean stderr, and returns stdout. */
function ok(...args: string[]): string {
  const r = jwsim(...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

describe('jwsim units --check: card checks beyond the schema', () => {
  it('refuses repeated weapon names, Fuel on a capital ship, and Armor, Turns or a base on a squadron', () => {
    const file = unitsFixture('card-conflicts.json');
    const r = jwsim('units', '--check', file);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`jwsim: error: ${file}: 7 problems`);
    expect(lines).toContain(`  ${file}: units[1].turns: only capital ships have Turns; leave it out for a squadron`);
    expect(lines).toContain(`  ${file}: units[0].weapons[2].name: duplicate weapon name "Mass Driver" (also weapons[0]); each weapon line of a unit needs its own name`);
    expect(lines).toContain(`  ${file}: units[1].armor: only capital ships have Armor (rules v1.2.2); leave it out for a squadron`);
    expect(lines).toContain(`  ${file}: units[0].fuel: only squadrons have Fuel; leave it out for a capital ship`);
  });

  it('a SOURCED or INFERRED value must name its source; --json answers on stdout for an invalid file too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-src-'));
    const roster = JSON.parse(readFileSync(SAMPLE, 'utf8'));
    const card = roster.units[0];
    card.tv = { value: card.tv.value, status: 'SOURCED' };
    card.skill = { value: 2, status: 'INFERRED', source: '' };
    const file = join(dir, 'unsourced.json');
    writeFileSync(file, JSON.stringify({ ...roster, units: [card] }));
    const r = jwsim('units', '--check', file, '--json');
    expect(r.status).toBe(2);
    const problems = [`${file}: units[0].skill.source: must not be empty`, `${file}: units[0].tv: missing required field "source"`];
    expect(JSON.parse(r.stdout)).toEqual({ valid: false, files: [file], error: `${file}: 2 problems`, problems: expect.arrayContaining(problems) });
    expect(r.stderr.trimEnd().split('\n').slice(1).map((l) => l.trim()).sort()).toEqual([...problems].sort());
  });

  it('the sample roster stays valid', () => {
    expect(ok('units', '--check', SAMPLE)).toBe(`${SAMPLE}: valid, 25 units\n`);
  });
});

describe('a jwsim file of another kind gets one line, not its schema problems', () => {
  const file = (rel: string) => fileURLToPath(new URL(`../../scenarios/${rel}`, import.meta.url));
  const SCENARIO = file('battles/standard-engagement.json'), BATCH = file('nightly.json');
  it('a scenario given to run, a batch given to battle, --units and --rules-overlay', () => {
    refused(['run', SCENARIO, '--out', join(tmpdir(), 'jwsim-never-written')], `${SCENARIO}: format: "jwsim-scenario/1" makes this a battle scenario, but a batch file ("jwsim-batch/1") is wanted here`);
    refused(['battle', '--scenario', BATCH], `${BATCH}: format: "jwsim-batch/1" makes this a batch file, but a battle scenario ("jwsim-scenario/1") is wanted here`);
    refused(['units', '--units', BATCH], `${BATCH}: format: "jwsim-batch/1" makes this a batch file, but a unit card file ("jwsim-units/1") is wanted here`);
    refused(['dice', '--base', '3', '--rules-overlay', SAMPLE], `${SAMPLE}: format: "jwsim-units/1" makes this a unit card file, but a rules overlay ("jwsim-overlay/1") is wanted here`);
  });
});

describe('option values as designers type them', () => {
  it('--rule NAME VALUE (a space for "=") is refused at --rule, not as a stray argument', () => {
    refused(['dice', '--base', '3', '--rule', 'flex_stacking', 'MAX'], "option '--rule <name=value>' argument 'flex_stacking' is invalid. expected NAME=VALUE with no spaces, e.g. --rule flex_stacking=VALUE");
  });

  it('--range .5 is half an inch', () => {
    const args = ['attack', '--attacker', 'jovian.alexander', '--weapon', '#1', '--target', 'jovian.valiant', '--json'];
    expect(JSON.parse(ok(...args, '--range', '.5')).situation.range_inches).toBe(0.5);
    expect(ok(...args, '--range', '.5')).toBe(ok(...args, '--range', '0.5'));
  });
});

describe('squadrons have no facing: --aspect against one, --firing-arc for one', () => {
  const ALEX_MD = ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Mass Driver Turret', '--range', '5'];
  const WYVERN_MD = ['attack', '--attacker', 'cega.wyvern', '--weapon', 'Mass Driver', '--target', 'jovian.alexander', '--range', '5'];

  it('attack: --aspect against a squadron target is refused', () => {
    refused([...ALEX_MD, '--target', 'cega.fury', '--aspect', 'rear'], '--aspect: cega.fury is a squadron and has no facing; leave --aspect out');
    // Even "front", the default, when given: it claims a facing.
    refused([...ALEX_MD, '--target', 'cega.fury', '--aspect', 'front'], '--aspect: cega.fury is a squadron and has no facing; leave --aspect out');
  });

  it('attack: without --aspect, the header and JSON name no aspect for a squadron target', () => {
    expect(ok(...ALEX_MD, '--target', 'cega.fury').split('\n')[0]).toBe('jwsim attack: Alexander Mass Driver Turret -> Fury at 5 in');
    const j = JSON.parse(ok(...ALEX_MD, '--target', 'cega.fury', '--json'));
    expect(j.situation).toEqual({ range_inches: 5, aspect: null, firing_arc: 'F', band: 'long' });
    // Against a capital ship the aspect stays.
    expect(ok(...ALEX_MD, '--target', 'jovian.valiant', '--aspect', 'rear').split('\n')[0]).toBe('jwsim attack: Alexander Mass Driver Turret -> Valiant at 5 in, from its rear');
  });

  it('attack: --firing-arc for a squadron attacker is refused; auto is accepted and no arc is reported', () => {
    refused([...WYVERN_MD, '--firing-arc', 'R'], '--firing-arc: cega.wyvern is a squadron; squadron weapons fire in every direction; leave --firing-arc out');
    const j = JSON.parse(ok(...WYVERN_MD, '--firing-arc', 'auto', '--aspect', 'side', '--json'));
    expect(j.situation).toMatchObject({ aspect: 'side', firing_arc: null });
  });

  it('volley: --aspect against a squadron and --firing-arc for a squadron are refused', () => {
    refused(['volley', '--attacker', 'jovian.alexander', '--target', 'cega.fury', '--range', '5', '--aspect', 'side'], '--aspect: cega.fury is a squadron and has no facing; leave --aspect out');
    refused(['volley', '--attacker', 'cega.wyvern', '--target', 'jovian.alexander', '--range', '5', '--firing-arc', 'P'], '--firing-arc: cega.wyvern is a squadron; squadron weapons fire in every direction; leave --firing-arc out');
  });

  it('volley: headers name the aspect only against a capital ship and the arc only for a capital ship', () => {
    const V = ['volley', '--range', '5', '--trials', '100'];
    expect(ok(...V, '--attacker', 'cega.wyvern', '--target', 'cega.fury').split('\n')[0]).toBe('jwsim volley: Wyvern -> Fury at 5 in');
    expect(ok(...V, '--attacker', 'cega.wyvern', '--target', 'jovian.alexander', '--aspect', 'rear').split('\n')[0]).toBe('jwsim volley: Wyvern -> Alexander at 5 in, from its rear');
    expect(ok(...V, '--attacker', 'jovian.alexander', '--target', 'cega.fury', '--firing-arc', 'S').split('\n')[0]).toBe("jwsim volley: Alexander -> Fury at 5 in, target in the attacker's S arc");
    expect(ok(...V, '--attacker', 'jovian.alexander', '--target', 'jovian.valiant', '--aspect', 'side', '--firing-arc', 'P').split('\n')[0]).toBe(
      "jwsim volley: Alexander -> Valiant at 5 in, from its side, target in the attacker's P arc",
    );
    const j = JSON.parse(ok(...V, '--attacker', 'cega.wyvern', '--target', 'cega.fury', '--json'));
    expect(j.situation).toEqual({ range_inches: 5, aspect: null, firing_arc: null });
  });

  it('ram: --aspect counts only when a capital ship rams one', () => {
    refused(['ram', '--rammer', 'jovian.pathfinder', '--target', 'cega.wyvern', '--aspect', 'side'], '--aspect: cega.wyvern is a squadron and has no facing; leave --aspect out');
    refused(
      ['ram', '--rammer', 'jovian.pathfinder', '--target', 'jovian.valiant', '--aspect', 'rear'],
      "--aspect: jovian.pathfinder is a squadron, and a squadron's ram gets no arc bonus (game.md GM-91); leave --aspect out",
    );
    expect(ok('ram', '--rammer', 'jovian.pathfinder', '--target', 'jovian.valiant').split('\n')[0]).toBe('jwsim ram: Pathfinder (1 Structure left) rams Valiant (squadron-capital)');
    expect(ok('ram', '--rammer', 'jovian.pathfinder', '--target', 'cega.wyvern').split('\n')[0]).toBe('jwsim ram: Pathfinder (1 Structure left) rams Wyvern (squadron-squadron)');
    expect(JSON.parse(ok('ram', '--rammer', 'jovian.pathfinder', '--target', 'cega.wyvern', '--json')).aspect).toBeNull();
    expect(ok('ram', '--rammer', 'jovian.valiant', '--target', 'unknown.tengu', '--aspect', 'side').split('\n')[0]).toBe('jwsim ram: Valiant (1 Structure left) rams Tengu in its side (capital-capital)');
  });

  it('duel: --aspect needs a capital B, --b-aspect a capital A', () => {
    refused(['duel', 'jovian.alexander', 'cega.fury', '--range', '5', '--aspect', 'rear'], '--aspect: cega.fury is a squadron and has no facing; leave --aspect out');
    refused(['duel', 'cega.wyvern', 'jovian.alexander', '--range', '5', '--b-aspect', 'rear'], '--b-aspect: cega.wyvern is a squadron and has no facing; leave --b-aspect out');
  });

  it('duel: the position line says only what facing means', () => {
    const D = ['--range', '5', '--trials', '50', '--seed', '1'];
    const line = (out: string) => out.split('\n').find((l) => /fires|facing/.test(l));
    expect(line(ok('duel', 'cega.wyvern', 'jovian.alexander', ...D, '--aspect', 'rear'))).toBe("A fires from B's rear; B fires with A in its R arc");
    expect(line(ok('duel', 'jovian.alexander', 'cega.wyvern', ...D))).toBe("A fires with B in its F arc; B fires from A's front");
    expect(line(ok('duel', 'cega.wyvern', 'cega.fury', ...D))).toBe('both sides are squadrons: no facing, every weapon bears');
    expect(line(ok('duel', 'jovian.alexander', 'jovian.valiant', ...D, '--aspect', 'side', '--b-aspect', 'rear'))).toMatch(/^A fires from B's side with B in its R arc; B fires from A's rear with A in its [PS] arc$/);
    const j = JSON.parse(ok('duel', 'cega.wyvern', 'jovian.alexander', ...D, '--aspect', 'rear', '--json'));
    expect(j.situation).toMatchObject({ a_attacks_from: 'rear', b_attacks_from: null });
    expect(j.a.firing_arc).toBeNull();
    expect(j.b.firing_arc).toBe('R');
  });
});

describe('volley: no weapon able to fire', () => {
  it('an attacker without weapons: the message says so and ends properly', () => {
    refused(['volley', '--units', EDGE, SAMPLE, '--attacker', 'test.hulk', '--target', 'jovian.valiant', '--range', '5'], 'cannot attack: Hulk has no weapons (its card lists no weapon lines)');
  });

  it('weapons that cannot fire: every reason is listed', () => {
    refused(
      ['volley', '--attacker', 'jovian.alexander', '--target', 'jovian.valiant', '--range', '100'],
      'cannot attack: no weapon of Alexander can fire at Valiant: Particle Cannon: out of range: 100 in > 15 in for AC at Sensors 3; Mass Driver Turret: out of range: 100 in > 15 in for AC at Sensors 3; Missiles: out of range: 100 in > 15 in for AC at Sensors 3',
    );
  });

  it('a reason that already names its weapon does not name it twice', () => {
    // Rear bonuses the dice kernel cannot roll (an overlay may set them), and a front-arc target for
    // the broadside missiles: each reason opens with the weapon's name already.
    const overlay = join(mkdtempSync(join(tmpdir(), 'jwsim-volley-')), 'huge-rear.json');
    writeFileSync(overlay, JSON.stringify({ format: 'jwsim-overlay/1', tables: { combat: { rearBonus: { base: 6, flex: 6, macro: 6 } } } }));
    refused(
      ['volley', '--attacker', 'jovian.alexander', '--target', 'unknown.tengu', '--range', '10', '--aspect', 'rear', '--rules-overlay', overlay],
      'cannot attack: no weapon of Alexander can fire at Tengu: Particle Cannon: 17 base and Flex dice with Macro 6 exceed the dice kernel (at most 12 and ±6); Mass Driver Turret: 15 base and Flex dice with Macro 6 exceed the dice kernel (at most 12 and ±6); Missiles (arcs P, S) does not bear: the target is in the attacker\'s front arc',
    );
  });
});

describe('duel: refusing duels whose outcome is settled before they start', () => {
  it('--until crippled when no model can be Crippled and fight on (v1.2.2 squadrons)', () => {
    refused(
      ['duel', 'cega.wyvern', 'jovian.pathfinder', '--range', '6', '--until', 'crippled'],
      '--until crippled: neither side can become Crippled and stay in the fight, so the duel would be the same as --until destroyed: Wyvern and Pathfinder: squadrons have no Crippled state under rules v1.2.2 (crippled_squadrons=VERSION); leave --until out, or change the rules (--rule crippled_squadrons=ALWAYS)',
    );
  });

  it('--until crippled with a v1.2.2 capital ship, never Crippled (crippled_capital is no remedy there), and a squadron', () => {
    refused(
      ['duel', 'jovian.alexander', 'cega.wyvern', '--range', '6', '--until', 'crippled'],
      '--until crippled: neither side can become Crippled and stay in the fight, so the duel would be the same as --until destroyed: Alexander: a capital ship at 0 Structure is always Destroyed under rules v1.2.2 (Catastrophic Damage Table), whatever crippled_capital says; Wyvern: squadrons have no Crippled state under rules v1.2.2 (crippled_squadrons=VERSION); leave --until out, or change the rules (--rule crippled_squadrons=ALWAYS)',
    );
  });

  it('--until crippled with capital ships that are out when Crippled (crippled_capital=INERT, v1.2.1), and a squadron', () => {
    refused(
      ['duel', 'jovian.alexander', 'cega.wyvern', '--range', '6', '--until', 'crippled', '--rules', '1.2.1', '--rule', 'crippled_squadrons=NEVER'],
      '--until crippled: neither side can become Crippled and stay in the fight, so the duel would be the same as --until destroyed: Alexander: a Crippled capital ship is out of the fight anyway (crippled_capital=INERT); Wyvern: squadrons have no Crippled state under rules v1.2.1 (crippled_squadrons=NEVER); leave --until out, or change the rules (--rule crippled_capital=FIGHTS_ON, --rule crippled_squadrons=ALWAYS)',
    );
  });

  it('--until crippled with a squadron that has no small damage boxes (v1.2.1)', () => {
    refused(
      ['duel', '--range', '5', '--units', EDGE, '--until', 'crippled', '--rules', '1.2.1', '--', 'test.torpedo-boat', 'test.torpedo-boat'],
      '--until crippled: neither side can become Crippled and stay in the fight, so the duel would be the same as --until destroyed: Torpedo Boat: it has no small damage boxes (its crippled_at is 0), so it is Destroyed, never Crippled; leave --until out',
    );
  });

  it('--until crippled runs where it can change the result', () => {
    const D = ['--range', '6', '--until', 'crippled', '--trials', '200', '--seed', '3', '--json'];
    expect(JSON.parse(ok('duel', 'cega.wyvern', 'jovian.pathfinder', ...D, '--rules', '1.2.1')).situation.until).toBe('crippled');
    expect(JSON.parse(ok('duel', 'cega.wyvern', 'jovian.pathfinder', ...D, '--rule', 'crippled_squadrons=ALWAYS')).situation.until).toBe('crippled');
    expect(JSON.parse(ok('duel', 'jovian.alexander', 'jovian.valiant', ...D, '--rules', '1.2.1', '--rule', 'crippled_capital=FIGHTS_ON')).situation.until).toBe('crippled');
  });

  it('a --range at which neither side reaches the other: names the range and each reach', () => {
    refused(
      ['duel', 'jovian.alexander', 'jovian.valiant', '--range', '100'],
      '--range: at 100 in neither side can fire, so every duel would be a draw: Alexander reaches Valiant only up to 15 in (AC range at Sensors 3); Valiant reaches Alexander only up to 15 in (AC range at Sensors 3); give a --range of at most 15',
    );
    refused(
      ['duel', 'jovian.alexander', 'cega.wyvern', '--range', '14'],
      '--range: at 14 in neither side can fire, so every duel would be a draw: Alexander reaches Wyvern only up to 12 in (AS range at Sensors 3); Wyvern reaches Alexander only up to 12 in (AC range at Sensors 2); give a --range of at most 12',
    );
  });

  it('sides that cannot fire at any range', () => {
    refused(['duel', '--range', '5', '--units', EDGE, '--', 'test.hulk', 'test.hulk'], 'cannot duel: neither side can fire at the other, so every duel would be a draw: Hulk has no weapons');
    refused(
      ['duel', '--range', '10', '--units', EDGE, '--', 'test.torpedo-boat', 'test.hulk'],
      '--range: at 10 in neither side can fire, so every duel would be a draw: Torpedo Boat reaches Hulk only up to 9 in (AC range at Sensors 1); Hulk has no weapons; give a --range of at most 9',
    );
  });

  it('one side able to fire is a duel', () => {
    const j = JSON.parse(ok('duel', '--range', '5', '--units', EDGE, SAMPLE, '--trials', '200', '--seed', '1', '--json', '--', 'test.torpedo-boat', 'test.hulk'));
    expect(j.b.win_rate).toBe(0);
    expect(j.a.win_rate).toBeGreaterThan(0);
  });
});

describe('duel: --units takes every following word as a file', () => {
  it('ids after --units: the error says what --units took and how to write it', () => {
    refused(
      ['duel', '--units', SAMPLE, 'jovian.alexander', 'jovian.valiant', '--range', '5'],
      `missing required argument 'a' (the unit id of side A): --units takes every word after it as a unit file, and here it took "${SAMPLE}", "jovian.alexander", "jovian.valiant"; ` +
        'give the unit ids before --units (jwsim duel A B --units FILE ...), or end the file list with -- and give the ids last (jwsim duel --units FILE ... -- A B)',
    );
    refused(
      ['duel', 'jovian.alexander', '--units', SAMPLE, 'jovian.valiant', '--range', '5'],
      `missing required argument 'b' (the unit id of side B): --units takes every word after it as a unit file, and here it took "${SAMPLE}", "jovian.valiant"; ` +
        'give the unit ids before --units (jwsim duel A B --units FILE ...), or end the file list with -- and give the ids last (jwsim duel --units FILE ... -- A B)',
    );
  });

  it('without --units a missing id is just missing', () => {
    refused(['duel', 'jovian.alexander', '--range', '5'], "missing required argument 'b' (the unit id of side B)");
  });

  it('both ways the hint gives work', () => {
    const D = ['--range', '5', '--trials', '50', '--seed', '1', '--json'];
    const before = ok('duel', 'jovian.alexander', 'jovian.valiant', '--units', SAMPLE, ...D);
    const after = ok('duel', '--units', SAMPLE, ...D, '--', 'jovian.alexander', 'jovian.valiant');
    expect(after).toBe(before);
  });

  it('the help says so', () => {
    const help = ok('duel', '--help');
    expect(help).toMatch(/^Usage: jwsim duel \[options\] <a> <b>$/m);
    expect(help).toContain('--units takes every word after it as a unit file, so give the unit ids before it:');
    expect(help).toContain('  jwsim duel --units my-units.json --range 6 -- cega.wyvern jovian.pathfinder');
  });
});
