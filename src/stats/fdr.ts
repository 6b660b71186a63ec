// False discovery rate across many comparisons (jwsim compare's key metrics).

/**
 * Benjamini-Hochberg adjusted p-values (q-values) of `p`, in the same order: q_i is the
 * smallest false discovery rate at which the step-up procedure would still call test i a
 * discovery, min over ranks j >= rank(i) of m p_(j) / j, at most 1. Calling every test with
 * q <= 0.05 a discovery keeps the expected share of false ones among them at most 5% when
 * the tests are independent (or positively dependent). NaN entries are left out of the
 * family and get NaN.
 */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const order = p.map((_, i) => i).filter((i) => !Number.isNaN(p[i]));
  // Ascending p; ties in input order, so equal inputs always give equal outputs.
  order.sort((a, b) => p[a] - p[b] || a - b);
  const m = order.length;
  const q = p.map(() => NaN);
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const i = order[r];
    running = Math.min(running, (m * p[i]) / (r + 1));
    q[i] = running;
  }
  return q;
}
