// Checks of a shard's partial.json before jwsim merge trusts it: its shape (a JSON Schema),
// then every chunk against the batch it claims to come from: the slot and chunk exist and
// belong to this shard, there are as many counts as the engagement's kind keeps, the chunk
// holds exactly the trials it was given, and no count of outcomes exceeds the trials. A
// damaged file is refused naming the file and the field, never merged into wrong results.
import { jsonPath, schemaProblems } from '../io/json.js';
import { B_DRAW, B_N, B_UNITS, B_WIN_A, B_WIN_B, U_STRIDE } from './battles.js';
import { C_CRIPPLED, C_DESTROYED, C_HIST, C_N, C_RAMS, D_A_WINS, D_B_WINS, D_DRAWS, D_HIST, D_N, ROUNDS_HIST_MAX } from './counts.js';
import type { Slot } from './slots.js';

export const PARTIAL_FORMAT = 'jwsim-partial/1';

const index = { type: 'string', pattern: '^(0|[1-9][0-9]{0,8})$' };
const counts = { type: 'array', items: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } };

export const PARTIAL_SCHEMA = {
  $id: 'https://jwsim.invalid/schemas/partial.schema.json',
  type: 'object',
  required: ['format', 'batch', 'inputs', 'seed', 'shard', 'chunks'],
  properties: {
    format: { const: PARTIAL_FORMAT },
    batch: { type: 'object', required: ['path', 'sha256'], properties: { path: { type: 'string', minLength: 1 }, sha256: { type: 'string' } } },
    inputs: { type: 'string' },
    seed: { type: 'string', minLength: 1 },
    shard: {
      type: 'object',
      required: ['index', 'count'],
      properties: { index: { type: 'integer', minimum: 0, maximum: 100_000 }, count: { type: 'integer', minimum: 1, maximum: 100_000 } },
    },
    chunks: {
      description: 'slot index -> chunk index -> counts',
      type: 'object',
      propertyNames: index,
      additionalProperties: { type: 'object', propertyNames: index, additionalProperties: counts },
    },
  },
};

/** Problems of a partial.json on its own (as parsed), as "FILE: PATH: message" lines. */
export function partialProblems(data: unknown, file: string): string[] {
  const format = (data as { format?: unknown } | null)?.format;
  if (!data || typeof data !== 'object' || Array.isArray(data) || format !== PARTIAL_FORMAT) {
    return [`${file}: not a jwsim shard result (partial.json of jwsim run --shard): format is ${JSON.stringify(format) ?? 'missing'}, not ${JSON.stringify(PARTIAL_FORMAT)}`];
  }
  // (schemaProblems names numbers too large for a double first.)
  const shape = schemaProblems(PARTIAL_SCHEMA, data, file);
  if (shape.length) return shape;
  const { shard } = data as { shard: { index: number; count: number } };
  if (shard.index >= shard.count) return [`${file}: shard.index: ${shard.index} is not below shard.count ${shard.count} (shard K/N has 0 <= K < N)`];
  return [];
}

interface PartialChunks {
  shard: { index: number; count: number };
  chunks: Record<string, Record<string, number[]>>;
}

/**
 * Problems of a (schema-valid) partial's chunks against the slots of its batch, as
 * "FILE: PATH: message" lines; `label` names a slot for people.
 */
export function partialChunkProblems(partial: PartialChunks, file: string, slots: readonly Slot[], label: (s: Slot) => string): string[] {
  const out: string[] = [];
  const { index: shard, count } = partial.shard;
  const at = (...keys: Array<string | number>) => `${file}: ${jsonPath(['', 'chunks', ...keys].join('/'))}`;
  for (const [slotKey, byChunk] of Object.entries(partial.chunks)) {
    const slot = slots[Number(slotKey)];
    if (!slot) {
      out.push(`${at(slotKey)}: there is no slot ${slotKey}; the batch has ${slots.length} (engagement x variant, numbered 0..${slots.length - 1})`);
      continue;
    }
    if (slot.maxChunks === 0) {
      out.push(`${at(slotKey)}: ${label(slot)} is computed exactly; it has no chunks`);
      continue;
    }
    for (const [chunkKey, c] of Object.entries(byChunk)) {
      const k = Number(chunkKey);
      const where = (i?: number) => (i === undefined ? at(slotKey, chunkKey) : at(slotKey, chunkKey, i));
      if (k >= slot.maxChunks || k % count !== shard) {
        const owned = `shard ${shard}/${count} runs those k with k % ${count} = ${shard}`;
        out.push(`${where()}: chunk ${k} is not one of this shard's chunks of ${label(slot)}: it has chunks 0..${slot.maxChunks - 1}, and ${owned}`);
        continue;
      }
      if (c.length !== slot.counts.length) {
        out.push(`${where()}: ${c.length} counts; a chunk of ${label(slot)} has ${slot.counts.length}`);
        continue;
      }
      out.push(...countProblems(slot, k, c, where, label(slot)));
    }
  }
  return out;
}

const sum = (c: readonly number[], from: number, n: number) => c.slice(from, from + n).reduce((a, x) => a + x, 0);

/** A chunk's counts against its trials (every count below is one per trial or per game by construction). */
function countProblems(slot: Slot, k: number, c: readonly number[], where: (i?: number) => string, name: string): string[] {
  const kind = slot.cell.kind;
  const games = kind === 'battle' && slot.cell.mirror !== false ? 2 : 1;
  const expected = slot.chunkTrials(k) * games;
  const n0 = kind === 'battle' ? B_N : kind === 'duel' ? D_N : C_N;
  if (c[n0] !== expected) return [`${where(n0)}: ${c[n0]} ${games === 2 ? 'games' : 'trials'}; chunk ${k} of ${name} has ${expected}`];
  const n = c[n0];
  const out: string[] = [];
  const need = (ok: boolean, i: number, what: string) => {
    if (!ok) out.push(`${where(i)}: ${what} (the chunk has ${n} ${kind === 'battle' ? 'games' : 'trials'})`);
  };
  if (kind === 'duel') {
    const outcomes = c[D_A_WINS] + c[D_B_WINS] + c[D_DRAWS];
    need(outcomes === n, D_A_WINS, `A wins ${c[D_A_WINS]} + B wins ${c[D_B_WINS]} + draws ${c[D_DRAWS]} = ${outcomes}; every duel ends in exactly one of them`);
    const decided = sum(c, D_HIST, ROUNDS_HIST_MAX + 1);
    need(decided === c[D_A_WINS] + c[D_B_WINS], D_HIST, `the rounds histogram counts ${decided} decided duels, the wins ${c[D_A_WINS] + c[D_B_WINS]}`);
  } else if (kind === 'battle') {
    const outcomes = c[B_WIN_A] + c[B_WIN_B] + c[B_DRAW];
    need(outcomes === n, B_WIN_A, `A wins ${c[B_WIN_A]} + B wins ${c[B_WIN_B]} + draws ${c[B_DRAW]} = ${outcomes}; every game ends in exactly one of them`);
    for (let u = B_UNITS; u + U_STRIDE <= c.length; u += U_STRIDE) {
      const fates = c[u + 1] + c[u + 2] + c[u + 3] + c[u + 6];
      need(fates <= c[u], u + 1, `${fates} models destroyed, crippled, withdrawn or captured out of ${c[u]} appearances`);
    }
  } else {
    need(c[C_DESTROYED] + c[C_CRIPPLED] <= n, C_DESTROYED, `destroyed ${c[C_DESTROYED]} + crippled ${c[C_CRIPPLED]} is more than the trials`);
    need(c[C_RAMS] <= n, C_RAMS, `${c[C_RAMS]} rams is more than the trials`);
    const hist = sum(c, C_HIST, 11);
    need(hist === n, C_HIST, `the Structure-lost histogram counts ${hist} trials`);
  }
  return out;
}
