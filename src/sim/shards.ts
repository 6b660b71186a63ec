// Shards: a shard keeps the counts of every chunk it ran (partial.json); merging the
// partials of all N shards replays every slot's chunks in order through the same stopping
// rule as an unsharded run, so the merged result files are byte-identical to it.
import { UserError } from '../errors.js';
import { failOnProblems, readJsonFile } from '../io/json.js';
import { partialChunkProblems, partialProblems } from './partialCheck.js';
import { resolve } from 'node:path';
import { inputsSha256, type Batch } from '../scenarios/batch.js';
import { JWSIM_VERSION } from '../version.js';
import { buildEngines } from './cells.js';
import type { RunResult } from './runner.js';
import { makeSlots, type Slot } from './slots.js';

export interface Partial {
  format: 'jwsim-partial/1';
  batch: { path: string; sha256: string };
  /** inputsSha256 of the run: batch, unit files, overlays, jwsim version. */
  inputs: string;
  seed: string;
  shard: { index: number; count: number };
  /** slot index -> chunk index -> counts */
  chunks: Record<string, Record<string, number[]>>;
}

export function partialJson(batch: Batch, result: RunResult, shard: { index: number; count: number }): string {
  const chunks: Partial['chunks'] = {};
  for (const [slot, byChunk] of result.chunks ?? []) chunks[String(slot)] = Object.fromEntries([...byChunk].sort((a, b) => a[0] - b[0]).map(([k, c]) => [String(k), c]));
  const body: Partial = { format: 'jwsim-partial/1', batch: { path: resolve(batch.file), sha256: batch.sha256 }, inputs: inputsSha256(batch, JWSIM_VERSION), seed: batch.seed, shard, chunks };
  return JSON.stringify(body) + '\n';
}

export function readPartial(file: string): Partial {
  const p = readJsonFile(file);
  failOnProblems(`${file}: damaged shard result`, partialProblems(p, file), 40);
  return p as Partial;
}

/** The slots of the whole batch, from all shards' partials. */
export function mergePartials(batch: Batch, partials: ReadonlyArray<{ file: string; partial: Partial }>): Slot[] {
  const count = partials[0].partial.shard.count;
  const seen = new Set<number>();
  for (const { file, partial } of partials) {
    if (partial.inputs !== inputsSha256(batch, JWSIM_VERSION)) throw new UserError(`${file}: made from different inputs (batch, unit files, overlays or jwsim version) than ${batch.file} has now`);
    if (partial.seed !== batch.seed) throw new UserError(`${file}: seed ${partial.seed} differs from ${batch.seed}`);
    if (partial.shard.count !== count) throw new UserError(`${file}: shard of ${partial.shard.count}, the others of ${count}`);
    if (seen.has(partial.shard.index)) throw new UserError(`${file}: shard ${partial.shard.index}/${count} given twice`);
    seen.add(partial.shard.index);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length) throw new UserError(`missing shards: ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const engines = buildEngines(batch);
  let next = 0;
  const slots = makeSlots(batch, () => engines[next++]);
  // Every chunk of every shard is checked against the batch before any is merged.
  const label = (s: Slot) => `${s.cell.id} (variant ${batch.variants[s.variant].name})`;
  const problems = partials.flatMap(({ file, partial }) => partialChunkProblems(partial, file, slots, label));
  failOnProblems("the shards' partial.json files", problems, 40);
  for (const slot of slots) {
    for (let k = 0; k < slot.maxChunks && !slot.done; k++) {
      const owner = partials.find((p) => p.partial.shard.index === k % count)!;
      const counts = owner.partial.chunks[String(slot.index)]?.[String(k)];
      if (!counts || counts.length !== slot.counts.length) throw new UserError(`${owner.file}: chunk ${k} of ${slot.cell.id} is missing or damaged; was the shard interrupted?`);
      slot.offer(k, counts);
    }
  }
  return slots;
}
