// The sequential stopping decision of a paired comparison (jwsim compare, src/sim/compare.ts).

/** Standard errors a shift must be from zero, or within `settle`, to stop (3 rather than 1.96: it is looked at after every chunk). */
export const SEQUENTIAL_Z = 3;

/**
 * Whether a paired difference with standard error `se` is settled: it moved (more than
 * SEQUENTIAL_Z standard errors from 0), or it cannot have moved by more than `settle`
 * (the whole interval difference ± SEQUENTIAL_Z se lies within ±settle).
 */
export function settled(difference: number, se: number, settle: number): boolean {
  const half = SEQUENTIAL_Z * se;
  return Math.abs(difference) > half || Math.abs(difference) + half < settle;
}
