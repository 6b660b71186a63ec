// The jwsim command line: one subcommand per question a designer asks.
// Results go to stdout, errors to stderr; exit 0 on success, 2 on bad input or usage.
import { JWSIM_VERSION } from '../version.js';
import { Command, CommanderError, Help, type Option } from 'commander';
import { UserError } from '../errors.js';
import { installInterruptNotice } from '../io/interrupt.js';
import { tuneV8 } from '../sim/v8tuning.js';
import { attackCommand } from './attack.js';
import { battleCommand } from './battle.js';
import { compareCommand } from './compare.js';
import { costsCommand } from './costs.js';
import { duelCommand } from './duel.js';
import { mergeCommand } from './merge.js';
import { nightlyCommand } from './nightly.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { ramCommand } from './ram.js';
import { unitsCommand } from './units.js';
import { volleyCommand } from './volley.js';
import { diceCommand } from './dice.js';
import { rulesCommand } from './rules.js';

/** Commander's own usage errors get the same "jwsim: error: ..." prefix as ours. */
const OUTPUT = { outputError: (str: string, write: (s: string) => void) => write(`jwsim: ${str}`) };

/** Help texts mark the options a command cannot run without. */
const HELP = {
  optionDescription(this: Help, option: Option): string {
    const text = Help.prototype.optionDescription.call(this, option);
    return option.mandatory ? `(required) ${text}` : text;
  },
};

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('jwsim')
    .description('Monte Carlo balance and statistics analyser for the Jovian Wars space miniatures game.')
    .version(JWSIM_VERSION, '-V, --version', 'print the jwsim version')
    .helpOption('-h, --help', 'show help for jwsim or a command')
    .exitOverride()
    .configureOutput(OUTPUT)
    // The command list shows each command's own usage line (duel's ids are required there too).
    .configureHelp({ subcommandTerm: (cmd: Command) => `${cmd.name()} ${cmd.usage()}` });
  program.addCommand(diceCommand());
  program.addCommand(rulesCommand());
  program.addCommand(unitsCommand());
  program.addCommand(attackCommand());
  program.addCommand(volleyCommand());
  program.addCommand(ramCommand());
  program.addCommand(duelCommand());
  program.addCommand(battleCommand());
  program.addCommand(runCommand());
  program.addCommand(mergeCommand());
  program.addCommand(reportCommand());
  program.addCommand(compareCommand());
  program.addCommand(costsCommand());
  program.addCommand(nightlyCommand());
  for (const cmd of program.commands) cmd.exitOverride().configureOutput(OUTPUT).configureHelp(HELP);
  return program;
}

/** Exit code when the machine refuses the output (sysexits' EX_IOERR). */
export const EXIT_OUTPUT = 74;
/**
 * Errors of writing that are the machine's, not jwsim's: a full disk or quota, a read-only or
 * failing device, a permission taken away during the run (a place that cannot be written is
 * refused before the run, with 2).
 */
const OUTPUT_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG', 'EACCES', 'EPERM']);

export async function main(argv: readonly string[]): Promise<number> {
  tuneV8();
  installInterruptNotice();
  const program = buildProgram();
  try {
    // `jwsim help NAME` of an unknown NAME would print the general help and say nothing.
    const asked = argv[2] === 'help' ? argv[3] : argv[2];
    if (asked !== undefined && asked !== 'help' && !asked.startsWith('-') && !program.commands.some((c) => c.name() === asked)) {
      throw new UserError(`${argv[2] === 'help' ? 'help: ' : ''}unknown command "${asked}"; allowed: ${program.commands.map((c) => c.name()).join(', ')} (jwsim --help describes each)`);
    }
    await program.parseAsync([...argv]);
    // A command that ends without throwing may still set its own code (an interrupted run: 130).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UserError) {
      process.stderr.write(`jwsim: error: ${err.message}\n`);
      for (const d of err.details) process.stderr.write(`  ${d}\n`);
      return 2;
    }
    const code = (err as NodeJS.ErrnoException)?.code;
    if (code !== undefined && OUTPUT_FAILURES.has(code)) {
      process.stderr.write(`jwsim: error: the output could not be written: ${(err as Error).message} (free space or choose another place, then run again)\n`);
      return EXIT_OUTPUT;
    }
    const e = err as Error;
    process.stderr.write(`jwsim: internal error: ${e?.message ?? String(err)} (this is a bug in jwsim; set JWSIM_DEBUG=1 for details)\n`);
    if (process.env.JWSIM_DEBUG) process.stderr.write(`${e?.stack}\n`);
    return 70;
  }
}
