// Named seeded random streams: the only randomness any part of jwsim sees.
//
// A stream is named by (seed, experiment, purpose, chunk) (ARCHITECTURE.md §4.6). The rules
// version is deliberately not part of the name, so two rules versions replay the same dice.
// The generator is seedrandom's Alea: small state, fast, and good enough statistically for
// dice; the default ARC4 generator is several times slower and is never used.
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

class AleaStream implements RandomStream {
  private readonly prng: () => number;
  constructor(key: string) {
    this.prng = seedrandom.alea(key);
  }
  next(): number {
    return this.prng();
  }
  d6(): number {
    return ((this.prng() * 6) | 0) + 1;
  }
}

export function openStream(name: StreamName): RandomStream {
  return new AleaStream(streamKey(name));
}

/** The seed used when a command is given none; every command prints the seed it used. */
export const DEFAULT_SEED = '20261129';
