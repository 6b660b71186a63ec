// Accumulating what engagements did to a target: weighted, so the same code sums exact
// probabilities (weight p per outcome) and Monte Carlo trials (weight 1 each).
import type { CombatState } from './state.js';
import type { DamageTally } from './damage.js';

export interface DamageSummary {
  /** Total weight: 1 for exact sums, the number of trials for Monte Carlo. */
  weight: number;
  pDestroyed: number;
  /** Crippled and not destroyed. */
  pCrippled: number;
  meanStructureDamage: number;
  meanRatingDamage: { defense: number; sensors: number; thrusters: number };
  meanCriticals: number;
  /** P(exactly k Structure lost), k = 0.. */
  structureDamage: number[];
  /** Standard errors (Monte Carlo only). */
  se?: { pDestroyed: number; pCrippled: number; meanStructureDamage: number };
}

export class DamageStats {
  private w = 0;
  private destroyed = 0;
  private crippled = 0;
  private structure = 0;
  private structureSq = 0;
  private defense = 0;
  private sensors = 0;
  private thrusters = 0;
  private criticals = 0;
  private readonly hist: number[] = [];

  add(weight: number, target: CombatState, tally: DamageTally): void {
    this.w += weight;
    if (target.destroyed) this.destroyed += weight;
    else if (target.crippled) this.crippled += weight;
    this.structure += weight * tally.structure;
    this.structureSq += weight * tally.structure * tally.structure;
    this.defense += weight * tally.defense;
    this.sensors += weight * tally.sensors;
    this.thrusters += weight * tally.thrusters;
    this.criticals += weight * tally.criticals;
    while (this.hist.length <= tally.structure) this.hist.push(0);
    this.hist[tally.structure] += weight;
  }

  /** `sampled`: the weights are trial counts, so standard errors are meaningful. */
  summary(sampled: boolean): DamageSummary {
    const w = this.w || 1;
    const pDestroyed = this.destroyed / w;
    const pCrippled = this.crippled / w;
    const mean = this.structure / w;
    const out: DamageSummary = {
      weight: this.w,
      pDestroyed,
      pCrippled,
      meanStructureDamage: mean,
      meanRatingDamage: { defense: this.defense / w, sensors: this.sensors / w, thrusters: this.thrusters / w },
      meanCriticals: this.criticals / w,
      structureDamage: this.hist.map((x) => x / w),
    };
    if (sampled) {
      const n = this.w;
      const variance = Math.max(0, this.structureSq / w - mean * mean);
      out.se = {
        pDestroyed: Math.sqrt((pDestroyed * (1 - pDestroyed)) / n),
        pCrippled: Math.sqrt((pCrippled * (1 - pCrippled)) / n),
        meanStructureDamage: Math.sqrt(variance / n),
      };
    }
    return out;
  }
}
