// The checkpoint of a run: one JSON line per finished chunk, appended as chunks finish, so
// `jwsim run --resume` can continue an interrupted run to the same result files. Each line
// carries a digest of its content, so a damaged or edited line is refused on resume instead
// of flowing into the results.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { UserError } from '../errors.js';

export interface SavedChunk {
  slot: number;
  chunk: number;
  counts: number[];
  /** Line of the checkpoint file it came from (1-based), for messages. */
  line: number;
}

const FORMAT = 'jwsim-checkpoint/2';

/** Digest of one saved chunk: 16 hex digits of the SHA-256 of [slot, chunk, counts]. */
function digest(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}

/** What must match for saved chunks to be reused: the inputs (inputsSha256), seed and sharding. */
export interface CheckpointKey {
  batchSha256: string;
  seed: string;
  shard: string;
}

export const CHECKPOINT_FILE = 'checkpoint.jsonl';

export class Checkpoint {
  private buffer: string[] = [];
  private saved: SavedChunk[] | null = null;
  private lastFlush = Date.now();

  constructor(
    readonly file: string,
    private readonly key: CheckpointKey,
  ) {}

  /** Starts a new checkpoint, or with `resume` checks the existing one belongs to this run. */
  open(resume: boolean): void {
    if (!resume) {
      writeFileSync(this.file, JSON.stringify({ format: FORMAT, ...this.key }) + '\n');
      this.saved = [];
      return;
    }
    if (!existsSync(this.file)) throw new UserError(`--resume: no checkpoint in this folder (${this.file}); run without --resume to start`);
    const lines = readFileSync(this.file, 'utf8').split('\n');
    let head: Record<string, unknown> | null = null;
    try {
      head = JSON.parse(lines[0]) as Record<string, unknown>;
    } catch {
      /* refused below */
    }
    if (head === null || typeof head !== 'object' || head.format !== FORMAT) throw new UserError(`--resume: ${this.file} is not a checkpoint of this jwsim (line 1 must be a ${FORMAT} header); start a new --out folder`);
    for (const k of ['batchSha256', 'seed', 'shard'] as const) {
      if (head[k] !== this.key[k]) {
        throw new UserError(`--resume: the checkpoint was made with a different ${k === 'batchSha256' ? 'batch, unit files, overlays or jwsim version' : k} (${String(head[k]).slice(0, 16)} vs ${this.key[k].slice(0, 16)}); resume with the same inputs or start a new --out folder`);
      }
    }
    // A last line cut short by a kill is dropped: that chunk simply runs again. Any other line
    // must be whole and match its digest.
    this.saved = [];
    let last = lines.length - 1;
    while (last > 0 && !lines[last]) last--;
    for (let i = 1; i <= last; i++) {
      const bad = (why: string) => new UserError(`--resume: ${this.file}: line ${i + 1}: ${why}; the checkpoint is damaged, so its chunks cannot be trusted: start a new --out folder`);
      let entry: unknown;
      try {
        entry = JSON.parse(lines[i]);
      } catch {
        if (i === last) break;
        throw bad('not a JSON line');
      }
      if (!Array.isArray(entry) || entry.length !== 4 || typeof entry[3] !== 'string') throw bad('not a [slot, chunk, counts, digest] line');
      const [slot, chunk, counts, sum] = entry as [unknown, unknown, unknown, string];
      if (digest(JSON.stringify([slot, chunk, counts])) !== sum) throw bad('its content does not match its digest (edited or corrupted)');
      if (!Number.isInteger(slot) || !Number.isInteger(chunk) || !Array.isArray(counts) || !counts.every((c) => typeof c === 'number' && Number.isFinite(c))) throw bad('slot and chunk must be integers and counts finite numbers');
      this.saved.push({ slot: slot as number, chunk: chunk as number, counts: counts as number[], line: i + 1 });
    }
  }

  load(): readonly SavedChunk[] {
    return this.saved ?? [];
  }

  append(slot: number, chunk: number, counts: number[]): void {
    const body = JSON.stringify([slot, chunk, counts]);
    this.buffer.push(`${body.slice(0, -1)},"${digest(body)}"]`);
    if (this.buffer.length >= 64 || Date.now() - this.lastFlush > 1000) this.flush();
  }

  flush(): void {
    if (!this.buffer.length) return;
    appendFileSync(this.file, this.buffer.join('\n') + '\n');
    this.buffer = [];
    this.lastFlush = Date.now();
  }
}
