// --rules and --rule: the rules version and interpretation options a command runs under.
import type { Command } from 'commander';
import type { DiceConfig } from '../dice/config.js';
import { compileDiceConfig } from '../rules/compile.js';
import { applyRuleAssignments, changedOptions, type InterpretationOptions } from '../rules/interpretations.js';
import { DEFAULT_RULES_VERSION, RULES_VERSION_IDS, getRulesVersion } from '../rules/registry.js';
import type { RulesVersion } from '../rules/types.js';
import { collectString } from './args.js';

export interface RulesContext {
  version: RulesVersion;
  options: InterpretationOptions;
  /** Options that differ from their defaults, NAME=VALUE. */
  changed: string[];
  dice: DiceConfig;
}

export function addRulesOptions(cmd: Command): Command {
  return cmd
    .option('--rules <version>', `rules version: ${RULES_VERSION_IDS.join(' or ')}`, DEFAULT_RULES_VERSION)
    .option('--rule <name=value>', 'override one interpretation option (repeatable); `jwsim rules` lists them', collectString, [] as string[]);
}

export function rulesContext(opts: { rules: string; rule: string[] }): RulesContext {
  const version = getRulesVersion(opts.rules);
  const options = applyRuleAssignments(opts.rule);
  return { version, options, changed: changedOptions(options), dice: compileDiceConfig(version, options) };
}

/** The header lines every human-readable output starts with. */
export function rulesHeader(ctx: RulesContext): string[] {
  const lines = [`rules: v${ctx.version.id} (${ctx.version.title})`];
  for (const c of ctx.version.changes) lines.push(`  change from v${ctx.version.parent}: ${c.summary}`);
  lines.push(`options: ${ctx.changed.length ? ctx.changed.join(', ') : 'all defaults'} (jwsim rules lists them)`);
  return lines;
}

/** The same facts for --json outputs. */
export function rulesJson(ctx: RulesContext) {
  return {
    rules: ctx.version.id,
    rulesTitle: ctx.version.title,
    rulesChanges: ctx.version.changes.map((c) => c.summary),
    options: ctx.options,
  };
}
