import { describe, expect, it } from 'vitest';
import { AliasSampler, pickWritten } from '../../src/dice/alias.js';
import { exactDistribution } from '../../src/dice/exact.js';
import { OUTCOME_CODES } from '../../src/dice/outcome.js';
import { resolvePool } from '../../src/dice/pool.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';
import { openStream } from '../../src/rng/stream.js';

const cfg = compileDiceConfig(RULES_VERSIONS['1.2.2'], DEFAULT_INTERPRETATIONS);

describe('alias sampler', () => {
  for (const req of [{ base: 2 }, { base: 5, flexGrants: [2], macro: 2 }, { base: 8, macro: -3 }, { base: 12, macro: 6 }]) {
    it(`reproduces the exact distribution over a fine grid of u (${JSON.stringify(req)})`, () => {
      const dist = exactDistribution(cfg, resolvePool(cfg, req));
      const sampler = new AliasSampler(dist);
      // Integrate pick(u) over [0,1) exactly: within a column, pick switches once, at the threshold.
      const mass = new Float64Array(OUTCOME_CODES);
      const n = sampler.size;
      for (let i = 0; i < n; i++) {
        const t = sampler.columnThreshold(i);
        mass[sampler.pick((i + t / 2) / n)] += t / n;
        if (t < 1) mass[sampler.pick((i + (1 + t) / 2) / n)] += (1 - t) / n;
      }
      for (let c = 0; c < OUTCOME_CODES; c++) expect(mass[c]).toBeCloseTo(dist[c], 12);
    });
  }

  it('draws one uniform number per outcome and agrees with exact within 4 SE', () => {
    const dist = exactDistribution(cfg, resolvePool(cfg, { base: 4, macro: 1 }));
    const sampler = new AliasSampler(dist);
    const rng = openStream({ seed: '1', experiment: 'alias', purpose: 'test', chunk: 0 });
    const N = 200_000;
    const counts = new Float64Array(OUTCOME_CODES);
    for (let t = 0; t < N; t++) counts[sampler.sample(rng)]++;
    for (let c = 0; c < OUTCOME_CODES; c++) {
      const p = dist[c];
      if (p === 0) expect(counts[c]).toBe(0);
      else expect(Math.abs(counts[c] / N - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / N));
    }
  });

  it('writes a copy that picks as the sampler does (the battle Gunnery rolls from such copies)', () => {
    const dist = exactDistribution(cfg, resolvePool(cfg, { base: 5, flexGrants: [2], macro: 2 }));
    const sampler = new AliasSampler(dist);
    const out = new Float64Array(3 + 1 + 2 * sampler.size + 2);
    expect(sampler.writeTo(out, 3)).toBe(4 + 2 * sampler.size);
    expect(out[3]).toBe(sampler.size);
    for (let j = 0; j < 1000; j++) {
      const u = (j + 0.37) / 1000;
      // Gunnery.fireAt rolls from such a copy.
      expect(pickWritten(out, 3, u)).toBe(sampler.pick(u));
    }
  });

  it('refuses an empty distribution', () => {
    expect(() => new AliasSampler(new Float64Array(OUTCOME_CODES))).toThrow(/empty/);
  });
});
