// Output folders: created up front, with a clear error when that is impossible.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { UserError } from '../errors.js';

/** Creates `dir` (and its parents) or explains why it cannot; `option` names the flag. A folder that already holds files is refused. */
export function makeFolder(dir: string, option = '--out'): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${option}: ${dir} is a file, not a folder`);
  // Results are never mixed into a folder that holds other files.
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UserError(`${option}: ${dir} already holds other files; choose a new or empty folder`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${option}: cannot create the folder ${dir}${code === 'ENOTDIR' ? ' (a part of the path is a file)' : code ? ` (${code})` : ''}`);
  }
}
