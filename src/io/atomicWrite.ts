// Writing several files so that none is seen half-written: each is written to a temporary file
// beside it, and only when all are written are they renamed into place.
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The file (index into the list) whose writing failed, and why. */
export class WriteFailure extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
    this.name = 'WriteFailure';
  }
}

/**
 * Writes every [path, content] pair through a temporary file beside it, then renames them all
 * into place, in the order given. When a write fails the temporary files are removed and no
 * target is touched; throws a WriteFailure naming the file.
 */
export function writeFilesAtomically(files: ReadonlyArray<readonly [string, string | Uint8Array]>): void {
  const tmps: string[] = [];
  const clean = () => {
    for (const t of tmps) {
      try {
        unlinkSync(t);
      } catch {
        // already renamed or gone
      }
    }
  };
  files.forEach(([path, content], i) => {
    const tmp = join(dirname(resolve(path)), `.${basename(path)}.${process.pid}.tmp`);
    tmps.push(tmp); // before writing: a write that fails half-way (disk full) leaves a file to remove
    try {
      writeFileSync(tmp, content);
    } catch (e) {
      clean();
      throw new WriteFailure(i, e);
    }
  });
  files.forEach(([path], i) => {
    try {
      renameSync(tmps[i], path);
    } catch (e) {
      clean();
      throw new WriteFailure(i, e);
    }
  });
}
