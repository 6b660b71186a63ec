// Messages and help a designer meets on everyday mistakes: a mistyped unit id anywhere (also
// beside schema problems), a unit file named twice, a batch whose unit file cannot be read, a
// --range no unit reaches in costs, a roster too large for costs, --shard auto out of range, and
// the help texts that say what a value may be.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { jwsim, jwsimWithEnv } from '../helpers/cli.js';

const SAMPLE = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-messages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function refused(args: string[], env: Record<string, string> = {}): string {
  const r = jwsimWithEnv(env, ...args);
  expect(r.status, args.join(' ')).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return r.stderr;
}

describe('a mistyped unit id gets "did you mean" wherever it is typed', () => {
  it('on the command line', () => {
    expect(refused(['attack', '--attacker', 'cega.wyvrn', '--weapon', '#1', '--target', 'jovian.valiant', '--range', '5'])).toMatch(/^jwsim: error: --attacker: unknown unit "cega\.wyvrn"; did you mean cega\.wyvern\? known units: /);
  });

  it('in a batch file', () => {
    const batch = join(root, 'typo.json');
    writeFileSync(batch, JSON.stringify({ format: 'jwsim-batch/1', units: [SAMPLE], experiments: [{ id: 'd', kind: 'duel', matchups: [['cega.wyvrn', 'cega.fury']], range: 3, trials: 100 }] }));
    expect(refused(['run', batch, '--out', join(root, 'never')])).toContain(`${batch}: experiments[0].matchups[0][0]: unknown unit "cega.wyvrn"; did you mean cega.wyvern? known units: `);
  });
});

describe('a batch with schema problems and unknown unit ids', () => {
  it('reports both in one round, each id where it was typed', () => {
    const batch = join(root, 'both.json');
    writeFileSync(batch, JSON.stringify({
      format: 'jwsim-batch/1',
      units: [SAMPLE],
      experiments: [
        { id: 'd', kind: 'duel', units: ['cega.wyvrn', 'cega.fury'], range: 3, trials: 100, rnge: 3 },
        { id: 'a', kind: 'attack', attacker: 'jovian.alexander', weapon: '#1', target: ['cega.fury', 'jovian.valiantt'], range: 5, aspect: 'sidee' },
        { id: 'r', kind: 'ram', rammer: 'jovian.pathfindr', target: 'unknown.tengu' },
        { id: 'all', kind: 'duel', units: 'all', range: 3, trials: 100 },
      ],
    }));
    const text = refused(['run', batch, '--out', join(root, 'never')]);
    expect(text).toMatch(/^jwsim: error: [^\n]*both\.json: 5 problems\n/);
    expect(text).toContain(`${batch}: experiments[0]: unknown field "rnge" (did you mean "range"?)`);
    expect(text).toContain(`${batch}: experiments[1].aspect: "sidee" is not one of front, side, rear`);
    expect(text).toContain(`${batch}: experiments[0].units: unknown unit "cega.wyvrn"; did you mean cega.wyvern?`);
    expect(text).toContain(`${batch}: experiments[1].target: unknown unit "jovian.valiantt"; did you mean jovian.valiant?`);
    expect(text).toContain(`${batch}: experiments[2].rammer: unknown unit "jovian.pathfindr"; did you mean jovian.pathfinder?`);
    expect(existsSync(join(root, 'never'))).toBe(false);
  });
});

describe('a batch whose unit file cannot be read', () => {
  it('names the batch and its units field, as a scenario does', () => {
    const batch = join(root, 'missing-units.json');
    const missing = join(root, 'no-such-roster.json');
    writeFileSync(batch, JSON.stringify({ format: 'jwsim-batch/1', units: ['no-such-roster.json'], experiments: [{ id: 'd', kind: 'duel', matchups: [['cega.wyvern', 'cega.fury']], range: 3, trials: 100 }] }));
    expect(refused(['run', batch, '--out', join(root, 'never3')])).toBe(`jwsim: error: ${batch}: units: ${missing}: cannot read file (no such file)\n`);
  });
});

describe('unit files', () => {
  it('a file named twice is read once (its cards are not duplicates of themselves)', () => {
    const r = jwsim('units', '--check', SAMPLE, SAMPLE);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${SAMPLE}, ${SAMPLE}: valid, 25 units\n`);
  });
});

describe('costs: a --range that no unit reaches', () => {
  it('is refused with the longest reach, before any duel is played', () => {
    const err = refused(['costs', '--range', '50', '--threads', '0']);
    expect(err).toMatch(/^jwsim: error: --range: at 50 in no unit reaches another, so every duel would be a draw and no price could be read; the longest reach is (\d+) in \(\S+ against (capital ships|squadrons)\); give a --range of at most \1\n$/);
  });
});

describe('costs: a roster too large for one duel matrix', () => {
  it('is refused before any duel is played, with the largest roster allowed', () => {
    // 142 units: 142 x 141 = 20,022 ordered pairs, one more roster unit than the 20,000 a batch may hold.
    const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { units: Array<{ id: string }> };
    const units = Array.from({ length: 142 }, (_, i) => ({ ...sample.units[i % sample.units.length], id: `${sample.units[i % sample.units.length].id}-${i}` }));
    const file = join(root, 'big-roster.json');
    writeFileSync(file, JSON.stringify({ ...sample, units }));
    expect(refused(['costs', '--units', file, '--threads', '0'])).toBe(
      'jwsim: error: --units: costs plays every ordered pair of the roster: 142 units make 20022 duel match-ups; at most 20000 are allowed (a roster of at most 141 units); give fewer units with --units\n',
    );
  });
});

describe('--shard auto', () => {
  it('an index out of range names the variable it came from', () => {
    const err = refused(['run', fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url)), '--shard', 'auto/3', '--out', join(root, 'never2')], { SLURM_ARRAY_TASK_ID: '7' });
    expect(err).toContain('shard 7/3 (K from SLURM_ARRAY_TASK_ID="7"): need 0 <= K < N <= 10000');
  });
});

describe('help texts say what a value may be', () => {
  it('--seed everywhere it exists, the --shard auto variables, and a volley example', () => {
    for (const cmd of ['dice', 'attack', 'volley', 'ram', 'duel', 'battle', 'run', 'compare', 'costs', 'nightly']) {
      expect(jwsim(cmd, '--help').stdout.replace(/\s+/g, ' '), cmd).toContain('1 to 64 letters, digits, ".", "_" or "-"');
    }
    expect(jwsim('run', '--help').stdout.replace(/\s+/g, ' ')).toContain('K may be auto: taken from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)');
    expect(jwsim('volley', '--help').stdout).toContain('Example:\n  jwsim volley --attacker jovian.alexander --target unknown.tengu --range 9 --aspect side');
  });

  it('required options are marked', () => {
    expect(jwsim('attack', '--help').stdout).toMatch(/--attacker <id> +\(required\) attacking unit id/);
    expect(jwsim('--help').stdout).toMatch(/\n {2}duel \[options\] <a> <b> /);
  });
});
