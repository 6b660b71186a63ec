// jwsim battle on odd but valid input. --threads: the whole --json output (numbers and the placeholders used) is the
// same for any thread count. The placeholder list used to hold only what the main thread's
// Battle met: with a worker pool it missed every rules placeholder the games read (criticals,
// side and rear bonuses, missile support...), so --threads 0 and --threads 2 printed different files.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jwsim } from '../helpers/cli.js';

const STANDARD = 'scenarios/battles/standard-engagement.json';

describe('jwsim battle --threads', () => {
  it('--json output is byte-identical for --threads 0 and --threads 2 (two chunks of games)', () => {
    const args = ['battle', '--scenario', STANDARD, '--trials', '65', '--json', '--seed', 'threads'];
    const zero = jwsim(...args, '--threads', '0');
    const two = jwsim(...args, '--threads', '2');
    expect(zero.status).toBe(0);
    expect(two.status).toBe(0);
    const placeholders = (JSON.parse(zero.stdout) as { placeholders: string[] }).placeholders;
    expect(placeholders.some((p) => p.startsWith('rules '))).toBe(true);
    expect(JSON.parse(two.stdout).placeholders).toEqual(placeholders);
    expect(two.stdout).toBe(zero.stdout);
  }, 120_000);
});

describe('jwsim battle: a scenario whose ships can never deploy', () => {
  it('strip_depth 1 (allowed by the schema) is refused with exit 2, one line naming the file and field, nothing on stdout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-battle-odd-'));
    const raw = JSON.parse(readFileSync(STANDARD, 'utf8'));
    raw.units = [resolve('scenarios/units/sample-roster.json')];
    raw.deployment.strip_depth = 1;
    const file = join(dir, 'shallow.json');
    writeFileSync(file, JSON.stringify(raw));
    for (const extra of [['--trials', '3', '--threads', '0'], ['--trace', join(dir, 'trace.json')]]) {
      const r = jwsim('battle', '--scenario', file, ...extra);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^jwsim: error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: deployment\\.strip_depth: 1" is too shallow for `));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it('a table whose zones hold only part of a fleet is refused by battle and by a batch (a capital ship left In Reserve would score as surviving)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-battle-odd-'));
    const raw = JSON.parse(readFileSync(STANDARD, 'utf8'));
    raw.units = [resolve('scenarios/units/sample-roster.json')];
    raw.table = { width: 12, height: 12 };
    raw.deployment = { zone: 'corner', type: 'fleet' };
    const file = join(dir, 'tiny.json');
    writeFileSync(file, JSON.stringify(raw));
    const line = `${file}: the deployment zones (corner quadrants 6 x 6 in, on a 12 x 12 in table) cannot take the fleets: jovian.valiant found no legal spot in a trial game, and a capital ship may not stay In Reserve (game.md §12.2); use a larger table or zone, or fewer models`;
    const r = jwsim('battle', '--scenario', file, '--trials', '3', '--threads', '0');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`jwsim: error: ${line}\n`);
    const batch = join(dir, 'batch.json');
    writeFileSync(batch, JSON.stringify({ format: 'jwsim-batch/1', units: [resolve('scenarios/units/sample-roster.json')], variants: [{ name: 'v', rules: '1.2.2' }], experiments: [{ id: 'tiny', kind: 'battle', scenario: file, trials: 2 }] }));
    const b = jwsim('run', batch, '--out', join(dir, 'out'), '--threads', '0');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain(line);
  }, 60_000);
});
