// jwsim run and jwsim merge from the command line.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repeatedZ95 } from '../../src/stats/sequential.js';
import { benjaminiHochberg } from '../../src/stats/fdr.js';
import { KEY_METRIC } from '../../src/sim/compare.js';
import { checkpointHas, jwsim, jwsimInterrupted } from '../helpers/cli.js';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-cli-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ROSTER = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));

/** A batch file on the sample roster, seeded with its name, in a new folder under the test root. */
function batchIn(name: string, body: Record<string, unknown>): { dir: string; file: string } {
  const dir = join(root, name);
  mkdirSync(dir);
  const file = join(dir, 'batch.json');
  writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [ROSTER], seed: name, ...body }));
  return { dir, file };
}

describe('jwsim run / merge', () => {
  it('writes results.csv, results.json and manifest.json; shards merged give the same result files', () => {
    const whole = join(root, 'whole');
    const r = jwsim('run', SMALL, '--out', whole, '--threads', '2');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(whole);
    expect(r.stderr).toBe(''); // no progress when stderr is not a terminal
    for (const f of ['results.csv', 'results.json', 'manifest.json']) expect(existsSync(join(whole, f))).toBe(true);
    expect(existsSync(join(whole, 'checkpoint.jsonl'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(whole, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ seed: 'small', threads: 2, shard: null });
    expect(manifest.batch.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.variants.map((v: { rules: string }) => v.rules)).toEqual(['1.2.1', '1.2.2']);
    expect(manifest.variants[1].rules_changes.length).toBeGreaterThan(0);
    expect(manifest.placeholders_used.length).toBeGreaterThan(0);

    const shards = [0, 1, 2].map((k) => {
      const dir = join(root, `shard${k}`);
      const s = jwsim('run', SMALL, '--out', dir, '--shard', `${k}/3`, '--threads', '1');
      expect(s.status).toBe(0);
      expect(existsSync(join(dir, 'partial.json'))).toBe(true);
      return dir;
    });
    const merged = join(root, 'merged');
    const m = jwsim('merge', ...shards, '--out', merged);
    expect(m.status).toBe(0);
    expect(readFileSync(join(merged, 'results.csv'), 'utf8')).toBe(readFileSync(join(whole, 'results.csv'), 'utf8'));
    expect(readFileSync(join(merged, 'results.json'), 'utf8')).toBe(readFileSync(join(whole, 'results.json'), 'utf8'));
    // A finished folder is never overwritten.
    const again = jwsim('run', SMALL, '--out', whole);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already holds a finished run/);
    // Nor are results mixed into a folder of other files.
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'keep.txt'), 'mine\n');
    const mixed = jwsim('run', SMALL, '--out', other, '--threads', '1');
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toContain(`--out: ${other} already holds other files; choose a new or empty folder`);
    expect(readdirSync(other)).toEqual(['keep.txt']);
    // Missing folders above it are made; where that is impossible, nothing is left behind and
    // nothing hangs (Node's own recursive mkdir never returns under /proc).
    const deep = join(root, 'new-parent', 'run');
    expect(jwsim('run', SMALL, '--out', deep, '--threads', '1', '--no-report').status).toBe(0);
    expect(existsSync(join(deep, 'results.csv'))).toBe(true);
    writeFileSync(join(root, 'a-file'), '');
    const under = jwsim('run', SMALL, '--out', join(root, 'a-file', 'x', 'run'), '--threads', '1');
    expect(under.status).toBe(2);
    expect(under.stderr).toContain('(a part of the path is a file)');
    if (existsSync('/proc/self')) {
      const proc = jwsim('run', SMALL, '--out', '/proc/jwsim-test/run', '--threads', '1');
      expect(proc.status).toBe(2);
      expect(proc.stderr).toContain('--out: cannot create the folder /proc/jwsim-test/run');
    }
  });

  it('--shard auto/N takes K from JOB_COMPLETION_INDEX', () => {
    const dir = join(root, 'auto');
    process.env.JOB_COMPLETION_INDEX = '1';
    try {
      const r = jwsim('run', SMALL, '--out', dir, '--shard', 'auto/2');
      expect(r.status).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'partial.json'), 'utf8')).shard).toEqual({ index: 1, count: 2 });
    } finally {
      delete process.env.JOB_COMPLETION_INDEX;
    }
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['bad --shard', ['--shard', '3/2'], /--shard.*0 <= K < N/],
    ['--shard auto without an index in the environment', ['--shard', 'auto/4'], /JOB_COMPLETION_INDEX/],
    ['negative --threads', ['--threads', '-1'], /--threads.*integer from 0 to 256/],
    ['--resume without a checkpoint', ['--resume', '--out', join(root, 'nothing-here')], /--resume: no checkpoint/],
    ['bad --seed', ['--seed', 'a b'], /--seed/],
  ];
  for (const [name, args, pattern] of bad) {
    it(`${name}: exit 2, one line, nothing on stdout`, () => {
      const r = jwsim('run', SMALL, ...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    });
  }

  it('a missing batch file, and merge of a folder that is not a shard, exit 2', () => {
    expect(jwsim('run', join(root, 'nope.json')).stderr).toMatch(/nope\.json: cannot read file \(no such file\)/);
    const r = jwsim('merge', root, '--out', join(root, 'm2'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no partial\.json here/);
  });
});

describe('jwsim run: a real interrupt', () => {
  it('SIGTERM saves finished chunks and exits 130; --resume ends with the files of an uninterrupted run', async () => {
    const MEDIUM = fileURLToPath(new URL('../fixtures/batches/medium.json', import.meta.url));
    const out = join(root, 'interrupted');
    // Stopped once some chunks are saved (the checkpoint is flushed at least once a second).
    const { code, stderr } = await jwsimInterrupted('SIGTERM', checkpointHas(out), 'run', MEDIUM, '--out', out, '--threads', '1', '--no-report');
    expect(code).toBe(130);
    // The command to resume keeps --no-report: resuming must not add a report the run was told to skip.
    expect(stderr).toMatch(/interrupted; \d+ chunks saved .* Resume with: jwsim run .* --resume --no-report\n/);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    const resumed = jwsim('run', MEDIUM, '--out', out, '--resume', '--threads', '2', '--no-report');
    expect(resumed.status).toBe(0);
    const whole = join(root, 'uninterrupted');
    expect(jwsim('run', MEDIUM, '--out', whole, '--threads', '0').status).toBe(0);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(readFileSync(join(whole, 'results.csv'), 'utf8'));
  });
});

describe('jwsim compare: bad input', () => {
  it('bad variants and --rules are refused, and a batch that cannot run leaves no --out folder', () => {
    const overlay = fileURLToPath(new URL('../fixtures/overlays/bad-tables.json', import.meta.url));
    const refuse = (args: string[], message: string) => {
      const out = join(root, `cmp-bad-${args.length}-${message.length}`);
      const r = jwsim('compare', ...args, '--out', out, '--threads', '0');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(existsSync(out)).toBe(false);
    };
    refuse([SMALL, '--variant', `bad name=${overlay}`], '--variant: "bad name" is not a variant name');
    refuse([SMALL, '--variant', 'h='], '--variant: h= names no overlay file');
    refuse([SMALL, '--variant', 'h=/no/such.json'], '--variant h: /no/such.json: cannot read file');
    refuse([SMALL, '--rules', ''], '--rules: give a comma-separated list of rules versions');
    // An engagement that cannot be planned (no such weapon): refused before any folder is made.
    const batch = join(root, 'cmp-unknown-weapon.json');
    writeFileSync(batch, JSON.stringify({ format: 'jwsim-batch/1', units: [fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))], experiments: [{ id: 'x', kind: 'attack', attacker: 'jovian.alexander', weapon: 'Laser', target: 'jovian.valiant', range: 3 }] }));
    refuse([batch, '--rules', '1.2.1,1.2.2'], 'Laser');
  });
});

describe('jwsim compare', () => {
  it('writes comparison.csv, comparison.json, manifest.json and index.html', () => {
    const out = join(root, 'compare');
    const r = jwsim('compare', SMALL, '--rules', '1.2.1,1.2.2', '--out', out, '--min-trials', '16384', '--max-trials', '32768', '--threads', '1');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/v1\.2\.1 vs v1\.2\.2/);
    for (const f of ['comparison.csv', 'comparison.json', 'manifest.json', 'index.html']) expect(existsSync(join(out, f)), f).toBe(true);
    const csv = readFileSync(join(out, 'comparison.csv'), 'utf8');
    expect(csv.split('\n')[0]).toBe('experiment,engagement,kind,metric,from,to,value_from,value_to,difference,low,high,unpaired_low,unpaired_high,distinguishable,chunks,trials,seed,p_value,q_value');
    // p- and q-values: for the sampled key metrics only; the repeated p-value is at most 0.05
    // exactly when the repeated interval excludes 0, and q is Benjamini-Hochberg over them all.
    const rows = csv.trim().split('\n').slice(1).map((l) => l.split(','));
    const keyed = rows.filter((c) => c[17] !== '');
    expect(keyed.length).toBeGreaterThan(1);
    for (const c of rows) expect(c[17] !== '', c[3]).toBe(c[15] !== 'exact' && KEY_METRIC[c[2] as 'duel'] === c[3]);
    const z = repeatedZ95(2, 4);
    for (const c of keyed) {
      const se = (Number(c[10]) - Number(c[9])) / (2 * z);
      const t = Math.abs(Number(c[8])) / se;
      if (Math.abs(t - z) > 0.01) expect(Number(c[17]) <= 0.05, c[1]).toBe(c[13] === 'yes');
      if (Number(c[18]) <= 0.05) expect(c[13], c[1]).toBe('yes');
    }
    const q = benjaminiHochberg(keyed.map((c) => Number(c[17])));
    keyed.forEach((c, i) => expect(Number(c[18]), c[1]).toBeCloseTo(q[i], 3));
    const json = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'));
    expect(json.paired_vs_unpaired_width.count).toBeGreaterThan(0);
    // The JSON rows are the CSV rows: the same fields, the seed once at the top, exact trials as null.
    expect(json.seed).toBe(rows[0][16]);
    expect(json.differences.map((d: Record<string, unknown>) => [d.experiment, d.engagement, d.kind, d.metric, d.from, d.to, d.difference, d.low, d.high, d.distinguishable ? 'yes' : 'no', d.chunks, d.trials ?? 'exact', d.p_value ?? ''].map(String))).toEqual(rows.map((c) => [c[0], c[1], c[2], c[3], c[4], c[5], String(Number(c[8])), String(Number(c[9])), String(Number(c[10])), c[13], c[14], c[15], c[17] === '' ? '' : String(Number(c[17]))]));
    // Looks after chunks 2, 3 and 4 of 8,192 trials: repeated 95% intervals with the Pocock z
    // of that schedule (2.25, not 1.96), and the stopping rule's z of 3.
    const settings = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).settings;
    expect(settings.intervalZ).toBeCloseTo(repeatedZ95(2, 4), 12);
    expect(settings.intervalZ).toBeCloseTo(2.25, 2);
    expect(settings.sequentialZ).toBe(3);
    expect(r.stdout).toContain('±2.25 se over the repeated looks');
  });

  for (const [name, args, pattern] of [
    ['one variant only', ['--rules', '1.2.2'], /at least two variants/],
    ['a variant without a file', ['--variant', 'house'], /NAME=OVERLAY_FILE/],
    ['an unknown version', ['--rules', '1.2.1,1.3'], /unknown rules version "1\.3"/],
    ['min above max', ['--rules', '1.2.1,1.2.2', '--min-trials', '40000', '--max-trials', '30000'], /--min-trials 40000 is above --max-trials 30000/],
  ] as Array<[string, string[], RegExp]>) {
    it(`${name}: exit 2`, () => {
      const r = jwsim('compare', SMALL, ...args, '--out', join(root, `c-${name.replace(/ /g, '-')}`));
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(pattern);
    });
  }
});

describe('jwsim nightly', () => {
  const history = join(root, 'history.sqlite');
  const baseline = join(root, 'nightly-baseline');

  it('exits 0 on a re-run of the baseline, 1 on an injected shift, and records both in the history', async () => {
    expect(jwsim('run', SMALL, '--out', baseline, '--threads', '2', '--no-report').status).toBe(0);
    const again = jwsim('nightly', SMALL, '--baseline', baseline, '--history', history, '--out', join(root, 'n1'), '--threads', '2');
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/nightly gate passed: \d+ metrics/);
    expect(readFileSync(join(root, 'n1', 'index.html'), 'utf8')).toContain('Nightly gate: passed');
    // Inject a shift into a copy of the baseline.
    const { cpSync, writeFileSync } = await import('node:fs');
    const tampered = join(root, 'nightly-tampered');
    cpSync(baseline, tampered, { recursive: true });
    const file = join(tampered, 'results.json');
    const j = JSON.parse(readFileSync(file, 'utf8'));
    const duel = j.experiments.find((e: { kind: string }) => e.kind === 'duel');
    // Moved by 0.2 towards the middle, so the tampered rates stay valid rates (0..1).
    const shift = duel.metrics.a_win_rate.value < 0.5 ? 0.2 : -0.2;
    for (const k of ['value', 'low', 'high']) duel.metrics.a_win_rate[k] += shift;
    writeFileSync(file, JSON.stringify(j));
    const shifted = jwsim('nightly', SMALL, '--baseline', tampered, '--history', history, '--out', join(root, 'n2'), '--threads', '2');
    expect(shifted.status).toBe(1);
    expect(shifted.stderr).toMatch(/nightly gate FAILED: 1 of \d+ metrics/);
    expect(shifted.stderr).toContain(`${duel.engagement} (${duel.variant}) a_win_rate`);
    const html = readFileSync(join(root, 'n2', 'index.html'), 'utf8');
    expect(html).toContain('Nightly gate: FAILED');
    expect(html).toContain('data-chart="trends-v1.2.1"');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(history, { readonly: true });
    expect(db.prepare('SELECT gate_failures FROM runs ORDER BY id').all()).toEqual([{ gate_failures: 0 }, { gate_failures: 1 }]);
    db.close();
  }, 120_000);

  it('a refused --out or --history leaves no history file behind', () => {
    const fresh = join(root, 'never.sqlite');
    const taken = jwsim('nightly', SMALL, '--baseline', baseline, '--history', fresh, '--out', baseline);
    expect(taken.status).toBe(2);
    expect(taken.stderr).toMatch(/--out: .* already holds a finished run/);
    expect(existsSync(fresh)).toBe(false);
    const folder = jwsim('nightly', SMALL, '--baseline', baseline, '--history', root, '--out', join(root, 'n-folder'));
    expect(folder.status).toBe(2);
    expect(folder.stderr).toMatch(/--history: .* is a folder; give the history's file name/);
    const nowhere = jwsim('nightly', SMALL, '--baseline', baseline, '--history', join(root, 'no-such', 'h.sqlite'), '--out', join(root, 'n-nowhere'));
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toMatch(/--history: cannot make .*h\.sqlite: the folder .*no-such does not exist/);
    expect(existsSync(join(root, 'n-folder'))).toBe(false);
  });

  it('a nightly run killed while simulating leaves the history as it was', async () => {
    // The medium batch with ten times its trials, so it is still simulating when killed: it
    // is killed once its checkpoint holds a finished chunk, not after a fixed time (the batch
    // took under a second and a half on a fast day, and a timed kill then came after the end).
    const medium = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/batches/medium.json', import.meta.url)), 'utf8'));
    const longer = join(root, 'longer.json');
    writeFileSync(longer, JSON.stringify({ ...medium, $schema: undefined, units: [fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))], experiments: medium.experiments.map((e: { trials: number }) => ({ ...e, trials: 10 * e.trials })) }));
    const out = join(root, 'killed');
    const { code } = await jwsimInterrupted('SIGKILL', checkpointHas(out, 1), 'nightly', longer, '--baseline', baseline, '--history', history, '--out', out, '--threads', '1');
    expect(code).toBeNull(); // ended by the signal
    expect(existsSync(join(out, 'manifest.json'))).toBe(false); // killed before it finished
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(history, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(2);
    db.close();
  }, 60_000);

  it('bad inputs exit 2 before anything runs: unfinished baseline, corrupted history, bad --max-shift', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(root, 'unfinished'), { recursive: true });
    const r1 = jwsim('nightly', SMALL, '--baseline', join(root, 'unfinished'), '--history', history);
    expect(r1.status).toBe(2);
    expect(r1.stderr).toMatch(/not a finished run folder/);
    const bad = join(root, 'bad.sqlite');
    writeFileSync(bad, 'garbage'.repeat(200));
    const r2 = jwsim('nightly', SMALL, '--baseline', baseline, '--history', bad);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/bad\.sqlite: the history file is corrupted/);
    const r3 = jwsim('nightly', SMALL, '--baseline', baseline, '--max-shift', '-1');
    expect(r3.status).toBe(2);
    expect(r3.stderr).toMatch(/--max-shift/);
  });
});

describe('jwsim costs and jwsim report: command line', () => {
  it('costs --json on a small roster gives a suggested TV with an interval per unit', async () => {
    const { writeFileSync } = await import('node:fs');
    const sample = JSON.parse(readFileSync(fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url)), 'utf8'));
    // Five units: with an odd number the price curve passes through one of them (the median residual).
    const keep = ['cega.wyvern', 'jovian.pathfinder', 'cega.fury', 'cega.uller', 'venus.ryu'];
    const file = join(root, 'five.json');
    writeFileSync(file, JSON.stringify({ ...sample, $schema: undefined, units: sample.units.filter((u: { id: string }) => keep.includes(u.id)) }));
    const r = jwsim('costs', '--units', file, '--range', '3', '--threads', '1', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.units.map((u: { id: string }) => u.id).sort()).toEqual([...keep].sort());
    for (const u of j.units) {
      for (const k of ['value', 'low', 'high']) expect(Number.isFinite(u.suggested[k]), `${u.id} ${k}`).toBe(true);
      expect(u.suggested.low).toBeLessThanOrEqual(u.suggested.high);
      expect(u.misfit).toBeGreaterThanOrEqual(0);
    }
    expect(j.placeholders.length).toBeGreaterThan(0);
    // The text names the model's fit and the unit the curve passes through.
    const text = jwsim('costs', '--units', file, '--range', '3', '--threads', '1').stdout;
    expect(text).toMatch(/\nModel fit: a unit's duel scores differ from what the fitted strengths predict by \d\.\d{3} /);
    const anchor = j.units.find((u: { tv: number; suggested: { value: number } }) => Math.abs(u.suggested.value - u.tv) < 1e-9);
    expect(anchor).toBeDefined();
    expect(text).toContain(`${anchor.id}: the price curve passes through it`);
  });

  for (const [name, args, pattern] of [
    ['costs: unknown --stat unit', ['costs', '--stat', 'nobody', '--threads', '0'], /--stat: unknown unit "nobody"/],
    ['costs: bad --range', ['costs', '--range', 'far'], /--range/],
    ['costs: --trials below one chunk', ['costs', '--trials', '100'], /--trials.*8192/],
    ['report: a folder that is not a run', ['report', '/nonexistent-folder'], /no such run folder/],
    ['report: a file instead of a folder', ['report', fileURLToPath(new URL('../../README.md', import.meta.url))], /README\.md: a file, not a run folder; give the folder jwsim run, merge or nightly wrote/],
  ] as Array<[string, string[], RegExp]>) {
    it(`${name}: exit 2`, () => {
      const r = jwsim(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(pattern);
    });
  }
});

describe('review fixes', () => {
  it('duel: where A stands changes the result (B turns its front, side or rear to A)', () => {
    const rate = (aspect: string) => JSON.parse(jwsim('duel', 'jovian.alexander', 'jovian.valiant', '--range', '5', '--aspect', aspect, '--trials', '4000', '--json').stdout).a.win_rate;
    const [front, rear] = [rate('front'), rate('rear')];
    expect(rear).toBeGreaterThan(front + 0.05);
  });

  it('batch: an explosive expansion, a self duel and duplicate units are refused at load, before anything is written', async () => {
    const { writeFileSync } = await import('node:fs');
    const roster = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
    const ids = Array.from({ length: 200 }, (_, i) => `u${i}`);
    const file = join(root, 'explosive.json');
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [{ id: 'x', kind: 'attack', attacker: ids, weapon: 'a', target: ids, range: 3 }] }));
    const r = jwsim('run', file, '--out', join(root, 'never'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/expands to 40000 engagements.*at most 20000/);
    expect(existsSync(join(root, 'never'))).toBe(false);
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [{ id: 'x', kind: 'duel', matchups: [['cega.wyvern', 'cega.wyvern']], range: 3 }] }));
    const r2 = jwsim('run', file, '--out', join(root, 'never'));
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/matchups\[0\]: a unit cannot duel itself/);
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [{ id: 'y', kind: 'duel', units: ['cega.fury', 'cega.fury'], range: 3 }] }));
    const r3 = jwsim('run', file, '--out', join(root, 'never'));
    expect(r3.status).toBe(2);
    expect(r3.stderr).toMatch(/experiments\[0\]\.units: items .* are the same/);
    expect(existsSync(join(root, 'never'))).toBe(false);
  });

  it('batch: settings that would be ignored are refused (matchups beside units, trials beside precision)', () => {
    const roster = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
    const file = join(root, 'ignored.json');
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [{ id: 'd', kind: 'duel', units: 'all', matchups: [['cega.fury', 'cega.uller']], range: 3 }] }));
    const r = jwsim('run', file, '--out', join(root, 'never-ignored'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('experiments[0]: give either "matchups" or "units" (a matrix), not both');
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [{ id: 'd', kind: 'duel', matchups: [['cega.fury', 'cega.uller']], range: 3, trials: 200, precision: { half_width: 0.05, max_trials: 4000 } }] }));
    const r2 = jwsim('run', file, '--out', join(root, 'never-ignored'));
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain('experiments[0]: give either "trials" or "precision" (its max_trials caps the run), not both');
    expect(existsSync(join(root, 'never-ignored'))).toBe(false);
    const both = jwsim('units', '--units', roster, '--check', roster);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--units: has no effect with --check');
  });

  it('batch: every engagement that cannot run is reported at once, before any folder is made', async () => {
    const { writeFileSync } = await import('node:fs');
    const roster = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
    const file = join(root, 'cannot.json');
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], experiments: [
      { id: 'beam', kind: 'attack', attacker: 'cega.wyvern', weapon: 'Beam Projector', target: 'jovian.alexander', range: 3 },
      { id: 'nope', kind: 'attack', attacker: 'cega.wyvern', weapon: 'Nope', target: 'jovian.alexander', range: 3 },
    ] }));
    const r = jwsim('run', file, '--out', join(root, 'cannot-out'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/2 engagements cannot run/);
    expect(r.stderr).toMatch(/beam\/cega\.wyvern\/jovian\.alexander.*no AC rating/);
    expect(r.stderr).toMatch(/no weapon line "Nope"/);
    expect(existsSync(join(root, 'cannot-out'))).toBe(false);
  });

  it('--out naming a file, and --seed without --trials on attack, are clear errors', async () => {
    const { writeFileSync } = await import('node:fs');
    const f = join(root, 'a-file');
    writeFileSync(f, 'x');
    const r = jwsim('run', SMALL, '--out', f);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/is a file, not a folder/);
    const a = jwsim('attack', '--attacker', 'cega.wyvern', '--weapon', 'Mass Driver', '--target', 'jovian.alexander', '--range', '5', '--seed', '3');
    expect(a.status).toBe(2);
    expect(a.stderr).toMatch(/--seed: only used with --trials/);
  });

  it('merge refuses shards made from different unit files', async () => {
    const { cpSync, readFileSync: read, writeFileSync } = await import('node:fs');
    const dir = join(root, 'mixed');
    cpSync(join(fileURLToPath(new URL('../fixtures/batches', import.meta.url))), join(dir, 'batches'), { recursive: true });
    cpSync(fileURLToPath(new URL('../../scenarios', import.meta.url)), join(dir, 'scenarios'), { recursive: true });
    // The copied batch refers to ../../../scenarios/units: lay the copy out the same way.
    const batch = join(dir, 'a', 'b', 'small.json');
    cpSync(join(dir, 'batches', 'small.json'), batch);
    writeFileSync(batch, read(batch, 'utf8').replace('../../../scenarios/units/sample-roster.json', join(dir, 'scenarios', 'units', 'sample-roster.json')));
    expect(jwsim('run', batch, '--shard', '0/2', '--out', join(dir, 's0'), '--threads', '0').status).toBe(0);
    const units = join(dir, 'scenarios', 'units', 'sample-roster.json');
    const u = JSON.parse(read(units, 'utf8'));
    u.description = 'edited';
    writeFileSync(units, JSON.stringify(u));
    expect(jwsim('run', batch, '--shard', '1/2', '--out', join(dir, 's1'), '--threads', '0').status).toBe(0);
    const m = jwsim('merge', join(dir, 's0'), join(dir, 's1'), '--out', join(dir, 'merged'));
    expect(m.status).toBe(2);
    expect(m.stderr).toMatch(/made from different inputs/);
  });

  it('nightly: a baseline sharing no engagement with the batch is refused before running', async () => {
    const { writeFileSync } = await import('node:fs');
    const other = join(root, 'other-baseline');
    const otherBatch = join(root, 'other-batch.json');
    writeFileSync(otherBatch, JSON.stringify({ format: 'jwsim-batch/1', units: [fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))], experiments: [{ id: 'elsewhere', kind: 'duel', matchups: [['cega.fury', 'cega.uller']], range: 3, trials: 8192 }] }));
    expect(jwsim('run', otherBatch, '--out', other, '--threads', '2', '--no-report').status).toBe(0);
    const r = jwsim('nightly', SMALL, '--baseline', other, '--history', join(root, 'h2.sqlite'), '--out', join(root, 'not-run'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/shares no engagement and variant/);
    expect(existsSync(join(root, 'not-run'))).toBe(false);
  }, 60_000);
  it('a duel in which neither side can fire runs (a matrix may hold such pairs) but is said, on stderr and in the results', () => {
    const { dir, file } = batchIn('silent', {
      variants: [{ name: 'old', rules: '1.2.1' }, { name: 'new', rules: '1.2.2' }],
      experiments: [{ id: 'm', kind: 'duel', units: ['jovian.alexander', 'unknown.poseidon', 'cega.wyvern'], pairs: 'ordered', range: 16, trials: 200 }],
    });
    const r = jwsim('run', file, '--out', join(dir, 'out'), '--threads', '1', '--no-report');
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split('\n');
    // At 16 in the Wyvern pairs are out of reach both ways (15 in at most); the Poseidon reaches the Alexander (18 in).
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('jwsim: warning: m/jovian.alexander/cega.wyvern (variants old, new): neither side can fire at 16 in, so every duel is a draw: Alexander reaches Wyvern only up to 12 in (AS range at Sensors 3); Wyvern reaches Alexander only up to 12 in (AC range at Sensors 2)');
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    for (const e of results.experiments) {
      const silent = e.engagement.includes('cega.wyvern');
      expect(e.warnings !== undefined).toBe(silent);
      if (silent) expect(e.metrics.draw_rate.value).toBe(1);
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'));
    expect(manifest.warnings).toHaveLength(4);
  });
  it('options that cannot change a batch (an overlay\'s for other kinds, or idle under the variant\'s rules) are named, not silently recorded', () => {
    const { dir, file } = batchIn('idle-options', {
      variants: [{ name: 'house', rules: '1.2.1', overlay: 'house.json' }, { name: 'reroll', rules: '1.2.1', options: { reroll_policy: 'BELOW_T' } }],
      experiments: [{ id: 'd', kind: 'duel', units: ['cega.wyvern', 'cega.fury'], range: 3, trials: 100 }],
    });
    writeFileSync(join(dir, 'house.json'), JSON.stringify({ format: 'jwsim-overlay/1', rules: '1.2.1', options: { crippled_counts_as_lost: 'YES', negative_macro_mode: 'COUNT' } }));
    const r = jwsim('run', file, '--out', join(dir, 'out'), '--threads', '0', '--no-report');
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      'jwsim: warning: variant house: crippled_counts_as_lost=YES is without effect: not read by any experiment of this batch, all of kind duel',
      'jwsim: warning: variant reroll: reroll_policy=BELOW_T is without effect: these rules let a reroll replace only [N], which every policy rerolls',
    ]);
    const manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'));
    // negative_macro_mode is read by duels: it has effect and is not listed.
    expect(manifest.variants[0].options_without_effect).toEqual([{ option: 'crippled_counts_as_lost=YES', why: 'not read by any experiment of this batch, all of kind duel' }]);
    expect(manifest.variants[1].options_without_effect.map((x: { option: string }) => x.option)).toEqual(['reroll_policy=BELOW_T']);
    expect(manifest.warnings).toHaveLength(2);
    // The overlay's own options are recorded with it, and the report's header says what it sets.
    expect(manifest.variants[0].options).toEqual([]);
    expect(manifest.variants[0].overlay.options).toEqual(['crippled_counts_as_lost=YES', 'negative_macro_mode=COUNT']);
    expect(manifest.variants[1].overlay).toBeNull();
    expect(jwsim('report', join(dir, 'out')).status).toBe(0);
    const html = readFileSync(join(dir, 'out', 'index.html'), 'utf8');
    expect(html).toContain('options: none of its own; overlay ');
    expect(html).toContain('; sets crippled_counts_as_lost=YES, negative_macro_mode=COUNT)');
    expect(html).toContain('rules v1.2.1; options: reroll_policy=BELOW_T;');
  });
  it('an engagement that only some variants can run names them and says what to do', () => {
    const scenario = fileURLToPath(new URL('../../scenarios/battles/corner-escalation.json', import.meta.url));
    const { dir, file } = batchIn('some-variants', {
      variants: [{ name: 'old', rules: '1.2.1' }, { name: 'new', rules: '1.2.2' }],
      experiments: [{ id: 'esc', kind: 'battle', scenario, trials: 2 }],
    });
    const r = jwsim('run', file, '--out', join(dir, 'out'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Escalating Deployment is not in Jovian Wars rules v1.2.1');
    expect(r.stderr).toContain('(every experiment runs under every variant of a batch; this one runs under new: put it in a batch of its own without old)\n');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
