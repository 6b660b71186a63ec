// Output folders: created up front, with a clear error when that is impossible.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { UserError } from '../errors.js';

/** Creates `dir` (and its parents) or explains why it cannot; `option` names the flag. */
export function makeFolder(dir: string, option = '--out'): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${option}: ${dir} is a file, not a folder`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${option}: cannot create the folder ${dir}${code === 'ENOTDIR' ? ' (a part of the path is a file)' : code ? ` (${code})` : ''}`);
  }
}
