import { describe, expect, it } from 'vitest';
import { jwsim } from '../helpers/cli.js';

describe('jwsim dice --json', () => {
  it('exact: the documented keys and exact values for 3 base dice', () => {
    const r = jwsim('dice', '--base', '3', '--json');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j.rules).toBe('1.2.2');
    expect(j.method).toBe('exact');
    expect(j.pool).toMatchObject({ base: 3, flex: 0, macro: 0, rerolls: 0 });
    expect(j.p['D+']).toBeCloseTo(4 / 9, 14);
    expect(j.p['T+']).toBeCloseTo(1 / 36, 14);
    expect(j.p['Q+']).toBe(0);
    expect(j.se).toBeUndefined();
    expect(j.options.negative_macro_mode).toBe('LEVEL');
    expect(j.rulesChanges.length).toBeGreaterThan(0);
  });

  it('records --rules and --rule overrides, and they change the numbers', () => {
    const level = JSON.parse(jwsim('dice', '--base', '6', '--macro', '-2', '--json').stdout);
    const count = JSON.parse(jwsim('dice', '--base', '6', '--macro', '-2', '--rule', 'negative_macro_mode=COUNT', '--rules', 'v1.2.1', '--json').stdout);
    expect(count.rules).toBe('1.2.1');
    expect(count.rulesChanges).toEqual([]);
    expect(count.options.negative_macro_mode).toBe('COUNT');
    // dice.md §7.5: X=6, M=-2: LEVEL 3.63 %, COUNT 3.74 % for a Quadruple.
    expect(level.p['Q+'] * 100).toBeCloseTo(3.63, 2);
    expect(count.p['Q+'] * 100).toBeCloseTo(3.74, 2);
  });

  it('repeated --flex grants: summed by default, largest only with flex_stacking=MAX', () => {
    const sum = JSON.parse(jwsim('dice', '--base', '2', '--flex', '1', '--flex', '2', '--json').stdout);
    const max = JSON.parse(jwsim('dice', '--base', '2', '--flex', '1', '--flex', '2', '--rule', 'flex_stacking=MAX', '--json').stdout);
    expect(sum.pool.flex).toBe(3);
    expect(max.pool.flex).toBe(2);
    expect(sum.p['D+'] * 100).toBeCloseTo(90.74, 2); // dice.md §7.2, X=2 Y=3
    expect(max.p['D+'] * 100).toBeCloseTo(72.22, 2); // X=2 Y=2
  });

  it('rerolls follow the version: v1.2.1 never rerolls a success', () => {
    const v121 = JSON.parse(jwsim('dice', '--base', '4', '--rerolls', '1', '--rules', '1.2.1', '--rule', 'reroll_policy=BELOW_T', '--json').stdout);
    const v122 = JSON.parse(jwsim('dice', '--base', '4', '--rerolls', '1', '--rules', '1.2.2', '--rule', 'reroll_policy=BELOW_T', '--json').stdout);
    expect(v121.p['D+'] * 100).toBeCloseTo(92.28, 2); // dice.md §7.6
    const pT = 7 / 72; // one roll of 4 dice reaching [T+]
    expect(v122.p['T+']).toBeCloseTo(pT + (1 - pT) * pT, 12);
    expect(v121.p['T+']).toBeCloseTo(pT + (1 - 13 / 18) * pT, 12);
  });

  it('Monte Carlo: se and trials, within 4 SE of exact, byte-identical for the same seed', () => {
    const args = ['dice', '--base', '5', '--flex', '1', '--macro', '1', '--trials', '200000', '--seed', '7', '--json'];
    const a = jwsim(...args);
    const b = jwsim(...args);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const mc = JSON.parse(a.stdout);
    const ex = JSON.parse(jwsim('dice', '--base', '5', '--flex', '1', '--macro', '1', '--json').stdout);
    expect(mc.method).toBe('monte-carlo');
    expect(mc.trials).toBe(200000);
    expect(mc.seed).toBe('7');
    for (const k of ['D+', 'T+', 'Q+']) {
      expect(mc.se[k]).toBeGreaterThan(0);
      expect(Math.abs(mc.p[k] - ex.p[k])).toBeLessThan(4 * Math.sqrt((ex.p[k] * (1 - ex.p[k])) / 200000));
    }
    const other = jwsim('dice', '--base', '5', '--flex', '1', '--macro', '1', '--trials', '200000', '--seed', '8', '--json');
    expect(other.stdout).not.toBe(a.stdout);
  });

  it('without --seed, Monte Carlo uses the default seed and says so', () => {
    const r = jwsim('dice', '--base', '2', '--trials', '1000');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/seed 20261129/);
  });

  it('human output: a table of the three thresholds and the rules in force', () => {
    const r = jwsim('dice', '--base', '3', '--macro', '1', '--outcomes');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/rules: v1\.2\.2/);
    expect(r.stdout).toMatch(/\[D\+\]\s+44\.44%/);
    expect(r.stdout).toMatch(/\[T\+\]\s+9\.72%/);
    expect(r.stdout).toMatch(/\[Q\+\]\s+0\.46%/);
    expect(r.stdout).toMatch(/\[N\]\s+55\.56%/);
  });
});

describe('jwsim dice: bad input exits 2 with one line on stderr and nothing on stdout', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['negative base', ['--base', '-1'], /--base.*integer from 0 to 12/],
    ['non-integer base', ['--base', '2.5'], /--base.*integer/],
    ['text base', ['--base', 'three'], /--base.*integer/],
    ['negative flex', ['--base', '2', '--flex', '-1'], /--flex.*integer/],
    ['non-integer macro', ['--base', '2', '--macro', '1.5'], /--macro.*integer/],
    ['macro beyond the supported size', ['--base', '2', '--macro', '7'], /--macro.*-6 to 6/],
    ['base beyond the supported size', ['--base', '13'], /--base.*0 to 12/],
    ['base + flex beyond the supported size', ['--base', '10', '--flex', '3'], /at most 12/],
    ['negative rerolls', ['--base', '2', '--rerolls', '-1'], /--rerolls/],
    ['unknown version', ['--base', '2', '--rules', '1.3'], /unknown rules version "1\.3".*1\.2\.1, 1\.2\.2/],
    ['trials 0', ['--base', '2', '--trials', '0'], /--trials.*1 to/],
    ['trials not a number', ['--base', '2', '--trials', '1e6'], /--trials.*integer/],
    ['absurd trials', ['--base', '2', '--trials', '100000000000'], /--trials/],
    ['unknown rule option', ['--base', '2', '--rule', 'foo=BAR'], /unknown rule option "foo".*negative_macro_mode/],
    ['unknown rule value', ['--base', '2', '--rule', 'negative_macro_mode=SOMETIMES'], /"SOMETIMES" is not one of LEVEL, COUNT/],
    ['rule without =', ['--base', '2', '--rule', 'negative_macro_mode'], /NAME=VALUE/],
    ['--exact with --trials', ['--base', '2', '--exact', '--trials', '10'], /cannot be used with/],
    ['--seed without --trials', ['--base', '2', '--seed', '5'], /--seed.*--trials/],
    ['bad seed', ['--base', '2', '--trials', '10', '--seed', 'a b'], /--seed/],
    ['missing --base', [], /--base/],
    ['unknown flag', ['--base', '2', '--bogus'], /unknown option '--bogus'/],
  ];
  for (const [name, args, pattern] of cases) {
    it(name, () => {
      const r = jwsim('dice', ...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^jwsim: error: /);
      expect(r.stderr).toMatch(pattern);
    });
  }
});

describe('help', () => {
  it('jwsim --help lists the commands; jwsim dice --help shows every option and its default', () => {
    const top = jwsim('--help');
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/dice/);
    expect(top.stdout).toMatch(/rules/);
    const dice = jwsim('dice', '--help');
    expect(dice.status).toBe(0);
    for (const opt of ['--base', '--flex', '--macro', '--rerolls', '--rules', '--rule', '--exact', '--trials', '--seed', '--json']) {
      expect(dice.stdout).toContain(opt);
    }
    expect(dice.stdout).toMatch(/--rules <version>[\s\S]*default: "1\.2\.2"/);
    expect(dice.stdout).toMatch(/--seed <seed>[\s\S]*default:\s+"20261129"/);
  });

  it('an unknown command exits 2, naming the commands there are', () => {
    const r = jwsim('nonsense');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('jwsim: error: unknown command "nonsense"; allowed: dice, rules, units, attack, volley, ram, duel, battle, run, merge, report, compare, costs, nightly (jwsim --help describes each)\n');
    // `help` of an unknown command says so instead of printing the general help.
    const help = jwsim('help', 'nonsense');
    expect(help.status).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toBe('jwsim: error: help: unknown command "nonsense"; allowed: dice, rules, units, attack, volley, ram, duel, battle, run, merge, report, compare, costs, nightly (jwsim --help describes each)\n');
    expect(jwsim('help', 'dice').stdout).toMatch(/^Usage: jwsim dice/);
  });
});

describe('jwsim rules', () => {
  it('--json lists both versions, the v1.2.2 changes and every option with its default', () => {
    const r = jwsim('rules', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.versions.map((v: { id: string }) => v.id)).toEqual(['1.2.1', '1.2.2']);
    expect(j.versions[1].parent).toBe('1.2.1');
    expect(j.versions[1].changes.length).toBeGreaterThan(0);
    const neg = j.options.find((o: { name: string }) => o.name === 'negative_macro_mode');
    expect(neg).toMatchObject({ default: 'LEVEL', values: ['LEVEL', 'COUNT'] });
    expect(j.inForce.negative_macro_mode).toBe('LEVEL');
  });

  it('shows the options in force: --rule changes them (starred), and one option given twice is refused', () => {
    const j = JSON.parse(jwsim('rules', '--json', '--rule', 'negative_macro_mode=COUNT').stdout);
    expect(j.inForce.negative_macro_mode).toBe('COUNT');
    const text = jwsim('rules', '--rule', 'negative_macro_mode=COUNT').stdout;
    expect(text).toMatch(/negative_macro_mode +LEVEL +COUNT \*/);
    expect(text).toMatch(/flex_stacking +SUM +SUM +SUM\|MAX/);
    expect(jwsim('rules', '--tables', '--rule', 'negative_macro_mode=COUNT').stdout).toContain('Options in force: negative_macro_mode=COUNT');
    const twice = jwsim('rules', '--rule', 'flex_stacking=MAX', '--rule', 'flex_stacking=SUM');
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain('--rule: flex_stacking is given twice, as MAX and as SUM; give it once');
    expect(twice.stdout).toBe('');
  });
});
