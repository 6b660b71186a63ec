// Damaged inputs of jwsim report, nightly and merge from the command line: a hand-edited
// results.json or manifest.json, a report target of the wrong kind, a damaged baseline, a
// damaged shard partial.json. Each exits 2 with one clear message naming the file and the
// field, and leaves nothing behind (no charts, no index.html, no output folder, no history).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damagedCopy, type Json } from '../helpers/runFolders.js';
import { jwsim } from '../helpers/cli.js';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-cli-inputs-'));
const run = join(root, 'run');
const shards = [join(root, 'shard0'), join(root, 'shard1')];
const RUN_FILES = ['manifest.json', 'results.csv', 'results.json'];

beforeAll(() => {
  for (const [args, dir] of [[[], run], [['--shard', '0/2'], shards[0]], [['--shard', '1/2'], shards[1]]] as Array<[string[], string]>) {
    const r = jwsim('run', SMALL, '--out', dir, '--threads', '1', '--no-report', ...args);
    if (r.status !== 0) throw new Error(`jwsim run failed: ${r.stderr}`);
  }
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the run folder with results.json (r) and manifest.json (m) edited. */
let copies = 0;
const damagedRun = (edit: (r: Json, m: Json) => void): string => {
  copies++;
  return damagedCopy(run, root, edit);
};

const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

describe('jwsim report: a damaged run folder', () => {
  const cases: Array<[string, (r: Json, m: Json) => void, (dir: string) => string[]]> = [
    ['a metric value "high"', (r) => (r.experiments[0].metrics.a_win_rate.value = 'high'), (d) => [`${d}/results.json: experiments[0].metrics.a_win_rate.value: "high" must be number`]],
    ['experiments deleted', (r) => delete r.experiments, (d) => [`${d}/results.json: (top level): missing required field "experiments"`]],
    ['an empty experiments list', (r) => (r.experiments = []), (d) => [`${d}/results.json: experiments: the list is empty; a finished run has at least one engagement`]],
    ['an unknown variant', (r) => (r.experiments[5].variant = 'v9'), (d) => [`${d}/results.json: experiments[5].variant: "v9" is not one of the run's variants ("v1.2.1", "v1.2.2")`]],
    ['a manifest of another format', (_r, m) => (m.format = 'jwsim-manifest/9'), (d) => [`${d}/manifest.json: format: "jwsim-manifest/9" is not "jwsim-manifest/1": not a jwsim run manifest`]],
    [
      'a metric set to {}',
      (r) => (r.experiments[0].metrics.a_win_rate = {}),
      (d) => [`${d}: damaged run folder: 3 problems`, ...['value', 'low', 'high'].map((f) => `  ${d}/results.json: experiments[0].metrics.a_win_rate: missing required field "${f}"`)],
    ],
  ];
  for (const [name, edit, lines] of cases) {
    it(`${name}: exit 2, the file and field named, nothing written`, () => {
      const dir = damagedRun(edit);
      const r = jwsim('report', dir);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const [first, ...rest] = lines(dir);
      expect(r.stderr).toBe([`jwsim: error: ${first}`, ...rest].join('\n') + '\n');
      expect(files(dir)).toEqual(RUN_FILES);
    });
  }

  it('index.html a folder, charts a file: exit 2 before anything is written', () => {
    const a = damagedRun(() => {});
    mkdirSync(join(a, 'index.html'));
    const ra = jwsim('report', a);
    expect(ra.status).toBe(2);
    expect(ra.stderr).toBe(`jwsim: error: ${a}/index.html: is a folder; the report writes its page there: move or remove that folder, then run jwsim report again\n`);
    expect(files(a)).toEqual(['index.html', ...RUN_FILES]);
    const b = damagedRun(() => {});
    writeFileSync(join(b, 'charts'), 'mine\n');
    const rb = jwsim('report', b);
    expect(rb.status).toBe(2);
    expect(rb.stderr).toBe(`jwsim: error: ${b}/charts: is a file, not a folder; the report writes its chart files there: move or remove that file, then run jwsim report again\n`);
    expect(files(b)).toEqual(['charts', ...RUN_FILES]);
    expect(readFileSync(join(b, 'charts'), 'utf8')).toBe('mine\n');
  });
});

describe('jwsim nightly: a damaged baseline is bad input, checked before anything runs', () => {
  const cases: Array<[string, (r: Json) => void, (dir: string) => string]> = [
    ['no experiments', (r) => delete r.experiments, (d) => `${d}/results.json: (top level): missing required field "experiments"`],
    ['a metric value "high"', (r) => (r.experiments[0].metrics.a_win_rate.value = 'high'), (d) => `${d}/results.json: experiments[0].metrics.a_win_rate.value: "high" must be number`],
    ['a metric value -5', (r) => (r.experiments[0].metrics.a_win_rate.value = -5), (d) => `${d}/results.json: experiments[0].metrics.a_win_rate.value: -5 must be >= 0`],
    ['a metric set to {}', (r) => (r.experiments[0].metrics.mean_rounds = {}), (d) => `${d}: damaged run folder: 3 problems`],
  ];
  for (const [name, edit, message] of cases) {
    it(`${name}: exit 2, no run folder, no history`, () => {
      const baseline = damagedRun(edit);
      const out = join(root, `nightly-out-${copies}`);
      const history = join(root, `history-${copies}.sqlite`);
      const r = jwsim('nightly', SMALL, '--baseline', baseline, '--history', history, '--out', out, '--threads', '1');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`jwsim: error: --baseline: ${message(baseline)}`);
      expect(r.stderr).not.toMatch(/gate|internal error/);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(history)).toBe(false);
      expect(files(baseline)).toEqual(RUN_FILES);
    });
  }
});

describe('jwsim merge: a damaged partial.json is refused before the output folder is made', () => {
  /** Copies of both shards, the first one's partial.json edited; returns the copies' folders. */
  function damagedShards(edit: (p: Json) => void): string[] {
    const dirs = shards.map((s, k) => join(root, `shards-${++copies}`, `shard${k}`));
    shards.forEach((s, k) => cpSync(s, dirs[k], { recursive: true }));
    const file = join(dirs[0], 'partial.json');
    const p = JSON.parse(readFileSync(file, 'utf8'));
    edit(p);
    writeFileSync(file, JSON.stringify(p));
    return dirs;
  }
  const slot0 = 'duels/cega.wyvern/jovian.pathfinder (variant v1.2.1)';
  const cases: Array<[string, (p: Json) => void, (file: string) => string]> = [
    ['a count of -50', (p) => (p.chunks['0']['0'][1] = -50), (f) => `${f}: chunks[0][0][1]: -50 must be >= 0`],
    ['a count of 1e308', (p) => (p.chunks['0']['0'][1] = 1e308), (f) => `${f}: chunks[0][0][1]: 1e+308 must be <= 9007199254740991`],
    ['a count that is not whole', (p) => (p.chunks['0']['0'][4] = 2.5), (f) => `${f}: chunks[0][0][4]: 2.5 must be integer`],
    ['a chunk beyond the slot\'s range', (p) => (p.chunks['0']['999'] = p.chunks['0']['0']), (f) => `${f}: chunks[0][999]: chunk 999 is not one of this shard's chunks of ${slot0}: it has chunks 0..2, and shard 0/2 runs those k with k % 2 = 0`],
    ['a chunk of the other shard', (p) => (p.chunks['0']['1'] = p.chunks['0']['0']), (f) => `${f}: chunks[0][1]: chunk 1 is not one of this shard's chunks of ${slot0}: it has chunks 0..2, and shard 0/2 runs those k with k % 2 = 0`],
    ['a slot the batch does not have', (p) => (p.chunks['999'] = { 0: p.chunks['0']['0'] }), (f) => `${f}: chunks[999]: there is no slot 999; the batch has 24 (engagement x variant, numbered 0..23)`],
    ['trials that do not match the chunk', (p) => (p.chunks['0']['0'][0] = 100), (f) => `${f}: chunks[0][0][0]: 100 trials; chunk 0 of ${slot0} has 8192`],
    ['a shard index not below the count', (p) => (p.shard.index = 2), (f) => `${f}: shard.index: 2 is not below shard.count 2 (shard K/N has 0 <= K < N)`],
  ];
  for (const [name, edit, message] of cases) {
    it(`${name}: exit 2, the file and field named, no output folder`, () => {
      const dirs = damagedShards(edit);
      const out = join(root, `merged-${copies}`);
      const r = jwsim('merge', ...dirs, '--out', out);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`jwsim: error: ${message(join(dirs[0], 'partial.json'))}\n`);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('outcome counts that disagree with the trials: every problem listed', () => {
    const dirs = damagedShards((p) => (p.chunks['0']['0'][1] += 10));
    const out = join(root, `merged-${copies}`);
    const r = jwsim('merge', ...dirs, '--out', out);
    const f = join(dirs[0], 'partial.json');
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')).toEqual([
      "jwsim: error: the shards' partial.json files: 2 problems",
      expect.stringMatching(new RegExp(`^  ${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: chunks\\[0\\]\\[0\\]\\[1\\]: A wins \\d+ \\+ B wins \\d+ \\+ draws \\d+ = 8202; every duel ends in exactly one of them \\(the chunk has 8192 trials\\)$`)),
      expect.stringMatching(/: chunks\[0\]\[0\]\[10\]: the rounds histogram counts \d+ decided duels, the wins \d+ \(the chunk has 8192 trials\)$/),
      '',
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('undamaged copies still merge', () => {
    const dirs = damagedShards(() => {});
    const out = join(root, `merged-${copies}`);
    const r = jwsim('merge', ...dirs, '--out', out, '--no-report');
    expect(r.status).toBe(0);
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(readFileSync(join(run, 'results.csv'), 'utf8'));
  });

  it('a missing folder, a file or a shard folder as --out are each named for what they are', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const cases: Array<[string[], RegExp]> = [
      [[join(root, 'no-such'), shards[1], '--out', join(root, 'm1')], /no-such: no such folder; give the shard folders/],
      [[file, shards[1], '--out', join(root, 'm2')], /a-file: is a file, not a shard folder/],
      [[...shards, '--out', shards[0]], /--out: .*shard0 is a shard folder; merge into a new folder/],
      [[...shards, '--out', ''], /--out <dir>' argument '' is invalid\. must not be empty/],
    ];
    for (const [args, message] of cases) {
      const r = jwsim('merge', ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(join(root, 'm1'))).toBe(false);
    expect(existsSync(join(root, 'm2'))).toBe(false);
  });
});
