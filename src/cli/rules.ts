// jwsim rules: the rules versions jwsim models and the interpretation options.
import { Command } from 'commander';
import { INTERPRETATIONS } from '../rules/interpretations.js';
import { RULES_VERSIONS, DEFAULT_RULES_VERSION } from '../rules/registry.js';
import { formatTable } from './format.js';

export function rulesCommand(): Command {
  return new Command('rules')
    .description('List the rules versions, what each changes, and every interpretation option with its default and values.')
    .option('--json', 'print one JSON object on stdout', false)
    .action((opts: { json: boolean }) => {
      process.stdout.write(opts.json ? rulesAsJson() : rulesAsText());
    });
}

function rulesAsJson(): string {
  const versions = Object.values(RULES_VERSIONS).map((v) => ({
    id: v.id,
    title: v.title,
    parent: v.parent,
    changes: v.changes.map((c) => ({ summary: c.summary, source: c.source })),
  }));
  return JSON.stringify({ defaultVersion: DEFAULT_RULES_VERSION, versions, options: INTERPRETATIONS }, null, 2) + '\n';
}

function rulesAsText(): string {
  const lines = ['Rules versions (--rules):'];
  for (const v of Object.values(RULES_VERSIONS)) {
    lines.push(`  ${v.id}${v.id === DEFAULT_RULES_VERSION ? ' (default)' : ''}: ${v.title}`);
    for (const c of v.changes) lines.push(`    - ${c.summary} [${c.source}]`);
  }
  lines.push('', 'Interpretation options (--rule NAME=VALUE):');
  lines.push(...formatTable(['name', 'default', 'values', 'rules gap'], INTERPRETATIONS.map((s) => [s.name, s.default, s.values.join('|'), s.ids.join(',')])).map((l) => '  ' + l));
  lines.push('');
  for (const s of INTERPRETATIONS) lines.push(`  ${s.name}: ${s.summary}`);
  return lines.join('\n') + '\n';
}
