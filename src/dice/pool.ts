// A roll's pools: Base, Flex, Macro, and how many rerolls it may take.
// v1.2.2 /dice/rolls "Unopposed Roll": determine the Base Pool, then the Flex dice, then the
// Macro Pool; roll; discard Flex; read; reroll if wanted and allowed.
import type { DiceConfig } from './config.js';

/** Bounds of the kernel; the exact engine and the CLI validate against these. */
export const MAX_ROLLED_BASE_DICE = 12; // base + flex
export const MAX_MACRO_DICE = 6; // |macro|
export const MAX_REROLLS = 6;

export interface Pool {
  /** Kept base dice (after Base Modifiers, floored at 0). */
  readonly base: number;
  /** Extra dice rolled with the base dice and then discarded. */
  readonly flex: number;
  /** Signed Macro Pool (armor counts negative). */
  readonly macro: number;
  /** Rerolls this roll may take (already limited by the reroll option). */
  readonly rerolls: number;
}

export interface PoolRequest {
  base: number;
  /** Base Modifiers (+Yd6 / -Yd6), v1.2.1 /dice/base_dice. */
  baseModifiers?: readonly number[];
  /** One entry per source granting Flex dice. */
  flexGrants?: readonly number[];
  /** Net Macro: weapon Macro minus Armor and other penalties. */
  macro?: number;
  /** Number of rules sources that permit a reroll of this roll. */
  rerollSources?: number;
}

export function resolvePool(cfg: DiceConfig, req: PoolRequest): Pool {
  let base = req.base;
  for (const m of req.baseModifiers ?? []) base += m;
  // dice.md AMB-03: the Base Pool never goes below 0 dice.
  if (base < 0) base = 0;
  let flex = 0;
  for (const g of req.flexGrants ?? []) flex = cfg.flexStackingSum ? flex + g : Math.max(flex, g);
  const rerolls = Math.min(req.rerollSources ?? 0, cfg.maxRerolls);
  return { base, flex, macro: req.macro ?? 0, rerolls };
}

export function describePool(p: Pool): string {
  const parts = [`${p.base} base`];
  if (p.flex) parts.push(`${p.flex} flex`);
  if (p.macro) parts.push(`${p.macro > 0 ? '+' : ''}${p.macro} macro`);
  if (p.rerolls) parts.push(`${p.rerolls} reroll${p.rerolls > 1 ? 's' : ''}`);
  return parts.join(', ');
}
