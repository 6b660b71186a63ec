// jwsim nightly from the command line: an interrupted nightly resumed to the same gate and
// history record, a nightly folder's report rendered again, and folders and options refused.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointHas, jwsim, jwsimInterrupted } from '../helpers/cli.js';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const MEDIUM = fileURLToPath(new URL('../fixtures/batches/medium.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-cli-nightly-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs jwsim with `args`, stopped by SIGTERM once the checkpoint in `out` has 3 lines. */
const interrupted = async (out: string, args: string[]) => jwsimInterrupted('SIGTERM', checkpointHas(out), ...args);

/** The history's runs, in order: gate outcome and every unit's efficiency (what a run records). */
function recorded(history: string): Array<{ gate: unknown; units: unknown[] }> {
  const db = new Database(history, { readonly: true });
  try {
    const runs = db.prepare('SELECT id, gate_failures, shifts_checked, seed, batch_sha256 FROM runs ORDER BY id').all() as Array<{ id: number }>;
    return runs.map(({ id, ...gate }) => ({
      gate,
      units: db.prepare('SELECT variant, unit_id, tv, score, score_low, score_high, fair_tv, damage_per_100_tv FROM unit_efficiency WHERE run_id = ? ORDER BY variant, unit_id').all(id),
    }));
  } finally {
    db.close();
  }
}

const charts = (dir: string, prefix: string) => readdirSync(join(dir, 'charts')).filter((f) => f.startsWith(prefix)).sort();

describe('jwsim nightly --resume, and jwsim report of a nightly folder', () => {
  const baseline = join(root, 'baseline');
  const history = join(root, 'history.sqlite');
  const whole = join(root, 'whole');
  const resumed = join(root, 'resumed');

  it('an interrupted nightly prints a nightly --resume command; it ends with the results, gate and record of an uninterrupted one', async () => {
    // Another seed than the nightly's, so that the gate has shifts to judge.
    expect(jwsim('run', MEDIUM, '--out', baseline, '--seed', 'other', '--threads', '2', '--no-report').status).toBe(0);
    const options = ['--baseline', baseline, '--history', history, '--seed', 'tonight', '--max-shift', '0.02'];
    const first = jwsim('nightly', MEDIUM, ...options, '--out', whole, '--threads', '2');
    expect(first.status).toBe(0);

    const cut = await interrupted(resumed, ['nightly', MEDIUM, ...options, '--out', resumed, '--threads', '1']);
    expect(cut.code).toBe(130);
    const command = /Resume with: jwsim (.*)\n/.exec(cut.stderr)?.[1];
    expect(command).toBe(`nightly ${MEDIUM} --baseline ${baseline} --out ${resumed} --resume --history ${history} --max-shift 0.02 --seed tonight`);
    expect(existsSync(join(resumed, 'manifest.json'))).toBe(false);
    expect(recorded(history)).toHaveLength(1); // not recorded until it has run to the end

    // Run the printed command as printed (the temporary paths hold no spaces).
    const again = jwsim(...command!.split(' '), '--threads', '2');
    expect(again.status).toBe(first.status);
    expect(again.stderr).toBe(first.stderr);
    expect(again.stderr).toMatch(/^nightly gate passed: 18 metrics against /);
    for (const f of ['results.csv', 'results.json']) expect(readFileSync(join(resumed, f), 'utf8'), f).toBe(readFileSync(join(whole, f), 'utf8'));
    const gateOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'nightly.json'), 'utf8')).gate;
    expect(gateOf(resumed)).toEqual(gateOf(whole));
    expect(gateOf(whole)).toMatchObject({ sameSeed: false, maxShift: 0.02, checked: 18 });
    const [a, b] = recorded(history);
    expect(b).toEqual(a);
    expect(a.gate).toMatchObject({ gate_failures: 0, shifts_checked: 18, seed: 'tonight' });
    expect(a.units).toHaveLength(3);
    expect(readFileSync(join(resumed, 'index.html'), 'utf8')).toContain('Nightly gate: passed');
    // A finished nightly is not resumed twice.
    const twice = jwsim(...command!.split(' '));
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(/--out: .* already holds a finished run/);
  }, 120_000);

  it('jwsim report renders a nightly folder again with its gate section and trend charts, byte for byte', () => {
    // The resumed run is the second of its batch in the history: it has trends to draw.
    const before = readFileSync(join(resumed, 'index.html'), 'utf8');
    expect(before).toContain('data-chart="trends-v1.2.2"');
    const trends = charts(resumed, 'trends-');
    expect(trends).toEqual(['trends-v1.2.2.png', 'trends-v1.2.2.svg', 'trends-v1.2.2.vl.json']);
    const svg = readFileSync(join(resumed, 'charts', 'trends-v1.2.2.svg'), 'utf8');
    const r = jwsim('report', resumed);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${join(resumed, 'index.html')}\n`);
    expect(readFileSync(join(resumed, 'index.html'), 'utf8')).toBe(before);
    expect(charts(resumed, 'trends-')).toEqual(trends);
    expect(readFileSync(join(resumed, 'charts', 'trends-v1.2.2.svg'), 'utf8')).toBe(svg);
  }, 60_000);

  it('a damaged nightly.json is refused, naming the field, and the report is left as it was', () => {
    const file = join(resumed, 'nightly.json');
    const good = readFileSync(file, 'utf8');
    const before = readFileSync(join(resumed, 'index.html'), 'utf8');
    const j = JSON.parse(good);
    j.gate.shifts[0].shift = 'large';
    writeFileSync(file, JSON.stringify(j));
    try {
      const r = jwsim('report', resumed);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`jwsim: error: ${file}: gate.shifts[0].shift: "large" must be number\n`);
      expect(readFileSync(join(resumed, 'index.html'), 'utf8')).toBe(before);
      expect(charts(resumed, 'trends-')).toHaveLength(3);
    } finally {
      writeFileSync(file, good);
    }
  });
});

describe('the first night: no --baseline', () => {
  it('runs and records the batch without a gate (exit 0), and the next night gates against that run', () => {
    const history = join(root, 'first-history.sqlite');
    const first = join(root, 'first-night');
    const r = jwsim('nightly', SMALL, '--history', history, '--out', first, '--threads', '0');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('nightly: first night (no --baseline): the run is recorded in the history without a gate; give this run folder as --baseline next time\n');
    expect(recorded(history)).toHaveLength(1);
    expect(recorded(history)[0].gate).toMatchObject({ gate_failures: 0, shifts_checked: 0 });
    const record = JSON.parse(readFileSync(join(first, 'nightly.json'), 'utf8'));
    expect([record.gate, record.baselineDir]).toEqual([null, null]);
    const html = readFileSync(join(first, 'index.html'), 'utf8');
    expect(html).toContain('Nightly gate: not run (first night)');
    // jwsim report renders it again the same way.
    expect(jwsim('report', first).status).toBe(0);
    expect(readFileSync(join(first, 'index.html'), 'utf8')).toBe(html);
    // A record naming a baseline but holding no gate is damaged, and refused.
    const file = join(first, 'nightly.json');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, JSON.stringify({ ...record, baselineDir: '/somewhere' }));
    try {
      const bad = jwsim('report', first);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe(`jwsim: error: ${file}: gate and baselineDir: a gate needs its baseline, and a first night (no baseline) has no gate\n`);
    } finally {
      writeFileSync(file, good);
    }
    const second = jwsim('nightly', SMALL, '--baseline', first, '--history', history, '--out', join(root, 'second-night'), '--threads', '0');
    expect(second.status).toBe(0);
    expect(second.stderr).toContain('nightly gate passed');
    expect(recorded(history)).toHaveLength(2);
  }, 120_000);
});

describe('folders and options refused with one line, exit 2', () => {
  for (const command of ['run', 'nightly']) {
    it(`${command} --resume without --out says that --resume needs --out`, () => {
      const extra = command === 'nightly' ? ['--baseline', join(root, 'baseline')] : [];
      const r = jwsim(command, MEDIUM, ...extra, '--resume');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('jwsim: error: --resume needs --out DIR, the folder of the interrupted run to continue\n');
    });
  }

  it('a --history that is another program\'s database is refused before the batch runs', () => {
    const batch = join(root, 'tiny.json');
    writeFileSync(batch, JSON.stringify({ format: 'jwsim-batch/1', seed: 't', experiments: [{ id: 'd', kind: 'duel', matchups: [['cega.wyvern', 'cega.fury']], range: 3, trials: 100 }] }));
    const base = join(root, 'tiny-baseline');
    expect(jwsim('run', batch, '--out', base, '--threads', '0', '--no-report').status).toBe(0);
    const foreign = join(root, 'foreign.sqlite');
    const db = new Database(foreign);
    db.exec('CREATE TABLE runs (name TEXT)');
    db.close();
    const out = join(root, 'never-recorded');
    const r = jwsim('nightly', batch, '--baseline', base, '--history', foreign, '--out', out, '--threads', '0');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^jwsim: error: .*foreign\.sqlite: not a jwsim nightly history \(its table runs lacks columns id, .*\); nothing was written\./);
    expect(existsSync(out)).toBe(false);
  });

  it('report (and nightly --baseline) of a comparison folder says what it is and where its report is', () => {
    const out = join(root, 'comparison');
    expect(jwsim('compare', SMALL, '--rules', '1.2.1,1.2.2', '--out', out, '--min-trials', '16384', '--max-trials', '16384', '--threads', '1').status).toBe(0);
    const r = jwsim('report', out);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`jwsim: error: ${out}: a comparison folder (written by jwsim compare), not a run folder: compare wrote its report already, ${join(out, 'index.html')}; jwsim report and nightly --baseline take run folders (written by jwsim run, merge or nightly)\n`);
    const asBaseline = jwsim('nightly', SMALL, '--baseline', out, '--out', join(root, 'never-run'));
    expect(asBaseline.status).toBe(2);
    expect(asBaseline.stderr).toMatch(/^jwsim: error: --baseline: .*comparison: a comparison folder \(written by jwsim compare\), not a run folder/);
    expect(existsSync(join(root, 'never-run'))).toBe(false);
  }, 60_000);
});
