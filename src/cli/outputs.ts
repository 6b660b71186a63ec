// Output files named on the command line: checked before anything runs (a name, a folder that
// exists, not a folder itself, not one of the run's inputs, not named twice), then written all
// or nothing, so a failed command leaves no file behind and never replaces an input.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { WriteFailure, writeFilesAtomically } from '../io/atomicWrite.js';

export interface OutputFile {
  /** The flag that named it, for messages (e.g. "--trace"). */
  readonly flag: string;
  readonly path: string;
}

/** The absolute path, through symbolic links where the file (or its folder) exists. */
function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/**
 * Refuses output files that cannot or must not be written: an empty name, a missing folder, a
 * folder in the file's place, a file that is also an input (`inputs`: [what, path]), or two
 * outputs on one path.
 */
export function checkOutputs(outputs: readonly OutputFile[], inputs: ReadonlyArray<readonly [string, string]>): void {
  const seen = new Map<string, string>();
  const ins = new Map(inputs.map(([what, path]) => [canonical(path), what] as const));
  for (const o of outputs) {
    if (o.path.trim() === '') throw new UserError(`${o.flag}: needs a file name`);
    const dir = dirname(resolve(o.path));
    if (!existsSync(dir)) throw new UserError(`${o.flag}: cannot write ${o.path}: the folder ${dirname(o.path)} does not exist`);
    if (!statSync(dir).isDirectory()) throw new UserError(`${o.flag}: cannot write ${o.path}: ${dirname(o.path)} is a file, not a folder`);
    if (existsSync(o.path) && statSync(o.path).isDirectory()) throw new UserError(`${o.flag}: ${o.path} is a folder; give a file name`);
    const key = canonical(o.path);
    const input = ins.get(key);
    if (input) throw new UserError(`${o.flag}: ${o.path} is ${input} of this run; writing it would replace it, so choose another file name`);
    const other = seen.get(key);
    if (other) throw new UserError(`${other} and ${o.flag} both name ${o.path}; give each its own file`);
    seen.set(key, o.flag);
  }
}

/** Writes every file, or none (writeFilesAtomically); a failure names the flag and the file. */
export function writeOutputs(files: ReadonlyArray<OutputFile & { readonly text: string }>): void {
  try {
    writeFilesAtomically(files.map((f) => [f.path, f.text] as const));
  } catch (e) {
    if (!(e instanceof WriteFailure)) throw e;
    const f = files[e.index];
    throw new UserError(`${f.flag}: cannot write ${f.path} (${(e.cause as NodeJS.ErrnoException).code ?? (e.cause as Error).message})`);
  }
}
