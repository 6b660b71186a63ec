// Output folders: created up front, with a clear error when that is impossible.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { projectRoot } from '../paths.js';

/**
 * Creates the folder `dir` or explains why it cannot; `option` names the flag. Its parent must
 * exist (a mistyped path is refused rather than built), except the project's reports folder,
 * the home of the default output folders. A folder that already holds files is refused.
 */
export function makeFolder(dir: string, option = '--out'): void {
  checkFolder(dir, option);
  const parent = dirname(resolve(dir));
  try {
    if (!existsSync(parent) && parent === resolve(join(projectRoot(), 'reports'))) mkdirSync(parent);
    if (!existsSync(parent)) throw new UserError(`${option}: cannot create the folder ${dir}: the folder ${parent} does not exist`);
    if (!existsSync(dir)) mkdirSync(dir);
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${option}: cannot create the folder ${dir}${code === 'ENOTDIR' ? ' (a part of the path is a file)' : code ? ` (${code})` : ''}`);
  }
}

/** makeFolder's checks without creating anything: for commands that work a while before they write. */
export function checkFolder(dir: string, option = '--out'): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${option}: ${dir} is a file, not a folder`);
  // Results are never mixed into a folder that holds other files.
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UserError(`${option}: ${dir} already holds other files; choose a new or empty folder`);
  const parent = dirname(resolve(dir));
  if (!existsSync(parent) && parent !== resolve(join(projectRoot(), 'reports'))) throw new UserError(`${option}: cannot create the folder ${dir}: the folder ${parent} does not exist`);
}
