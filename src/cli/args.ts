// Option parsers shared by the commands. Each one rejects bad input with a message that
// names what is allowed; commander turns it into one line on stderr and exit code 2.
import { availableParallelism } from 'node:os';
import { InvalidArgumentError, Option } from 'commander';

export function intInRange(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const t = value.trim();
    if (!/^[+-]?\d+$/.test(t)) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    const n = Number(t);
    if (n < min || n > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

/** Repeatable integer option: each occurrence adds one entry. */
export function collectInt(min: number, max: number): (value: string, previous: number[]) => number[] {
  const parse = intInRange(min, max);
  return (value, previous) => [...previous, parse(value)];
}

export function collectString(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Repeatable NAME=VALUE option (--rule): one without "=" is refused where it stands, before its VALUE could be taken for an argument. */
export function collectAssignment(value: string, previous: string[]): string[] {
  if (!value.includes('=')) throw new InvalidArgumentError(`expected NAME=VALUE with no spaces, e.g. --rule ${/^[a-z0-9_]+$/.test(value) ? value : 'flex_stacking'}=VALUE`);
  return collectString(value, previous);
}

/** A folder or file path option: anything but empty (an empty path would mean the current folder). */
export function pathArg(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty; give a path');
  return value;
}

/**
 * --seed: `summary` says which streams it seeds; `fallback` is the default seed, or absent
 * where the batch file's seed is the default.
 */
export function seedOption(summary: string, fallback?: string): Option {
  const o = new Option('--seed <seed>', `${summary}; 1 to 64 letters, digits, ".", "_" or "-"`).argParser(seedArg);
  return fallback === undefined ? o : o.default(fallback);
}

/** Seeds are short printable tokens so they can sit in file names and manifests. */
export function seedArg(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new InvalidArgumentError('must be 1 to 64 characters of letters, digits, ".", "_" or "-"');
  }
  return value;
}

/** A distance in inches: a non-negative number, at most `max`. */
export function inchesArg(max: number): (value: string) => number {
  return (value: string) => {
    const t = value.trim();
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) throw new InvalidArgumentError(`must be a distance in inches from 0 to ${max}, e.g. 8 or 7.5`);
    const n = Number(t);
    if (n > max) throw new InvalidArgumentError(`must be a distance in inches from 0 to ${max}`);
    return n;
  };
}

/** A positive number below `max`, e.g. a shift or precision threshold. */
export function positiveNumber(max: number, example: string): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n >= max) throw new InvalidArgumentError(`must be a positive number below ${max}, e.g. ${example}`);
    return n;
  };
}

/** --threads for the commands that run a worker pool; results do not depend on it. */
export function threadsOption(): Option {
  const cores = availableParallelism();
  return new Option('--threads <n>', 'worker threads, 0 to run in this thread (0..256); results do not depend on it').argParser(intInRange(0, 256)).default(cores, `available cores, ${cores} here`);
}
