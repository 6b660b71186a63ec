// jwsim rules: the rules versions jwsim models, the interpretation options, and (with
// --tables) the data tables of one version, which an overlay file can patch.
import { Command } from 'commander';
import { INTERPRETATIONS, OPTION_READERS, idleUnder, type InterpretationOptions, type InterpretationSpec, type OptionReader } from '../rules/interpretations.js';
import { RULES_VERSIONS, DEFAULT_RULES_VERSION } from '../rules/registry.js';
import type { RulesVersion } from '../rules/types.js';
import { formatTable } from './format.js';
import { addRulesOptions, rulesContext, rulesJson, type RulesOpts } from './rulesContext.js';

interface RulesCmdOpts extends RulesOpts {
  json: boolean;
  tables: boolean;
}

export function rulesCommand(): Command {
  const cmd = new Command('rules')
    .description('List the rules versions, what each changes, and every interpretation option; --tables prints the data tables of one version.')
    .option('--tables', "print the chosen version's data tables (the names an overlay's \"tables\" uses) and which are placeholders", false);
  addRulesOptions(cmd);
  return cmd.option('--json', 'print one JSON object on stdout', false).action((opts: RulesCmdOpts) => {
    const ctx = rulesContext(opts); // bad --rules, --rule or --rules-overlay is an error here too
    process.stdout.write(opts.tables ? tablesText(opts) : opts.json ? rulesAsJson(ctx.options, ctx.version) : rulesAsText(ctx.options, ctx.version));
  });
}

function tablesText(opts: RulesCmdOpts): string {
  const ctx = rulesContext(opts);
  const data = { dice: ctx.version.data.dice, combat: ctx.version.data.combat };
  if (opts.json) return JSON.stringify({ ...rulesJson(ctx), tables: data, placeholders: ctx.version.data.placeholders }, null, 2) + '\n';
  const marks = Object.entries(ctx.version.data.placeholders);
  return (
    [
      `Data tables of rules v${ctx.version.id}${ctx.overlay ? ` with overlay ${ctx.overlay.path}` : ''} (an overlay's "tables" uses these names):`,
      `Options in force: ${ctx.changed.length ? ctx.changed.join(', ') : 'all defaults'} (they select readings; the tables below are data)`,
      JSON.stringify(data, null, 2),
      '',
      marks.length ? 'Placeholder data (invented or chosen where the rules text is missing):' : 'No placeholder data.',
      ...marks.map(([path, why]) => `  ${path}: ${why}`),
    ].join('\n') + '\n'
  );
}

/** The option values in force (the defaults, changed by --rule and --rules-overlay). */
type InForce = Readonly<Record<string, string>>;

function rulesAsJson(inForce: InForce, chosen: RulesVersion): string {
  const versions = Object.values(RULES_VERSIONS).map((v) => ({
    id: v.id,
    title: v.title,
    parent: v.parent,
    changes: v.changes.map((c) => ({ summary: c.summary, source: c.source })),
  }));
  const withoutEffect = Object.fromEntries(INTERPRETATIONS.map((s) => [s.name, idleVersions(s.name, inForce, chosen)]).filter(([, v]) => v.length));
  return JSON.stringify({ defaultVersion: DEFAULT_RULES_VERSION, versions, options: INTERPRETATIONS, inForce, withoutEffect }, null, 2) + '\n';
}

/**
 * The rules versions under which option `name` can change nothing (with the options in force),
 * and why; the chosen version (`--rules`) is judged with its data as an overlay patched it.
 */
function idleVersions(name: string, inForce: InForce, chosen: RulesVersion): Array<{ version: string; why: string }> {
  return Object.values(RULES_VERSIONS).flatMap((v) => {
    const why = idleUnder(name, v.id === chosen.id ? chosen.data : v.data, inForce as InterpretationOptions);
    return why ? [{ version: v.id, why }] : [];
  });
}

/** An option's scope in a table cell: "all", or the commands that read it. */
function readBy(scope: readonly OptionReader[]): string {
  return scope.length === OPTION_READERS.length ? 'all' : scope.length === 0 ? 'none' : scope.join(',');
}

function rulesAsText(inForce: InForce, chosen: RulesVersion): string {
  const lines = ['Rules versions (--rules):'];
  for (const v of Object.values(RULES_VERSIONS)) {
    lines.push(`  ${v.id}${v.id === DEFAULT_RULES_VERSION ? ' (default)' : ''}: ${v.title}`);
    for (const c of v.changes) lines.push(`    - ${c.summary} [${c.source}]`);
  }
  lines.push('', 'Interpretation options (--rule NAME=VALUE):');
  // The value in force, starred where --rule or an overlay changed it.
  lines.push(
    ...formatTable(
      ['name', 'default', 'in force', 'values', 'rules gap', 'read by'],
      INTERPRETATIONS.map((s) => [s.name, s.default, inForce[s.name] === s.default ? s.default : `${inForce[s.name]} *`, s.values.join('|'), s.ids.join(','), readBy(s.scope)]),
    ).map((l) => '  ' + l),
  );
  lines.push('', '  read by: the commands (and batch experiment kinds) that read the option; the others refuse it in --rule and in batch variants.', '');
  for (const s of INTERPRETATIONS as readonly InterpretationSpec[]) {
    const idle = idleVersions(s.name, inForce, chosen).map((x) => `; without effect under v${x.version}: ${x.why}`).join('');
    lines.push(`  ${s.name}: ${s.summary}${s.scope.length ? '' : ` (read by no command at present: ${s.unread})`}${idle}`);
  }
  lines.push('', 'Data tables: jwsim rules --tables [--rules VERSION] shows them; an overlay file (--rules-overlay) patches them.');
  return lines.join('\n') + '\n';
}
