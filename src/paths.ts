// Where jwsim's own files are, whether running from src (tests) or dist (the CLI).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/** The folder holding jwsim's package.json. */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'jwsim') return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the jwsim folder (package.json)');
    dir = up;
  }
}

/** The sample roster used when a command is given no --units. */
export function sampleRosterFiles(): string[] {
  return [join(projectRoot(), 'scenarios', 'units', 'sample-roster.json')];
}
