// Damaged copies of a finished run folder, for tests of what reads one (report, nightly).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Parsed JSON, edited in place. */
export type Json = Record<string, any>;

let copies = 0;
/** A copy of run folder `source` under `root` with its results.json (r) and manifest.json (m) edited. */
export function damagedCopy(source: string, root: string, edit: (r: Json, m: Json) => void): string {
  const dir = join(root, `run-copy-${++copies}`);
  cpSync(source, dir, { recursive: true });
  const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  edit(r, m);
  writeFileSync(join(dir, 'results.json'), JSON.stringify(r, null, 2));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m, null, 2));
  return dir;
}
