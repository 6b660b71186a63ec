// The sequential stopping decision of a paired comparison (jwsim compare, src/sim/compare.ts),
// and the z of the intervals it reports.
import { Z95, normalTwoSidedTail, simultaneousZ95 } from './intervals.js';

/** The least z a shift must be from zero, or within `settle`, to stop: 3 rather than 1.96. */
export const SEQUENTIAL_Z = 3;

/** Looks up to which repeatedZ95 is computed exactly; beyond, the Bonferroni z (wider). */
export const EXACT_LOOKS = 40;

const GRID = 0.025; // grid step of the running sum, in per-chunk standard deviations
const KERNEL_SD = 7; // the one-chunk step density is cut at ±7 sd
const memo = new Map<string, number>();

/**
 * z of repeated 95% confidence intervals over equally sized chunks looked at after chunk
 * `first`, `first` + 1, ..., `last`: the z with which the intervals ±z se at all these looks
 * hold the true shift together with probability 95% (for a normal mean). Whichever look
 * stops an engagement, the interval reported there then covers at least 95% of the time,
 * while a plain ±1.96 se interval at a data-chosen stop covers less (about 90% in the worst
 * case of jwsim compare's defaults). This is the two-sided Pocock constant of that schedule:
 * 2.18 for looks after chunks 1 and 2, 2.41 for 5 looks from the first chunk, 2.55 for
 * looks after chunks 3 to 16 (compare's defaults). Computed by following the density of the
 * standardised running sum on a grid, chunk by chunk, with the paths that left the
 * boundary removed, and bisecting on z. More than EXACT_LOOKS looks: the Bonferroni z
 * (simultaneousZ95), which holds too but is wider.
 */
export function repeatedZ95(first: number, last: number): number {
  if (!(first >= 1 && last >= first && Number.isInteger(first) && Number.isInteger(last))) throw new RangeError(`looks after chunks ${first}..${last}`);
  const looks = last - first + 1;
  if (looks === 1) return Z95;
  if (looks > EXACT_LOOKS) return simultaneousZ95(looks);
  const key = `${first}/${last}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let lo = Z95;
  let hi = simultaneousZ95(looks);
  while (hi - lo > 1e-4) {
    const mid = (lo + hi) / 2;
    if (staysInside(mid, first, last) < 0.95) lo = mid;
    else hi = mid;
  }
  const z = (lo + hi) / 2;
  memo.set(key, z);
  return z;
}

/**
 * The repeated p-value of a shift `t` standard errors from zero over the same looks as
 * repeatedZ95: the least alpha whose repeated (1 - alpha) intervals would exclude zero, that
 * is P(some look's |S_k| / sqrt(k) exceeds |t|) for a shift of zero. At most 0.05 exactly when
 * the repeated 95% interval excludes zero (up to repeatedZ95's 1e-4 tolerance on z), and, like
 * that interval, valid whichever look stopped the engagement: with no true shift it is at most
 * alpha with probability at most alpha. One look: the plain two-sided p-value. More than
 * EXACT_LOOKS looks, or a p-value below 1e-8: the Bonferroni bound (looks x the plain one),
 * which holds too and differs only in the far tail.
 */
export function repeatedP(t: number, first: number, last: number): number {
  if (!(first >= 1 && last >= first && Number.isInteger(first) && Number.isInteger(last))) throw new RangeError(`looks after chunks ${first}..${last}`);
  const z = Math.abs(t);
  if (Number.isNaN(z)) return NaN;
  if (z === 0) return 1;
  const looks = last - first + 1;
  const plain = normalTwoSidedTail(z);
  if (looks === 1) return plain;
  const bonferroni = Math.min(1, looks * plain);
  if (looks > EXACT_LOOKS || bonferroni < 1e-8) return bonferroni;
  return Math.min(bonferroni, Math.max(0, 1 - staysInside(z, first, last)));
}

/** P(|S_k| <= z sqrt(k) at every k from first to last), S_k the sum of k standard normals. */
function staysInside(z: number, first: number, last: number): number {
  const half = Math.ceil((z * Math.sqrt(last)) / GRID);
  const n = 2 * half + 1;
  let f = new Float64Array(n);
  let g = new Float64Array(n);
  const density = (s: number, variance: number) => Math.exp((-s * s) / (2 * variance)) / Math.sqrt(2 * Math.PI * variance);
  const b0 = z * Math.sqrt(first);
  for (let i = 0; i < n; i++) {
    const s = (i - half) * GRID;
    f[i] = Math.abs(s) <= b0 ? density(s, first) : 0;
  }
  const w = Math.ceil(KERNEL_SD / GRID);
  const step = new Float64Array(2 * w + 1);
  for (let j = -w; j <= w; j++) step[j + w] = density(j * GRID, 1) * GRID;
  for (let k = first + 1; k <= last; k++) {
    const b = z * Math.sqrt(k);
    for (let i = 0; i < n; i++) {
      let v = 0;
      if (Math.abs((i - half) * GRID) <= b) {
        const hiU = Math.min(n - 1, i + w);
        for (let u = Math.max(0, i - w); u <= hiU; u++) v += f[u] * step[u - i + w];
      }
      g[i] = v;
    }
    [f, g] = [g, f];
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += f[i];
  return total * GRID;
}

/**
 * z of jwsim compare's stopping rule over looks after chunks `first`..`last`: at least
 * SEQUENTIAL_Z, and never below the reported intervals' repeatedZ95, so a shift that stops
 * an engagement as "moved" always has an interval that excludes 0.
 */
export function stoppingZ(first: number, last: number): number {
  return Math.max(SEQUENTIAL_Z, repeatedZ95(first, last));
}

/**
 * Whether a paired difference with standard error `se` is settled: it moved (more than
 * z standard errors from 0), or it cannot have moved by more than `settle` (the whole
 * interval difference ± z se lies within ±settle).
 */
export function settled(difference: number, se: number, settle: number, z = SEQUENTIAL_Z): boolean {
  const half = z * se;
  return Math.abs(difference) > half || Math.abs(difference) + half < settle;
}
