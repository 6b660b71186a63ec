// The --progress line of jwsim run: the rate reads sensibly for engagements (millions of
// trials a second) and for battles (hundreds of games a second, once shown as "0k").
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/run.js';

const line = (trials: number, elapsedMs: number) => progressLine({ slotsDone: 1, slots: 3, trials, elapsedMs, chunksDone: 2, chunksLeft: 4 });

describe('progress line', () => {
  it('thousands for fast engagements, whole numbers for battles, one decimal below 10', () => {
    expect(line(3_000_000, 2000)).toBe('\r1/3 engagements, 1500k trials/s, ETA 4 s   ');
    expect(line(1200, 2000)).toBe('\r1/3 engagements, 600 trials/s, ETA 4 s   ');
    expect(line(9, 2000)).toBe('\r1/3 engagements, 4.5 trials/s, ETA 4 s   ');
    expect(line(0, 0)).toBe('\r1/3 engagements, 0.0 trials/s, ETA 0 s   ');
  });
});
