// Dice kernel benchmark (ARCHITECTURE.md §8): how fast the engines can draw attack outcomes.
//
// Every figure is a ratio against baselines measured in this same run, since absolute times
// drift on shared machines:
//   - the raw Alea draw rate of openStream().next(), the physical limit (one draw per outcome);
//   - a naive roller written without care (arrays, a Map, objects per Result per roll).
// Targets: an alias-sampled outcome costs at most 3 raw draws, and is at least 10x the naive.
// The direct Roller path is measured for information only. Single thread, `npm run bench`.
import { AliasSampler } from '../src/dice/alias.js';
import { exactDistribution } from '../src/dice/exact.js';
import { MAG_D, MAG_Q } from '../src/dice/outcome.js';
import { describePool, type Pool } from '../src/dice/pool.js';
import { Roller } from '../src/dice/roll.js';
import { pAtLeast } from '../src/dice/summary.js';
import { compileDiceConfig } from '../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../src/rules/interpretations.js';
import { DEFAULT_RULES_VERSION, getRulesVersion } from '../src/rules/registry.js';
import { DEFAULT_SEED, openStream, type RandomStream } from '../src/rng/stream.js';
import { METHOD, checksum, measure, printTable, writeSummary, type Case } from './harness.js';

const SANITY_ROLLS = 200_000; // naive vs exact P(best >= D); standard error <= 0.0012
const SANITY_TOL = 0.01;
const MAX_DRAWS_PER_OUTCOME = 3;
const MIN_SPEEDUP_VS_NAIVE = 10;

const mega = (perSec: number): string => (perSec / 1e6).toFixed(2);
const stream = (purpose: string): RandomStream => openStream({ seed: DEFAULT_SEED, experiment: 'bench', purpose, chunk: 0 });

// --- The cases -------------------------------------------------------------------------

function rawDraws(rng: RandomStream): Case {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += rng.next();
    return acc;
  };
}

function d6Draws(rng: RandomStream): Case {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += rng.d6();
    return acc;
  };
}

function aliasDraws(sampler: AliasSampler, rng: RandomStream): Case {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += sampler.sample(rng);
    return acc;
  };
}

function rollerDraws(roller: Roller, pool: Pool, rng: RandomStream): Case {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += roller.unopposed(pool, rng);
    return acc;
  };
}

// The naive baseline: the straightforward way to write one roll, allocation and all.
// It reads only the best Magnitude (0 = [N], 1 = D, 2 = T, 3 = Q), with the default LEVEL
// reading of negative Macro, and no Flex or rerolls. Base dice are rolled before Macro dice
// from the same kind of stream, as the Roller does.
function naiveBest(base: number, macro: number, rng: RandomStream): number {
  const dice: number[] = [];
  for (let i = 0; i < base; i++) dice.push(Math.floor(rng.next() * 6) + 1);
  const counts = new Map<number, number>();
  for (const d of dice) counts.set(d, (counts.get(d) ?? 0) + 1);
  let results: Array<{ value: number; magnitude: number }> = [];
  for (const [value, count] of counts) {
    if (count >= 2) results.push({ value, magnitude: Math.min(count - 1, MAG_Q) });
  }
  const macroDice: number[] = [];
  for (let i = 0; i < Math.abs(macro); i++) macroDice.push(Math.floor(rng.next() * 6) + 1);
  results = results
    .map((r) => {
      const hits = macroDice.filter((m) => m === r.value).length;
      const magnitude = macro > 0 ? Math.min(r.magnitude + hits, MAG_Q) : Math.max(r.magnitude - hits, 0);
      return { value: r.value, magnitude };
    })
    .filter((r) => r.magnitude > 0);
  return results.reduce((best, r) => Math.max(best, r.magnitude), 0);
}

function naiveDraws(pool: Pool, rng: RandomStream): Case {
  return (n) => {
    let acc = 0;
    for (let i = 0; i < n; i++) acc += naiveBest(pool.base, pool.macro, rng);
    return acc;
  };
}

// --- The run ---------------------------------------------------------------------------

const pools: Pool[] = [];
for (const macro of [0, 2, -2]) for (let base = 2; base <= 8; base++) pools.push({ base, flex: 0, macro, rerolls: 0 });
for (const macro of [0, 2]) for (const base of [3, 5, 8]) pools.push({ base, flex: 1, macro, rerolls: 0 });

const cfg = compileDiceConfig(getRulesVersion(DEFAULT_RULES_VERSION), DEFAULT_INTERPRETATIONS);
const began = performance.now();

const drawsPerSec = measure(rawDraws(stream('raw')));
const d6PerSec = measure(d6Draws(stream('d6')));
console.log(`node ${process.version}, 1 thread\nraw Alea draws: ${mega(drawsPerSec)} M/s    d6(): ${mega(d6PerSec)} M/s`);
console.log(`measuring ${pools.length} pools (alias, direct roll, naive)...\n`);

const warnings: string[] = [];

/** Every figure of one pool: alias, direct roll, naive (no Flex), and the naive sanity check. */
function benchPool(pool: Pool) {
  const name = describePool(pool);
  const dist = exactDistribution(cfg, pool);
  const aliasPerSec = measure(aliasDraws(new AliasSampler(dist), stream(`alias ${name}`)));
  const rollerPerSec = measure(rollerDraws(new Roller(cfg), pool, stream(`roll ${name}`)));
  const pExact = pAtLeast(dist, MAG_D);
  let naivePerSec: number | null = null;
  let pNaive: number | null = null;
  if (pool.flex === 0) {
    naivePerSec = measure(naiveDraws(pool, stream(`naive ${name}`)));
    // The baseline must compute the same thing, or the ratio to it means nothing.
    const rng = stream(`sanity ${name}`);
    let hits = 0;
    for (let i = 0; i < SANITY_ROLLS; i++) if (naiveBest(pool.base, pool.macro, rng) >= MAG_D) hits++;
    pNaive = hits / SANITY_ROLLS;
    if (Math.abs(pNaive - pExact) > SANITY_TOL) {
      warnings.push(`${name}: naive P(>=D) ${pNaive.toFixed(4)} vs exact ${pExact.toFixed(4)}`);
    }
  }
  const drawsPerOutcome = drawsPerSec / aliasPerSec;
  const speedup = naivePerSec === null ? null : aliasPerSec / naivePerSec;
  return {
    pool: name,
    base: pool.base,
    flex: pool.flex,
    macro: pool.macro,
    aliasPerSec,
    drawsPerOutcome,
    rollerPerSec,
    naivePerSec,
    speedupVsNaive: speedup,
    pExactAtLeastD: pExact,
    pNaiveAtLeastD: pNaive,
    passDraws: drawsPerOutcome <= MAX_DRAWS_PER_OUTCOME,
    passNaive: speedup === null ? null : speedup >= MIN_SPEEDUP_VS_NAIVE,
  };
}
const rows = pools.map(benchPool);
const seconds = (performance.now() - began) / 1000;

// --- Report ----------------------------------------------------------------------------

const mark = (ok: boolean | null): string => (ok === false ? '!' : ' ');
const header = ['pool', 'alias M/s', 'draws/outcome', 'x naive', 'naive M/s', 'roll M/s', 'P(>=D) exact', 'naive'];
const table = rows.map((r) => [
  r.pool,
  mega(r.aliasPerSec),
  r.drawsPerOutcome.toFixed(2) + mark(r.passDraws),
  r.speedupVsNaive === null ? '-' : r.speedupVsNaive.toFixed(1) + mark(r.passNaive),
  r.naivePerSec === null ? '-' : mega(r.naivePerSec),
  mega(r.rollerPerSec),
  r.pExactAtLeastD.toFixed(4),
  r.pNaiveAtLeastD === null ? '-' : r.pNaiveAtLeastD.toFixed(4),
]);
printTable(header, table);

const passDraws = rows.every((r) => r.passDraws);
const passNaive = rows.every((r) => r.passNaive !== false);
console.log(`\ntarget draws/outcome <= ${MAX_DRAWS_PER_OUTCOME}: ${passDraws ? 'PASS' : 'FAIL'}`);
console.log(`target alias >= ${MIN_SPEEDUP_VS_NAIVE}x naive (pools without Flex): ${passNaive ? 'PASS' : 'FAIL'}`);
for (const w of warnings) console.warn(`WARNING naive baseline disagrees with exact: ${w}`);
console.log(`(! marks a pool missing a target; ${seconds.toFixed(1)} s; checksum ${checksum().toFixed(3)})`);

const summary = {
  rules: DEFAULT_RULES_VERSION,
  interpretations: DEFAULT_INTERPRETATIONS,
  method: METHOD,
  seconds,
  rawDrawsPerSec: drawsPerSec,
  d6PerSec,
  targets: {
    maxDrawsPerOutcome: MAX_DRAWS_PER_OUTCOME,
    minSpeedupVsNaive: MIN_SPEEDUP_VS_NAIVE,
    passDrawsPerOutcome: passDraws,
    passSpeedupVsNaive: passNaive,
  },
  sanity: { rolls: SANITY_ROLLS, tolerance: SANITY_TOL, warnings },
  pools: rows,
  checksum: checksum(),
};
writeSummary('dice', summary);
