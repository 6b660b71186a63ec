// Rolling dice: the sampled path of the kernel. One Roller per caller; it owns its scratch
// arrays, so a roll allocates nothing.
import type { RandomStream } from '../rng/stream.js';
import type { DiceConfig } from './config.js';
import { FlexChooser } from './flex.js';
import type { Pool } from './pool.js';
import { applyMacro, codeOfKey, keyOfCounts, setCap } from './sets.js';

export class Roller {
  private readonly counts = new Uint8Array(7);
  private readonly macroCounts = new Uint8Array(7);
  private readonly chooser = new FlexChooser();
  constructor(readonly cfg: DiceConfig) {}

  /**
   * One roll of the pool, without rerolls: base + flex dice first, then the Macro dice
   * (that order is what scripted dice follow), then the Flex discard and the Macro Pool.
   */
  rollOnce(pool: Pool, rng: RandomStream): number {
    const counts = this.counts;
    const macroCounts = this.macroCounts;
    counts.fill(0);
    macroCounts.fill(0);
    const rolled = pool.base + pool.flex;
    for (let i = 0; i < rolled; i++) counts[rng.d6()]++;
    const macro = pool.macro;
    const macroDice = macro < 0 ? -macro : macro;
    for (let i = 0; i < macroDice; i++) macroCounts[rng.d6()]++;
    const sign = macro > 0 ? 1 : macro < 0 ? -1 : 0;
    const cap = setCap(macro, this.cfg.negativeMacroMode);
    if (pool.flex === 0) {
      const key = keyOfCounts(counts, cap);
      return sign === 0 ? codeOfKey(key) : applyMacro(key, macroCounts, sign, this.cfg.negativeMacroMode);
    }
    return this.chooser.choose(this.cfg, counts, pool.base, cap, macroCounts, sign);
  }

  /**
   * A whole Unopposed Roll: roll, then while a reroll is left and the outcome is one to
   * reroll, roll everything again; the new outcome replaces the old (dice.md AMB-14/15/16).
   */
  unopposed(pool: Pool, rng: RandomStream): number {
    let code = this.rollOnce(pool, rng);
    const when = this.cfg.rerollWhen;
    for (let left = pool.rerolls; left > 0 && when[code] === 1; left--) code = this.rollOnce(pool, rng);
    return code;
  }
}
