// jwsim compare from the command line: which variants it accepts, what it says about the
// batch's trial counts, battle experiments, and the --settle option. (The full comparison output is checked in
// run.test.ts.)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { jwsim } from '../helpers/cli.js';
import { benjaminiHochberg } from '../../src/stats/fdr.js';
import { Z95, normalTwoSidedTail } from '../../src/stats/intervals.js';

const ROSTER = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
const HOUSE = fileURLToPath(new URL('../../scenarios/overlays/example-house-rules.json', import.meta.url)); // "rules": "1.2.2"
const OLDER = fileURLToPath(new URL('../fixtures/overlays/other-version.json', import.meta.url)); // "rules": "1.2.1"
const root = mkdtempSync(join(tmpdir(), 'jwsim-cli-compare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A batch file in the temporary folder: one sampled volley (trials 5000) and one exact ram unless `experiments` says otherwise. */
function batch(name: string, extra: Record<string, unknown> = {}): string {
  const file = join(root, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      format: 'jwsim-batch/1',
      units: [ROSTER],
      seed: 'cmp',
      variants: [
        { name: 'v1.2.1', rules: '1.2.1' },
        { name: 'v1.2.2', rules: '1.2.2' },
      ],
      experiments: [
        { id: 'volley', kind: 'volley', attacker: 'jovian.alexander', target: 'unknown.tengu', range: 9, trials: 5000 },
        { id: 'ram', kind: 'ram', rammer: 'jovian.pathfinder', target: 'cega.wyvern' },
      ],
      ...extra,
    }),
  );
  return file;
}

/** Expects exit 2, the one error line, nothing on stdout and no --out folder. */
function refused(args: string[], line: string) {
  const out = join(root, `refused-${Math.random().toString(36).slice(2)}`);
  const r = jwsim(...args, '--out', out, '--threads', '0');
  expect(r.status, args.join(' ')).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(`jwsim: error: ${line}\n`);
  expect(existsSync(out)).toBe(false);
}

const QUICK = ['--min-trials', '16384', '--max-trials', '16384', '--threads', '0'];

describe('jwsim compare --variant: the overlay must be written for the baseline rules version', () => {
  const small = batch('small');

  it('an overlay for v1.2.2 against a v1.2.1 baseline is refused, like dice and attack refuse it', () => {
    const line = `--variant house: ${HOUSE}: rules: the overlay is written for v1.2.2 but the baseline uses v1.2.1; a --variant runs under the baseline's rules version (the first of --rules), so start --rules with 1.2.2 or use an overlay written for v1.2.1`;
    refused(['compare', small, '--rules', '1.2.1', '--variant', `house=${HOUSE}`], line);
    // A second version in --rules does not make it the baseline: house would still be measured against v1.2.1.
    refused(['compare', small, '--rules', '1.2.1,1.2.2', '--variant', `house=${HOUSE}`], line);
    // Two house rules: the first is the baseline, so the second must match its version.
    refused(['compare', small, '--variant', `old=${OLDER}`, '--variant', `house=${HOUSE}`], line);
  });

  it('an overlay for the baseline version runs under that version', () => {
    const out = join(root, 'house-122');
    const r = jwsim('compare', small, '--rules', '1.2.2', '--variant', `house=${HOUSE}`, '--out', out, ...QUICK);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('jwsim compare: v1.2.2 vs house on 2 engagements');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.variants.map((v: { name: string; rules: string }) => `${v.name}:${v.rules}`)).toEqual(['v1.2.2:1.2.2', 'house:1.2.2']);
    // Without --rules the baseline takes the overlay's version.
    const alone = jwsim('compare', small, '--variant', `old=${OLDER}`, '--out', join(root, 'old-alone'), ...QUICK);
    expect(alone.status).toBe(0);
    expect(alone.stdout.split('\n')[0]).toBe('jwsim compare: v1.2.1 vs old on 2 engagements');
  });

  it('a batch variant whose overlay names another version is refused by run and compare alike', () => {
    const mixed = batch('mixed', { variants: [{ name: 'base', rules: '1.2.1' }, { name: 'house', rules: '1.2.1', overlay: HOUSE }] });
    const line = `${mixed}: variants[1].overlay: ${HOUSE}: rules: the overlay is written for v1.2.2 but variants[1].rules is v1.2.1; set variants[1].rules to "1.2.2" or use an overlay written for v1.2.1`;
    refused(['run', mixed], line);
    refused(['compare', mixed], line);
  });
});

describe('jwsim compare --rules / --variant replace the batch\'s variants', () => {
  it('an empty --rules list is refused, not read as no --rules', () => {
    refused(['compare', batch('empty-rules'), '--rules', ',,'], '--rules: give a comma-separated list of rules versions, e.g. --rules 1.2.1,1.2.2');
  });

  it('says which of the batch\'s variants carried options or an overlay that are then not used', () => {
    const exact = [{ id: 'ram', kind: 'ram', rammer: 'jovian.pathfinder', target: 'cega.wyvern' }];
    const own = batch('own-options', { experiments: exact, variants: [{ name: 'plain', rules: '1.2.1' }, { name: 'house', rules: '1.2.2', overlay: HOUSE, options: { ram_front_bonus: 'RAMMER_ALWAYS' } }] });
    const r = jwsim('compare', own, '--rules', '1.2.1,1.2.2', '--out', join(root, 'own-options'), ...QUICK);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[1]).toBe(`note: --rules and --variant replace the batch's variants; house (ram_front_bonus=RAMMER_ALWAYS, overlay ${HOUSE}) is not used: the variants compared are built from --rules and --variant alone`);
    // The batch's own variants: no such note.
    expect(jwsim('compare', own, '--out', join(root, 'own-options-2'), ...QUICK).stdout).not.toContain('replace the batch');
  });
});

describe('jwsim compare: duel rows show the values and the draw rates', () => {
  it('a win rate that moves is shown with its value in each variant and the duel\'s draw rates, on stdout and in the report table', () => {
    const duels = batch('draws', { experiments: [{ id: 'd', kind: 'duel', matchups: [['cega.fury', 'cega.wyvern']], range: 3, trials: 8192 }] });
    const out = join(root, 'draws');
    const r = jwsim('compare', duels, '--out', out, ...QUICK);
    expect(r.status).toBe(0);
    const csv = readFileSync(join(out, 'comparison.csv'), 'utf8');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<th>draws v1.2.1</th>');
    expect(html).toContain('<th>draws v1.2.2</th>');
    const lines = r.stdout.split('\n');
    // The Fury and the Wyvern trade differently under the two versions (their win rates move), so the row is there.
    const header = lines.find((l) => l.startsWith('engagement'))!;
    expect(header).toMatch(/value\s+difference\s+95% interval\s+draws$/);
    const row = lines[lines.indexOf(header) + 2];
    expect(row).toMatch(/^d\/cega\.fury\/cega\.wyvern .*\d\.\d{3} -> \d\.\d{3}\s+-?\d\.\d{4}.*\d\.\d{3} -> \d\.\d{3}$/);
    expect(csv.split('\n')[0]).toContain('value_from');
  });
});

describe("jwsim compare: the batch's trials are not used", () => {
  it('says so, and runs its own trial counts', () => {
    const small = batch('trials');
    const out = join(root, 'trials');
    const r = jwsim('compare', small, '--out', out, ...QUICK);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[1]).toBe(
      "note: the batch's trials and precision targets are not used: each sampled engagement runs chunks of 8192 trials per variant, from 16384 (--min-trials) to at most 16384 (--max-trials), stopping once its key metric is settled (--settle 0.02)",
    );
    const rows = readFileSync(join(out, 'comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const trials = new Map(rows.map((c) => [c[0], c[15]]));
    expect(trials.get('volley')).toBe('16384'); // the batch said 5000
    expect(trials.get('ram')).toBe('exact');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('at most 16384 (the batch&#39;s trials and precision targets are not used)');
    // Deterministic: a second comparison prints the same (but for the folder) and writes the same CSV.
    const again = jwsim('compare', small, '--out', join(root, 'trials-again'), ...QUICK);
    expect(again.stdout.replaceAll('trials-again', 'trials')).toBe(r.stdout);
    expect(readFileSync(join(root, 'trials-again', 'comparison.csv'), 'utf8')).toBe(readFileSync(join(out, 'comparison.csv'), 'utf8'));
  });

  it('an exact-only batch gets no note', () => {
    const exact = batch('exact', { experiments: [{ id: 'ram', kind: 'ram', rammer: 'jovian.pathfinder', target: 'cega.wyvern' }] });
    const r = jwsim('compare', exact, '--out', join(root, 'exact'), ...QUICK);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('note:');
  });
});

describe('jwsim compare --settle', () => {
  it('the help gives its units and range', () => {
    const help = jwsim('compare', '--help').stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      "--settle <shift> stop an engagement once its key metric cannot have moved by more than this: an absolute shift in the metric's own units, not a relative one (duels: a_win_rate, so 0.02 is 2 percentage points; attacks, volleys and rams: mean_structure_damage, in Structure points); above 0 and below 1000 (default: 0.02)",
    );
  });

  it('values outside the range are refused', () => {
    const small = batch('settle');
    for (const bad of ['0', '-0.01', '1000', 'abc', 'Infinity']) {
      refused(['compare', small, '--settle', bad], `option '--settle <shift>' argument '${bad}' is invalid. must be a positive number below 1000, e.g. 0.02`);
    }
  });
});

describe('jwsim compare: battle experiments', () => {
  const SCENARIO = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));

  it('pairs the games of each variant, with trial bounds of their own, on stdout, in the manifest and the report', () => {
    const battles = batch('battles', { experiments: [{ id: 'std', kind: 'battle', scenario: SCENARIO, trials: 10, mirror: false }] });
    const out = join(root, 'battles');
    const r = jwsim('compare', battles, '--out', out, '--battle-min-trials', '512', '--battle-max-trials', '512', '--threads', '0');
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe(
      "note: the batch's trials and precision targets are not used: battle experiments run chunks of 256 trials per variant (game t of every variant on the same dice and policy streams), from 512 (--battle-min-trials) to at most 512 (--battle-max-trials), stopping once the A win rate is settled (--battle-settle 0.05)",
    );
    // One look, at 512 trials (the minimum is the maximum): the plain z.
    expect(lines[2]).toMatch(/^[01] of 1 key metrics moved \(the 95% paired interval, ±1\.96 se over the repeated looks, excludes 0\)$/);
    const varied = readFileSync(join(out, 'comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter((c) => c[3].startsWith('unit:') && Number(c[10]) > Number(c[9]));
    // The key metric's and the varied unit figures' q-values (columns 17 and 18), each family on its own.
    const win0 = readFileSync(join(out, 'comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).find((c) => c[3] === 'a_win_rate')!;
    expect(win0[18]).toBe(win0[17]); // a family of one: q = p
    expect(lines[3]).toBe(`${Number(win0[18]) <= 0.05 ? 1 : 0} of the 1 sampled key metrics moved at a 5% false discovery rate (Benjamini-Hochberg q <= 0.05 over their repeated p-values: among many engagements some intervals exclude 0 by chance, and q allows for that; q_value in comparison.csv)`);
    expect(lines[4]).toBe(`battle unit types: ${varied.filter((c) => c[13] === 'yes').length} of ${varied.length} figures that varied moved (each interval 95% on its own), ${varied.filter((c) => Number(c[18]) <= 0.05).length} at a 5% false discovery rate (Benjamini-Hochberg q <= 0.05 over those ${varied.length}); the report's unit tables and comparison.csv's unit:ID:FIGURE rows list them`);
    // Figures that did not vary have no p- or q-value; those that did have both, recomputed here.
    const allUnits = readFileSync(join(out, 'comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter((c) => c[3].startsWith('unit:'));
    for (const c of allUnits) expect(c[17] === '', c[3]).toBe(!varied.some((v) => v[3] === c[3]));
    const q = benjaminiHochberg(varied.map((c) => Number(c[17])));
    varied.forEach((c, i) => expect(Number(c[18]), c[3]).toBeCloseTo(q[i], 3));
    // One look: the plain two-sided p-value of the shift, at most 0.05 exactly when the interval excludes 0.
    for (const c of varied) {
      const se = (Number(c[10]) - Number(c[9])) / (2 * Z95);
      expect(Number(c[17]), c[3]).toBeCloseTo(normalTwoSidedTail(Number(c[8]) / se), 3);
      expect(Number(c[17]) <= 0.05, c[3]).toBe(c[13] === 'yes');
    }
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { settings: Record<string, number> };
    expect(manifest.settings.battleMinTrials).toBe(512);
    expect(manifest.settings.battleMaxTrials).toBe(512);
    expect(manifest.settings.battleIntervalZ).toBeCloseTo(1.96, 2);
    expect(manifest.settings.battleSettle).toBe(0.05);
    const rows = readFileSync(join(out, 'comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const win = rows.find((c) => c[3] === 'a_win_rate')!;
    expect(win.slice(0, 3)).toEqual(['std', 'std/standard-engagement', 'battle']);
    expect(win[14]).toBe('2'); // chunks
    expect(win[15]).toBe('512'); // trials per variant
    // Every unit type's figures are compared too, named as in results.csv.
    const unitRows = rows.filter((c) => c[3].startsWith('unit:'));
    expect(unitRows.length).toBe(8 * 6); // 8 unit types, 6 figures each
    const alexander = unitRows.find((c) => c[3] === 'unit:jovian.alexander:damage_per_100_tv')!;
    expect(alexander.slice(0, 3)).toEqual(['std', 'std/standard-engagement', 'battle']);
    expect(alexander[15]).toBe('512');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<th>battle stopping</th>');
    expect(html).toContain('v1.2.1 vs v1.2.2: unit types in battles');
    expect(html).toContain('<td>jovian.alexander</td>');
    // No engagement was sampled: the engagements' stopping line is left out.
    expect(html).not.toContain('<th>sequential stopping</th>');
  }, 120_000);

  it('--battle-min-trials above --battle-max-trials, or out of range, is refused', () => {
    const small = batch('battle-bounds');
    refused(['compare', small, '--battle-min-trials', '2048', '--battle-max-trials', '1024'], '--battle-min-trials 2048 is above --battle-max-trials 1024');
    refused(['compare', small, '--battle-min-trials', '100'], "option '--battle-min-trials <n>' argument '100' is invalid. must be an integer from 512 to 1000000");
    refused(['compare', small, '--battle-settle', '1'], "option '--battle-settle <shift>' argument '1' is invalid. must be a positive number below 1, e.g. 0.05");
  });
});
