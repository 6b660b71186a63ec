// V8 settings for jwsim's processes: the command calls tuneV8() as it starts, and so does every
// benchmark (benchmarks/harness.ts), so the benchmarks time the engine as the command runs it.
import { setFlagsFromString } from 'node:v8';

let tuned = false;

/**
 * Young-generation collections (scavenges) run on the thread that allocates, without V8's
 * parallel helper tasks. A simulation's garbage is small and short-lived (a full battle leaves
 * about 190 KB, a scavenge comes every few dozen battles and finds little alive), so one thread
 * does it quickly; the helpers it would otherwise hand work to compete for the cores with the
 * job's own worker threads (a pool fills every core), and each scavenge waits for all of them.
 * On the 2-core host of 2026-12-02, in alternating runs of 3,000 beacon-assault battles on one
 * thread, scavenging took 34-108 ms with this setting against 39-176 ms without it (the larger
 * figures when the other core was busy). The flag is read at each scavenge, so setting it after
 * start-up is safe (unlike --single-threaded-gc, which aborts V8 when set then). Idempotent.
 */
export function tuneV8(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--no-parallel-scavenge');
}
