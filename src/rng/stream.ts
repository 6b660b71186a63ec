// Named seeded random streams: the only randomness any part of jwsim sees.
//
// A stream is named by (seed, experiment, purpose, chunk) (ARCHITECTURE.md §4.6). The rules
// version is deliberately not part of the name, so two rules versions replay the same dice.
// The generator is Alea (seedrandom's implementation seeds it from the name); we step it
// here, on plain fields, so drawing allocates nothing, and the numbers are exactly those of
// seedrandom's alea for the same seed. The default ARC4 generator is never used.
import seedrandom from 'seedrandom';

export interface RandomStream {
  /** Uniform double in [0, 1). */
  next(): number;
  /** A six-sided die, 1..6. */
  d6(): number;
}

export interface StreamName {
  seed: string;
  experiment: string;
  purpose: string;
  chunk: number;
}

/** The text a stream is seeded with; stable across releases, since results depend on it. */
export function streamKey(name: StreamName): string {
  return `jwsim/1|${name.seed}|${name.experiment}|${name.purpose}|${name.chunk}`;
}

interface AleaState {
  c: number;
  s0: number;
  s1: number;
  s2: number;
}

class AleaStream implements RandomStream {
  private c = 1;
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;

  constructor(state: AleaState) {
    this.set(state);
  }

  set(state: AleaState): void {
    this.c = state.c;
    this.s0 = state.s0;
    this.s1 = state.s1;
    this.s2 = state.s2;
  }

  // Alea's step (Johannes Baagoe's algorithm, as in seedrandom/lib/alea.js).
  next(): number {
    const t = 2091639 * this.s0 + this.c * 2.3283064365386963e-10; // 2^-32
    this.s0 = this.s1;
    this.s1 = this.s2;
    return (this.s2 = t - (this.c = t | 0));
  }

  d6(): number {
    return ((this.next() * 6) | 0) + 1;
  }
}

function seededState(key: string): AleaState {
  return (seedrandom.alea(key, { state: true }) as unknown as { state(): AleaState }).state();
}

export function openStream(name: StreamName): RandomStream {
  return new AleaStream(seededState(streamKey(name)));
}

/** splitmix32: a well-mixed 32-bit step, used to derive per-trial states. */
function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * One stream per trial of a named stream, for paired comparisons: trial t's state is
 * derived from the name's seeded state and t through splitmix32, so any trial can be
 * replayed on its own. Reuses one generator object: at(t) allocates nothing.
 */
export class TrialStreams {
  private readonly base: number;
  private readonly stream: AleaStream;
  private readonly state: AleaState = { c: 1, s0: 0, s1: 0, s2: 0 };

  constructor(name: StreamName) {
    const s = seededState(streamKey(name));
    this.base = (s.s0 * 0x100000000) ^ (s.s1 * 0x100000000) ^ (s.s2 * 0x100000000);
    this.stream = new AleaStream(s);
  }

  /** The stream of trial t, from its start. */
  at(t: number): RandomStream {
    const a = splitmix32(this.base ^ Math.imul(t, 0x27d4eb2d));
    const b = splitmix32(a);
    const c = splitmix32(b);
    this.state.s0 = a * 2.3283064365386963e-10;
    this.state.s1 = b * 2.3283064365386963e-10;
    this.state.s2 = c * 2.3283064365386963e-10;
    this.state.c = 1;
    this.stream.set(this.state);
    for (let i = 0; i < 4; i++) this.stream.next(); // let the fresh state mix
    return this.stream;
  }
}

/** The seed used when a command is given none; every command prints the seed it used. */
export const DEFAULT_SEED = '20261129';
