// The nightly gate: every metric of a run against the same metric of a baseline run.
// A shift fails the gate when it is significant and larger than max-shift. Significant: its
// interval excludes 0, where the intervals are simultaneous 95% ones over all the sampled
// shifts that are not exactly 0 (Bonferroni), so that noise alone fails a night with at
// most 5% chance however many metrics the batch has (with per-metric 95% intervals, a
// change that re-randomises every result of the sample batch failed about one night in
// four on noise alone). Max-shift: in absolute terms for rates and probabilities, relative
// to the baseline value (at least 1) for means. With the same seed, a result the change did not touch is
// identical, so its shift is exactly 0; intervals are those of two independent runs
// (conservative: the runs' per-trial pairing is not kept in the run folders).
import { Z95, simultaneousZ95 } from '../stats/intervals.js';
import type { RunResults } from './runFolder.js';

export const DEFAULT_MAX_SHIFT = 0.05;

export interface GateShift {
  engagement: string;
  variant: string;
  metric: string;
  baseline: number;
  current: number;
  shift: number;
  low: number;
  high: number;
  significant: boolean;
  /** Significant and larger than the threshold. */
  fails: boolean;
  /** The shift it may make (gateThreshold); absent in nightly records written before it was kept. */
  threshold?: number;
}

export interface GateResult {
  sameSeed: boolean;
  maxShift: number;
  checked: number;
  /** Sampled shifts not exactly 0: the family the simultaneous intervals cover. */
  tested: number;
  /** z of those intervals (simultaneousZ95 of `tested`; Z95 for one). */
  z: number;
  shifts: GateShift[];
  failures: GateShift[];
  /** Engagement x variant present in only one of the two runs. */
  unmatched: string[];
}

const isRate = (metric: string) => metric.startsWith('p_') || metric.endsWith('_rate');

/**
 * The shift a metric may make before it fails: maxShift for rates; for means maxShift times the
 * baseline value, at least `floor` (1 in the metric's own units; for damage_per_100_tv one
 * Structure point on its scale, so it meets the same test as mean_structure_damage).
 */
export function gateThreshold(metric: string, baseline: number, maxShift: number, floor = 1): number {
  return isRate(metric) ? maxShift : maxShift * Math.max(floor, Math.abs(baseline));
}

/** A shift's threshold: the one the gate kept, or (older records) the rule without a scaled floor. */
export const thresholdOf = (x: GateShift, maxShift: number): number => x.threshold ?? gateThreshold(x.metric, x.baseline, maxShift);

/** Shifts in the order a reader needs them: failures first, then by size relative to their own threshold (a rate and a mean in rounds are not comparable raw). */
export function byExcess(shifts: readonly GateShift[], maxShift: number): GateShift[] {
  const excess = (x: GateShift) => Math.abs(x.shift) / thresholdOf(x, maxShift);
  return [...shifts].sort((a, b) => Number(b.fails) - Number(a.fails) || excess(b) - excess(a));
}
const se = (m: { low: number; high: number }) => (m.high - m.low) / (2 * Z95);

export function gate(current: RunResults, baseline: RunResults, maxShift = DEFAULT_MAX_SHIFT): GateResult {
  const sameSeed = current.seed === baseline.seed;
  const base = new Map(baseline.experiments.map((e) => [`${e.engagement}\u0000${e.variant}`, e]));
  const seen = new Set<string>();
  type Figure = { value: number; low: number; high: number };
  const pairs: Array<{ e: (typeof current.experiments)[number]; metric: string; m: Figure; bm: Figure }> = [];
  const unmatched: string[] = [];
  for (const e of current.experiments) {
    const key = `${e.engagement}\u0000${e.variant}`;
    const b = base.get(key);
    seen.add(key);
    if (!b) {
      unmatched.push(`${e.engagement} (${e.variant}): not in the baseline`);
      continue;
    }
    for (const [metric, m] of Object.entries(e.metrics)) {
      const bm = b.metrics[metric];
      if (bm) pairs.push({ e, metric, m, bm });
    }
  }
  const sd = (p: (typeof pairs)[number]) => Math.hypot(se(p.m), se(p.bm));
  const tested = pairs.filter((p) => p.m.value !== p.bm.value && sd(p) > 0).length;
  const z = simultaneousZ95(tested);
  const shifts: GateShift[] = pairs.map((p) => {
    const { e, metric, m, bm } = p;
    const shift = m.value - bm.value;
    const half = z * sd(p);
    const significant = shift !== 0 && (half === 0 || Math.abs(shift) > half);
    const tv = current.units[e.a]?.tv;
    const threshold = gateThreshold(metric, bm.value, maxShift, metric === 'damage_per_100_tv' && tv > 0 ? 100 / tv : 1);
    return { engagement: e.engagement, variant: e.variant, metric, baseline: bm.value, current: m.value, shift, low: shift - half, high: shift + half, significant, fails: significant && Math.abs(shift) > threshold, threshold };
  });
  for (const key of base.keys()) if (!seen.has(key)) unmatched.push(`${key.replace('\u0000', ' (')}): only in the baseline`);
  return { sameSeed, maxShift, checked: shifts.length, tested, z, shifts, failures: shifts.filter((s) => s.fails), unmatched };
}
