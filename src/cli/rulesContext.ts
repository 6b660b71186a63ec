// --rules, --rule and --rules-overlay: the rules version, data and interpretation options a
// command runs under.
import { Option, type Command } from 'commander';
import type { DiceConfig } from '../dice/config.js';
import { UserError } from '../errors.js';
import { compileRules, type CompiledRules } from '../rules/compile.js';
import { DEFAULT_INTERPRETATIONS, applyRuleAssignments, changedOptions, refuseOutOfScope, withoutEffect, type InterpretationOptions, type OptionReader } from '../rules/interpretations.js';
import { applyOverlay, loadOverlay } from '../rules/overlay.js';
import { DEFAULT_RULES_VERSION, RULES_VERSION_IDS, getRulesVersion } from '../rules/registry.js';
import type { RulesVersion } from '../rules/types.js';
import { collectAssignment } from './args.js';

export interface RulesContext {
  version: RulesVersion;
  options: InterpretationOptions;
  /** Options that differ from their defaults, NAME=VALUE. */
  changed: string[];
  /** Of `changed`, those that cannot change this command's results, with why (withoutEffect). */
  withoutEffect: Array<{ option: string; why: string }>;
  dice: DiceConfig;
  compiled: CompiledRules;
  overlay: { path: string; sha256: string; description: string | null } | null;
}

export interface RulesOpts {
  rules: string;
  rule: string[];
  rulesOverlay?: string;
}

export function addRulesOptions(cmd: Command, overlay = true): Command {
  cmd
    .option('--rules <version>', `rules version: ${RULES_VERSION_IDS.join(' or ')}`, DEFAULT_RULES_VERSION)
    .addOption(
      new Option('--rule <name=value>', 'override one interpretation option (repeatable; wins over the overlay); `jwsim rules` lists them')
        .argParser(collectAssignment)
        .default([], 'none'),
    );
  if (overlay) cmd.option('--rules-overlay <file>', 'JSON file patching rules tables and options (schema: scenarios/schemas/overlay.schema.json)');
  return cmd;
}

/** The command a rules context is for, and what it runs: --rule options it does not read are refused. */
export interface RuleReader {
  /** As the message names it, e.g. "jwsim dice". */
  readonly command: string;
  readonly reads: OptionReader;
}

/** `reader`: the command, to refuse --rule options it would silently ignore; none (jwsim rules) accepts every option. */
export function rulesContext(opts: RulesOpts, reader?: RuleReader): RulesContext {
  let version = getRulesVersion(opts.rules);
  let options = DEFAULT_INTERPRETATIONS;
  let overlay: RulesContext['overlay'] = null;
  if (opts.rulesOverlay) {
    const o = loadNamedOverlay(opts.rulesOverlay);
    version = applyOverlay(version, o);
    options = applyRuleAssignments(o.options, options, `${o.file}: options`);
    overlay = { path: o.file, sha256: o.sha256, description: o.description };
  }
  options = applyRuleAssignments(opts.rule, options);
  // An option the command never reads would be recorded as in force and change nothing.
  if (reader) refuseOutOfScope(opts.rule, reader.reads, reader.command);
  const compiled = compileRules(version, options);
  const changed = changedOptions(options);
  const idle = withoutEffect(changed, reader ? [reader.reads] : null, version.data, options, reader?.command ?? '');
  return { version, options, changed, withoutEffect: idle, dice: compiled.dice, compiled, overlay };
}

/** The header lines every human-readable output starts with. */
export function rulesHeader(ctx: RulesContext): string[] {
  // The version's changes are listed by `jwsim rules` (and in --json); here one line keeps the result in view.
  const n = ctx.version.changes.length;
  const lines = [`rules: v${ctx.version.id} (${ctx.version.title}${n ? `; ${n} change${n > 1 ? 's' : ''} from v${ctx.version.parent}, listed by jwsim rules` : ''})`];
  lines.push(`options: ${ctx.changed.length ? ctx.changed.join(', ') : 'all defaults'} (jwsim rules lists them)`);
  if (ctx.withoutEffect.length) lines.push(`  without effect here: ${ctx.withoutEffect.map((x) => `${x.option} (${x.why})`).join('; ')}`);
  if (ctx.overlay) lines.push(`overlay: ${ctx.overlay.path} (sha256 ${ctx.overlay.sha256.slice(0, 16)}...)`);
  return lines;
}

/** The same facts for --json outputs. */
export function rulesJson(ctx: RulesContext) {
  return {
    rules: ctx.version.id,
    rulesTitle: ctx.version.title,
    rulesChanges: ctx.version.changes.map((c) => c.summary),
    options: ctx.options,
    ...(ctx.withoutEffect.length ? { optionsWithoutEffect: ctx.withoutEffect } : {}),
    ...(ctx.overlay ? { overlay: ctx.overlay } : {}),
  };
}

/** loadOverlay, with the flag named when the file cannot be read at all. */
function loadNamedOverlay(file: string): ReturnType<typeof loadOverlay> {
  try {
    return loadOverlay(file);
  } catch (e) {
    if (e instanceof UserError && e.message.startsWith(`${file}: cannot read file`)) throw new UserError(`--rules-overlay: ${e.message}`, e.details);
    throw e;
  }
}
