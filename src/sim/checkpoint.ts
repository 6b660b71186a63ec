// The checkpoint of a run: one JSON line per finished chunk, appended as chunks finish, so
// `jwsim run --resume` can continue an interrupted run to the same result files.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { UserError } from '../errors.js';

export interface SavedChunk {
  slot: number;
  chunk: number;
  counts: number[];
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
      writeFileSync(this.file, JSON.stringify({ format: 'jwsim-checkpoint/1', ...this.key }) + '\n');
      this.saved = [];
      return;
    }
    if (!existsSync(this.file)) throw new UserError(`--resume: no checkpoint in this folder (${this.file}); run without --resume to start`);
    const lines = readFileSync(this.file, 'utf8').split('\n');
    let head: Record<string, unknown>;
    try {
      head = JSON.parse(lines[0]) as Record<string, unknown>;
    } catch {
      throw new UserError(`--resume: ${this.file} is not a jwsim checkpoint`);
    }
    for (const k of ['batchSha256', 'seed', 'shard'] as const) {
      if (head[k] !== this.key[k]) {
        throw new UserError(`--resume: the checkpoint was made with a different ${k === 'batchSha256' ? 'batch, unit files, overlays or jwsim version' : k} (${String(head[k]).slice(0, 16)} vs ${this.key[k].slice(0, 16)}); resume with the same inputs or start a new --out folder`);
      }
    }
    // A line cut short by a kill is dropped: that chunk simply runs again.
    this.saved = [];
    for (const line of lines.slice(1)) {
      if (!line) continue;
      try {
        const [slot, chunk, counts] = JSON.parse(line) as [number, number, number[]];
        this.saved.push({ slot, chunk, counts });
      } catch {
        /* incomplete last line */
      }
    }
  }

  load(): readonly SavedChunk[] {
    return this.saved ?? [];
  }

  append(slot: number, chunk: number, counts: number[]): void {
    this.buffer.push(JSON.stringify([slot, chunk, counts]));
    if (this.buffer.length >= 64 || Date.now() - this.lastFlush > 1000) this.flush();
  }

  flush(): void {
    if (!this.buffer.length) return;
    appendFileSync(this.file, this.buffer.join('\n') + '\n');
    this.buffer = [];
    this.lastFlush = Date.now();
  }
}
