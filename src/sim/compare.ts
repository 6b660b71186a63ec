// Comparing variants (rules versions, house-rule overlays) on common random numbers.
//
// Every variant of an engagement plays the same trials: trial t on its own stream (see
// PairedTask), so the variants differ only where a changed rule is exercised, and where it
// never is they agree exactly. Every metric is a per-trial mean, so its difference is the
// mean of per-trial differences; its 95% interval comes from their variance (a paired
// test), typically far narrower than two independent runs would give.
//
// Sequential stopping, per engagement, on its key metric, after each chunk from
// `minChunks` on: stop when |difference| > z * se (the shift is settled as real), or when
// |difference| + z * se < settle (any shift is settled as smaller than `settle`), or at
// `maxChunks` (src/stats/sequential.ts). Checked in chunk order, so it is deterministic.
// That z (at least 3) pays for looking repeatedly; the reported intervals are repeated 95%
// confidence intervals, ±repeatedZ95 se (2.55 with the defaults), which still cover the true
// shift at least 95% of the time at whichever look stops the engagement.
//
// Battles pair the same way, game by game: trial t of every variant is game t (a mirrored
// pair when the experiment mirrors) on the cell's dice and policy streams, the very games
// jwsim run plays, so the baseline's figures are run's. Their chunks are COMPARE_BATTLE_CHUNK
// trials with trial bounds of their own (a game costs far more than an attack), hence a
// look schedule and z of their own.
import type { Batch, Cell } from '../scenarios/batch.js';
import { Z95 } from '../stats/intervals.js';
import { benjaminiHochberg } from '../stats/fdr.js';
import { repeatedP, repeatedZ95, settled, stoppingZ } from '../stats/sequential.js';
import { buildEngines, type CellEngine } from './cells.js';
import { addCounts, battleUnitStats, gamesPerTrial, metricSource, type Metric } from './counts.js';
import { B_UNITS, U_CAPTURED, U_CRIPPLED, U_DAMAGE, U_DESTROYED, U_STRIDE, U_WITHDRAWN } from './battles.js';
import { dispatch } from './dispatch.js';
import { ChunkFailed, PER_LANE, makeExecutor } from './runner.js';
import { CHUNK_TRIALS, Slot } from './slots.js';
import type { PairedCounts, PairedTask } from './worker.js';

/** z of the reported intervals and of the stopping rule, over the looks after chunks minChunks..maxChunks. */
export function compareZ(opts: { minChunks: number; maxChunks: number }): { interval: number; stopping: number } {
  const first = Math.max(1, opts.minChunks);
  const last = Math.max(first, opts.maxChunks);
  return { interval: repeatedZ95(first, last), stopping: stoppingZ(first, last) };
}
/** Key metric of each engagement kind: the one the sequential test stops on. */
export const KEY_METRIC: Record<Cell['kind'], string> = { duel: 'a_win_rate', attack: 'mean_structure_damage', volley: 'mean_structure_damage', ram: 'mean_structure_damage', battle: 'a_win_rate' };

/** Trials per chunk (and look) of a battle in jwsim compare: a mirrored trial is two games. */
export const COMPARE_BATTLE_CHUNK = 256;
/** Battles' default chunks in jwsim compare: the same looks as the engagements' defaults (3..16). */
export const COMPARE_BATTLE_CHUNKS = { minChunks: 3, maxChunks: 16 } as const;
/**
 * Battles' default --battle-settle: a shift of the A win rate settled as smaller than 5 points.
 * A balanced battle's paired standard error is still about 0.0075 after 4,096 trials, so the
 * engagements' 0.02 could never be met (|shift| + 3 se < 0.02) and every such battle would run
 * to the maximum; 0.05 is met after about 1,000 trials when nothing moved.
 */
export const COMPARE_BATTLE_SETTLE = 0.05;

/** Trials per chunk of a cell in jwsim compare. */
export function compareChunkTrials(kind: Cell['kind']): number {
  return kind === 'battle' ? COMPARE_BATTLE_CHUNK : CHUNK_TRIALS;
}

export interface CompareOptions {
  threads: number;
  /** Chunks of CHUNK_TRIALS before the test may stop, and at most (engagements). */
  minChunks: number;
  maxChunks: number;
  /** The same for battles, in chunks of COMPARE_BATTLE_CHUNK (default COMPARE_BATTLE_CHUNKS), and their settle (default COMPARE_BATTLE_SETTLE). */
  battle?: { minChunks: number; maxChunks: number; settle?: number };
  /** Shifts of the key metric below this are "settled as small" (engagements; battles: battle.settle). */
  settle: number;
  signal?: AbortSignal;
}

/**
 * For a difference, the draw-rate difference of the same duel engagement and variants (undefined
 * for other kinds): a duel's win rate can fall because wins became draws, not losses.
 */
export function drawRates(diffs: readonly Difference[]): (d: Difference) => Difference | undefined {
  const draws = new Map(diffs.filter((x) => x.metric === 'draw_rate').map((x) => [`${x.cell.id}\u0000${x.from}\u0000${x.to}`, x]));
  return (d) => draws.get(`${d.cell.id}\u0000${d.from}\u0000${d.to}`);
}

export interface Difference {
  cell: Cell;
  /** Placeholder values the engagement used (any variant). */
  placeholders: readonly string[];
  from: number;
  to: number;
  metric: string;
  valueFrom: number;
  valueTo: number;
  difference: number;
  /** Paired interval, ±compareZ().interval se: 95% even though the engagement was looked at repeatedly. */
  low: number;
  high: number;
  /** The interval two independent runs of the same size would give (same z). */
  unpairedLow: number;
  unpairedHigh: number;
  distinguishable: boolean;
  /**
   * The repeated p-value of the shift over the cell's looks (repeatedP; at most 0.05 when the
   * paired interval excludes zero), for shifts with an FDR family (fdrFamily); null elsewhere.
   */
  p: number | null;
  /**
   * Benjamini-Hochberg q-value of `p` within its family over the whole comparison (every
   * sampled key metric; every battle unit-type figure that varied): the shifts with q <= 0.05
   * keep the false discovery rate at 5%. Null where p is.
   */
  q: number | null;
  chunks: number;
  trials: number | null;
}

class Group {
  readonly slots: Slot[];
  /** Per variant after the first: running sum and sum of squares of per-trial count differences. */
  readonly diff: number[][];
  readonly diffSq: number[][];
  committed = 0;
  done = false;
  private readonly pending = new Map<number, PairedCounts>();
  /** Trials per chunk (compareChunkTrials of the cell's kind). */
  readonly chunkTrials: number;
  /** Per-trial sums over games per trial: a mirrored battle trial is two games, its metrics per game. */
  readonly gamesPerTrial: 1 | 2;
  constructor(
    readonly cell: Cell,
    engines: CellEngine[],
    firstSlot: number,
    readonly minChunks: number,
    readonly maxChunks: number,
    readonly z: { interval: number; stopping: number },
    /** Shifts of the key metric below this are "settled as small". */
    readonly settle: number,
  ) {
    this.chunkTrials = compareChunkTrials(cell.kind);
    this.gamesPerTrial = cell.kind === 'battle' ? gamesPerTrial(cell) : 1;
    this.slots = engines.map((e, v) => new Slot(firstSlot + v, { ...cell, trials: maxChunks * this.chunkTrials, precision: null }, v, e));
    const len = engines[0].countsLength;
    this.diff = engines.slice(1).map(() => new Array<number>(len).fill(0));
    this.diffSq = engines.slice(1).map(() => new Array<number>(len).fill(0));
    this.done = engines[0].exact !== null;
  }

  /** Records chunk k; commits every chunk now contiguous with the prefix, in order. */
  offer(k: number, result: PairedCounts): void {
    this.pending.set(k, result);
    for (let next = this.pending.get(this.committed); next && !this.done; next = this.pending.get(this.committed)) {
      this.pending.delete(this.committed);
      this.slots.forEach((s, v) => s.offer(this.committed, next.counts[v], false));
      next.diff.forEach((d, o) => addCounts(this.diff[o], d));
      next.diffSq.forEach((d, o) => addCounts(this.diffSq[o], d));
      this.committed++;
      if (this.committed >= this.maxChunks || (this.committed >= this.minChunks && this.settled())) this.done = true;
    }
  }

  /** Paired difference of a metric for compared variant o, with its standard error. */
  paired(o: number, metric: string): { difference: number; se: number } {
    const source = metricSource(this.cell.kind, metric, this.slots[0].engine.attackerTv);
    return this.pairedAt(o, source.index, source.scale);
  }

  /**
   * Paired difference of counts[index] per game, times `scale`, for compared variant o: the
   * mean per-trial difference (a mirrored battle trial sums two games) and its standard error.
   */
  pairedAt(o: number, index: number, scale: number): { difference: number; se: number } {
    const perGame = scale / this.gamesPerTrial;
    const n = this.slots[0].trials();
    const mean = this.diff[o][index] / n;
    const variance = n > 1 ? Math.max(0, (this.diffSq[o][index] - n * mean * mean) / (n - 1)) : 0;
    return { difference: mean * perGame, se: Math.sqrt(variance / n) * perGame };
  }

  private settled(): boolean {
    return this.diff.every((_, o) => {
      const { difference, se } = this.paired(o, KEY_METRIC[this.cell.kind]);
      return settled(difference, se, this.settle, this.z.stopping);
    });
  }
}

/** The chunks a cell of `kind` runs in jwsim compare: from minChunks (at least 1) to maxChunks (at least minChunks). */
export function compareChunks(kind: Cell['kind'], opts: Pick<CompareOptions, 'minChunks' | 'maxChunks' | 'battle'>): { minChunks: number; maxChunks: number } {
  const c = kind === 'battle' ? (opts.battle ?? COMPARE_BATTLE_CHUNKS) : opts;
  const minChunks = Math.max(1, c.minChunks);
  return { minChunks, maxChunks: Math.max(minChunks, c.maxChunks) };
}

export async function compareBatch(batch: Batch, opts: CompareOptions): Promise<Difference[]> {
  const execute = makeExecutor(batch, opts.threads);
  const groups: Group[] = [];
  try {
    const engines = buildEngines(batch);
    const k = batch.variants.length;
    batch.cells.forEach((cell, i) => {
      const chunks = compareChunks(cell.kind, opts);
      const settle = cell.kind === 'battle' ? (opts.battle?.settle ?? COMPARE_BATTLE_SETTLE) : opts.settle;
      groups.push(new Group(cell, engines.slice(i * k, i * k + k), i * k, chunks.minChunks, chunks.maxChunks, compareZ(chunks), settle));
    });
  } catch (e) {
    await execute.close();
    throw e;
  }
  const next = new Map<Group, number>();
  let failure: Error | null = null;
  let first = 0;
  const pick = (): { group: Group; task: PairedTask } | null => {
    for (let i = first; i < groups.length; i++) {
      const g = groups[i];
      if (g.done) {
        if (i === first) first++;
        continue;
      }
      const k = next.get(g) ?? 0;
      if (k < g.maxChunks && k < g.committed + 2) {
        next.set(g, k + 1);
        return { group: g, task: { paired: true, cell: i, chunk: k, trials: g.chunkTrials } };
      }
    }
    return null;
  };
  try {
    await dispatch({
      lanes: execute.lanes,
      perLane: PER_LANE,
      next: () => pick(),
      stop: () => failure !== null || opts.signal?.aborted === true,
      run: ({ group, task }, lane) =>
        execute(task, lane).then(
          (result) => group.offer(task.chunk, result),
          (err: Error) => void (failure ??= new ChunkFailed(`experiment ${group.cell.id} failed: ${err.message}`)),
        ),
    });
  } finally {
    await execute.close();
  }
  if (failure) throw failure;
  return withFdr(groups.flatMap((g) => differences(g)));
}

/**
 * The family a shift's q-value is worked out in, or null when it has none: the key metric of
 * every sampled engagement ("key"), and every battle unit-type figure that varied ("unit").
 */
export function fdrFamily(d: Pick<Difference, 'cell' | 'metric' | 'trials' | 'low' | 'high'>): 'key' | 'unit' | null {
  if (d.trials === null) return null; // exact: no sampling error
  if (d.metric === KEY_METRIC[d.cell.kind]) return 'key';
  return d.cell.kind === 'battle' && d.metric.startsWith('unit:') && d.high > d.low ? 'unit' : null;
}

/** Fills in the q-values: Benjamini-Hochberg over the repeated p-values of each family (fdrFamily). */
function withFdr(diffs: Difference[]): Difference[] {
  for (const family of ['key', 'unit'] as const) {
    const members = diffs.filter((d) => d.p !== null && fdrFamily(d) === family);
    const q = benjaminiHochberg(members.map((d) => d.p as number));
    members.forEach((d, i) => (d.q = q[i]));
  }
  return diffs;
}

function differences(g: Group): Difference[] {
  const out: Difference[] = [];
  const base = g.slots[0];
  const exact = base.engine.exact !== null;
  const placeholders = [...new Set(g.slots.flatMap((x) => x.engine.placeholders))];
  g.slots.slice(1).forEach((s, o) => {
    const shift = (metric: string, b: Metric, m: Metric, paired: () => { se: number }): Difference => {
      const difference = m.value - b.value;
      const se = exact ? 0 : paired().se;
      const half = g.z.interval * se;
      const unpaired = g.z.interval * Math.hypot((m.high - m.low) / (2 * Z95), (b.high - b.low) / (2 * Z95));
      const d: Difference = {
        cell: g.cell,
        placeholders,
        from: 0,
        to: o + 1,
        metric,
        valueFrom: b.value,
        valueTo: m.value,
        difference,
        low: difference - half,
        high: difference + half,
        unpairedLow: difference - unpaired,
        unpairedHigh: difference + unpaired,
        distinguishable: exact ? Math.abs(difference) > 1e-12 : difference - half > 0 || difference + half < 0,
        p: null,
        q: null,
        chunks: g.committed,
        trials: exact ? null : s.trials(),
      };
      // The repeated p-value over the cell's looks, for the shifts that have a q-value.
      if (fdrFamily(d)) d.p = se > 0 ? repeatedP(difference / se, g.minChunks, g.maxChunks) : difference === 0 ? 1 : 0;
      return d;
    };
    const baseMetrics = base.metrics();
    s.metrics().forEach((m: Metric, j) => out.push(shift(m.name, baseMetrics[j], m, () => g.paired(o, m.name))));
    // Battles: every unit type's figures too (named as in results.csv), paired per game.
    const units = base.engine.battleUnits;
    if (!units.length) return;
    const from = battleUnitStats(base.counts, units, g.gamesPerTrial), to = battleUnitStats(s.counts, units, g.gamesPerTrial);
    units.forEach((u, i) => {
      if (!u.models) return;
      const block = B_UNITS + U_STRIDE * i;
      for (const [key, offset, scale] of UNIT_FIGURES) {
        const perModel = (scale === 'per100tv' ? (u.tv > 0 ? 100 / u.tv : 0) : 1) / u.models;
        out.push(shift(`unit:${u.id}:${from[i][key].name}`, from[i][key], to[i][key], () => g.pairedAt(o, block + offset, perModel)));
      }
    });
  });
  return out;
}

/** A battle unit type's figures compared (battleUnitStats' names), their place in the type's counts block, and their scale. */
const UNIT_FIGURES: ReadonlyArray<readonly ['destroyed' | 'crippled' | 'withdrawn' | 'captured' | 'damageDealt' | 'damagePer100Tv', number, 'one' | 'per100tv']> = [
  ['destroyed', U_DESTROYED, 'one'],
  ['crippled', U_CRIPPLED, 'one'],
  ['withdrawn', U_WITHDRAWN, 'one'],
  ['captured', U_CAPTURED, 'one'],
  ['damageDealt', U_DAMAGE, 'one'],
  ['damagePer100Tv', U_DAMAGE, 'per100tv'],
];
