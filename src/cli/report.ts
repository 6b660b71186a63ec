// jwsim report DIR: (re)render the charts and index.html of a finished run folder.
import { Command } from 'commander';
import { resolve } from 'node:path';
import { renderReport } from '../report/report.js';

export function reportCommand(): Command {
  return new Command('report')
    .description('Render the report of a finished run folder: charts (Vega-Lite, SVG, PNG) and a self-contained index.html.')
    .argument('<dir>', 'run folder (from jwsim run, merge or nightly; a nightly run keeps its gate section and trend charts)')
    .action(async (dir: string) => {
      process.stdout.write(`${await renderReport(resolve(dir))}\n`);
    });
}
