// Output folders: created up front, with a clear error when that is impossible.
import { existsSync, mkdirSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';

/**
 * Creates the folder `dir` and any missing folders above it, or explains why it cannot;
 * `option` names the flag. A folder that already holds files is refused.
 */
export function makeFolder(dir: string, option = '--out'): void {
  checkFolder(dir, option);
  // One level at a time: Node's recursive mkdir never returns on some special file systems (/proc).
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  const made: string[] = [];
  try {
    for (const d of missing) {
      mkdirSync(d);
      made.push(d);
    }
  } catch (err) {
    for (const d of made.reverse()) rmdirSync(d); // leave nothing behind
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${option}: cannot create the folder ${dir}${code === 'ENOTDIR' ? ' (a part of the path is a file)' : code ? ` (${code})` : ''}`);
  }
}

/** makeFolder's checks without creating anything: for commands that work a while before they write. */
export function checkFolder(dir: string, option = '--out'): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(`${option}: ${dir} is a file, not a folder`);
  // Results are never mixed into a folder that holds other files.
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new UserError(`${option}: ${dir} already holds other files; choose a new or empty folder`);
}

/**
 * Takes back what a command wrote into the output folder `dir` when it fails or is stopped
 * before finishing: the folder itself if makeFolder created it (`existed` false), else only
 * what is inside it (it was empty before, or makeFolder would have refused it).
 */
export function unmakeFolder(dir: string, existed: boolean): void {
  if (!existed) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}
