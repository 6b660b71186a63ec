// jwsim merge DIR... --out DIR: combine shard results into the result files of the whole run.
import { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { makeFolder } from '../io/folders.js';
import { renderReport } from '../report/report.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../report/runOutput.js';
import { loadBatch } from '../scenarios/batch.js';
import { mergePartials, readPartial } from '../sim/shards.js';
import { pathArg } from './args.js';
import { noteResultsWritten } from './run.js';

export function mergeCommand(): Command {
  return new Command('merge')
    .description('Merge the run folders of all shards (jwsim run --shard K/N) into one run folder, identical to an unsharded run.')
    .argument('<dirs...>', 'shard run folders (each holds partial.json)')
    .requiredOption('--out <dir>', 'run folder to write', pathArg)
    .option('--no-report', 'skip the charts and index.html')
    .action(async (dirs: string[], opts: { out: string; report: boolean }) => {
      const started = Date.now();
      const partials = dirs.map((d) => {
        const file = join(d, 'partial.json');
        if (!existsSync(d)) throw new UserError(`${d}: no such folder; give the shard folders of jwsim run --shard K/N`);
        if (!statSync(d).isDirectory()) throw new UserError(`${d}: is a file, not a shard folder; give the shard folders of jwsim run --shard K/N`);
        if (!existsSync(file)) throw new UserError(`${d}: no partial.json here; is it a finished shard folder?`);
        return { file, partial: readPartial(file) };
      });
      const batchFile = partials[0].partial.batch.path;
      if (!existsSync(batchFile)) throw new UserError(`${partials[0].file}: batch.path: the batch the shards were run from, ${batchFile}, is gone; merge needs it (restore it at that path)`);
      const batch = loadBatch(batchFile, partials[0].partial.seed);
      const slots = mergePartials(batch, partials);
      const out = resolve(opts.out);
      if (existsSync(join(out, 'partial.json'))) throw new UserError(`--out: ${out} is a shard folder; merge into a new folder`);
      if (existsSync(join(out, 'manifest.json'))) throw new UserError(`--out: ${out} already holds a finished run; choose another folder`);
      makeFolder(out);
      const facts = { threads: 0, shard: null, wallSeconds: (Date.now() - started) / 1000, commandLine: process.argv.slice(2), resumed: false };
      writeAtomically(out, [
        ['results.csv', resultsCsv(batch, slots)],
        ['results.json', resultsJson(batch, slots)],
        ['manifest.json', manifest(batch, slots, facts)],
      ]);
      noteResultsWritten(out);
      process.stdout.write(`merged ${partials.length} shards (seed ${batch.seed}): ${out}\n`);
      if (opts.report) process.stdout.write(`report: ${await renderReport(out)}\n`);
    });
}
