// The batch runner: result files identical whatever the threads, shards or interruptions;
// precision targets stop where they should; bad batches fail before anything runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resultsCsv, resultsJson } from '../../src/report/runOutput.js';
import { loadBatch } from '../../src/scenarios/batch.js';
import { Checkpoint } from '../../src/sim/checkpoint.js';
import { halfWidth } from '../../src/sim/counts.js';
import { ChunkFailed, Interrupted, runBatch } from '../../src/sim/runner.js';
import { mergePartials, partialJson, readPartial } from '../../src/sim/shards.js';
import { CHUNK_TRIALS } from '../../src/sim/slots.js';
import { ChunkWorker } from '../../src/sim/worker.js';
import { UserError } from '../../src/errors.js';
import { writeFileSync } from 'node:fs';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'jwsim-run-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const batch = loadBatch(SMALL);
async function files(threads: number) {
  const r = await runBatch(batch, { threads, shard: null, checkpoint: null });
  return { csv: resultsCsv(batch, r.slots), json: resultsJson(batch, r.slots), slots: r.slots };
}

describe('jwsim run', () => {
  it('--threads 0, 1 and 2 give byte-identical result files', async () => {
    const [t0, t1, t2] = [await files(0), await files(1), await files(2)];
    expect(t1.csv).toBe(t0.csv);
    expect(t2.csv).toBe(t0.csv);
    expect(t2.json).toBe(t0.json);
    expect(t0.csv.split('\n')[0]).toBe('experiment,engagement,kind,variant,rules,metric,value,low,high,trials,seed');
  });

  it('a precision target stops at the first chunk where the interval is narrow enough, never before min_trials', async () => {
    const { slots } = await files(2);
    for (const s of slots.filter((x) => x.cell.experiment === 'precise')) {
      const trials = s.trials();
      expect(trials % CHUNK_TRIALS).toBe(0);
      const m = s.metrics().find((x) => x.name === 'a_win_rate')!;
      expect(halfWidth(m)).toBeLessThanOrEqual(0.006);
      expect(trials).toBeGreaterThanOrEqual(8192);
      expect(trials).toBeLessThan(200000);
      // One chunk fewer would not have been enough: replay the shorter prefix.
      const shorter = await runBatch({ ...batch, cells: [{ ...s.cell, precision: null, trials: trials - CHUNK_TRIALS }] }, { threads: 0, shard: null, checkpoint: null });
      expect(trials).toBeGreaterThan(CHUNK_TRIALS); // this target needs several chunks
      if (trials - CHUNK_TRIALS >= 8192) {
        const m2 = shorter.slots[s.variant].metrics().find((x) => x.name === 'a_win_rate')!;
        expect(halfWidth(m2)).toBeGreaterThan(0.006);
      }
    }
    // Fixed-trial cells ran exactly their trials; exact cells none.
    const duel = slots.find((x) => x.cell.experiment === 'duels')!;
    expect(duel.trials()).toBe(20000);
    expect(slots.find((x) => x.cell.experiment === 'md')!.engine.exact).not.toBeNull();
  });

  it('two shards merged equal the unsharded run', async () => {
    const whole = await files(1);
    const partials: Array<{ file: string; partial: ReturnType<typeof readPartial> }> = [];
    for (const index of [0, 1]) {
      const r = await runBatch(batch, { threads: index, shard: { index, count: 2 }, checkpoint: null });
      const file = join(tmp(), 'partial.json');
      writeFileSync(file, partialJson(batch, r, { index, count: 2 }));
      partials.push({ file, partial: readPartial(file) });
    }
    const merged = mergePartials(batch, partials);
    expect(resultsCsv(batch, merged)).toBe(whole.csv);
    expect(resultsJson(batch, merged)).toBe(whole.json);
    expect(() => mergePartials(batch, partials.slice(0, 1))).toThrow(/missing shards: 1\/2/);
  });

  it('an interrupted run resumes to the same result files', async () => {
    const whole = await files(0);
    const dir = tmp();
    const key = { batchSha256: batch.sha256, seed: batch.seed, shard: 'none' };
    const first = new Checkpoint(join(dir, 'checkpoint.jsonl'), key);
    first.open(false);
    const controller = new AbortController();
    const run = runBatch(batch, { threads: 2, shard: null, checkpoint: first, signal: controller.signal, onChunk: (n) => n === 5 && controller.abort() });
    await expect(run).rejects.toBeInstanceOf(Interrupted);
    const saved = readFileSync(join(dir, 'checkpoint.jsonl'), 'utf8').trim().split('\n').length - 1;
    expect(saved).toBeGreaterThanOrEqual(5);
    const again = new Checkpoint(join(dir, 'checkpoint.jsonl'), key);
    again.open(true);
    const resumed = await runBatch(batch, { threads: 1, shard: null, checkpoint: again });
    expect(resultsCsv(batch, resumed.slots)).toBe(whole.csv);
    // A checkpoint of another seed is refused.
    expect(() => new Checkpoint(join(dir, 'checkpoint.jsonl'), { ...key, seed: 'other' }).open(true)).toThrow(/different seed/);
  });

  it('a damaged checkpoint is refused on resume, naming the line; a cut-off last line is dropped', async () => {
    const dir = tmp();
    const file = join(dir, 'checkpoint.jsonl');
    const key = { batchSha256: batch.sha256, seed: batch.seed, shard: 'none' };
    const first = new Checkpoint(file, key);
    first.open(false);
    const controller = new AbortController();
    await expect(runBatch(batch, { threads: 0, shard: null, checkpoint: first, signal: controller.signal, onChunk: (n) => n === 3 && controller.abort() })).rejects.toBeInstanceOf(Interrupted);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const resume = async (text: string) => {
      writeFileSync(file, text);
      const cp = new Checkpoint(file, key);
      cp.open(true);
      return runBatch(batch, { threads: 0, shard: null, checkpoint: cp });
    };
    // An edited count (the first count after the trial count) no longer matches the line's digest.
    const edited = lines[2].replace(/^(\[\d+,\d+,\[\d+,)(\d+)/, (_, head: string, n: string) => `${head}${Number(n) + 9000}`);
    expect(edited).not.toBe(lines[2]);
    await expect(resume([lines[0], lines[1], edited, ...lines.slice(3)].join('\n') + '\n')).rejects.toThrow(/checkpoint\.jsonl: line 3: its content does not match its digest/);
    // A line that is not JSON in the middle is refused; as the last line it was cut off by a kill.
    await expect(resume([lines[0], '[0,0,[1', ...lines.slice(1)].join('\n') + '\n')).rejects.toThrow(/line 2: not a JSON line/);
    const whole = await files(0);
    const resumed = await resume([...lines, lines[1].slice(0, 20)].join('\n'));
    expect(resultsCsv(batch, resumed.slots)).toBe(whole.csv);
    // A line whose digest is right but whose chunk does not belong to this batch.
    const { createHash } = await import('node:crypto');
    const body = JSON.stringify([999, 0, [1, 2]]);
    const foreign = `${body.slice(0, -1)},"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"]`;
    await expect(resume([lines[0], foreign].join('\n') + '\n')).rejects.toThrow(/line 2: slot 999 is not an engagement of this batch/);
    // A header of another format.
    await expect(resume('{"format":"jwsim-checkpoint/1"}\n')).rejects.toThrow(/not a checkpoint of this jwsim/);
  });

  it('a chunk that throws stops the run and names the experiment', async () => {
    const spy = vi.spyOn(ChunkWorker.prototype, 'run').mockImplementation(() => {
      throw new Error('boom');
    });
    try {
      await expect(runBatch(batch, { threads: 0, shard: null, checkpoint: null })).rejects.toThrow(ChunkFailed);
      await expect(runBatch(batch, { threads: 0, shard: null, checkpoint: null })).rejects.toThrow(/experiment duels\/cega\.wyvern\/jovian\.pathfinder \(variant v1\.2\.1\) failed: boom/);
    } finally {
      spy.mockRestore();
    }
  });

  it('a bad batch fails at load, listing every problem, before anything runs', () => {
    const dir = tmp();
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'jwsim-batch/1',
        units: [join(fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url)))],
        experiments: [
          { id: 'a', kind: 'duel', matchups: [['cega.wyvern', 'nobody']], range: 3 },
          { id: 'a', kind: 'attack', attacker: 'cega.wyvern', weapon: 'x', target: 'cega.fury', range: 3, trials: 0 },
        ],
      }),
    );
    try {
      loadBatch(file);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      const all = [(e as UserError).message, ...(e as UserError).details].join('\n');
      expect(all).toMatch(/experiments\[1\]\.trials: 0 must be >= 1/);
    }
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))], experiments: [{ id: 'a', kind: 'duel', matchups: [['cega.wyvern', 'nobody']], range: 3 }, { id: 'a', kind: 'duel', units: ['cega.fury', 'cega.uller'], range: 3 }] }));
    try {
      loadBatch(file);
      throw new Error('no error');
    } catch (e) {
      const all = [(e as UserError).message, ...(e as UserError).details].join('\n');
      expect(all).toMatch(/experiments\[0\]\.matchups\[0\]\[1\]: unknown unit "nobody"/);
      expect(all).toMatch(/experiments\[1\]\.id: duplicate experiment id "a"/);
    }
  });

  it('an experiment without a kind gets that one problem, not the fields of every kind', () => {
    const file = join(tmp(), 'nokind.json');
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))], experiments: [{ id: 'x' }] }));
    expect(() => loadBatch(file)).toThrow(new UserError(`${file}: experiments[0]: missing required field "kind"`));
  });

  it('engagements x variants is bounded: every one is built and kept in memory', () => {
    const file = join(tmp(), 'wide.json');
    const roster = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
    const variants = [{ name: 'a', rules: '1.2.2' }, { name: 'b', rules: '1.2.1' }, { name: 'c', rules: '1.2.2', options: { flex_stacking: 'MAX' } }];
    // 33 full duel matrices of the 25-unit roster: 19,800 engagements (under the 20,000 cap), x 3 variants.
    const experiments = Array.from({ length: 33 }, (_, i) => ({ id: `m${i}`, kind: 'duel', units: 'all', range: 3 }));
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [roster], variants, experiments }));
    expect(() => loadBatch(file)).toThrow(`${file}: variants: 19800 engagements x 3 variants = 59400 engagement runs; at most 50000 are allowed in one batch`);
  });
});

describe('metric names', () => {
  it('the names a batch may name as a precision metric are exactly the metrics each kind reports', async () => {
    const { METRIC_NAMES } = await import('../../src/scenarios/batch.js');
    const { metricsOf, countsLength } = await import('../../src/sim/counts.js');
    for (const kind of ['attack', 'volley', 'ram', 'duel'] as const) {
      const counts = new Array<number>(countsLength(kind)).fill(1);
      expect(metricsOf(kind, counts, 10).map((m) => m.name)).toEqual(METRIC_NAMES[kind]);
    }
  });
});
