// Applying an attack's Results to its target (rules v1.2.1 / v1.2.2 /attack/damage).
// Deterministic given the outcome code, so exact attack distributions need no sampling here.
import { DAMAGE_ORDER, DAMAGE_ORDER_STRIDE, MAG_D, MAG_T } from '../dice/outcome.js';
import type { CompiledRules } from '../rules/compile.js';
import type { SystemRating } from '../rules/types.js';
import { SYSTEM_TRAITS } from '../units/catalogue.js';
import type { CombatState } from './state.js';

/** What one or more attacks did; the caller resets or accumulates it. */
export class DamageTally {
  structure = 0;
  defense = 0;
  sensors = 0;
  thrusters = 0;
  criticals = 0;
  reset(): void {
    this.structure = this.defense = this.sensors = this.thrusters = this.criticals = 0;
  }
}

const RATINGS: readonly SystemRating[] = ['defense', 'sensors', 'thrusters'];

/** Squadrons crippled at their small boxes: the card's value, else half the start rounded down (CrippledThreshold). */
export function crippledThreshold(state: CombatState): number {
  return state.unit.crippledAt ?? Math.floor(state.unit.structure / 2);
}

export function applyResults(rules: CompiledRules, target: CombatState, code: number, tally: DamageTally): void {
  if (target.destroyed || code === 0) return;
  if (target.unit.isCapital) applyCapital(rules, target, code, tally);
  else applySquadron(rules, target, code, tally);
}

// Squadron damage uses Magnitude only; each Result applies separately (v1.2.1 and v1.2.2 damage pages).
function applySquadron(rules: CompiledRules, t: CombatState, code: number, tally: DamageTally): void {
  const table = rules.combat.squadronDamage;
  const at = code * DAMAGE_ORDER_STRIDE;
  for (let j = 1, n = DAMAGE_ORDER[at]; j <= n && !t.destroyed; j++) {
    const mag = DAMAGE_ORDER[at + j] >> 3;
    const loss = mag === MAG_D ? table.D : mag === MAG_T ? table.T : table.Q;
    const lost = loss < 0 ? t.structure : Math.min(loss, t.structure);
    t.structure -= lost;
    tally.structure += lost;
    if (t.structure === 0) t.destroyed = true;
  }
  if (!t.destroyed && rules.flags.squadronCrippling && t.structure <= crippledThreshold(t)) t.crippled = true;
}

// Capital ships: lowest Magnitude first, then lowest Value (v1.2.2 /attack/damage; v1.2.1 by
// INTERPRETATION Order121). [D] damages a rating by Value; [T] / [Q+] cost Structure and criticals.
function applyCapital(rules: CompiledRules, t: CombatState, code: number, tally: DamageTally): void {
  const c = rules.combat;
  const at = code * DAMAGE_ORDER_STRIDE;
  for (let j = 1, n = DAMAGE_ORDER[at]; j <= n && !t.destroyed; j++) {
    const e = DAMAGE_ORDER[at + j];
    const mag = e >> 3;
    const face = e & 7;
    if (mag === MAG_D) {
      hitRating(rules, t, c.valueToRating[face - 1], tally);
    } else {
      const hit = mag === MAG_T ? c.capitalT : c.capitalQ;
      loseStructure(rules, t, hit.structure, tally);
      for (let k = 0; k < hit.criticals && !t.destroyed; k++) critical(rules, t, face, tally);
    }
  }
}

function hitRating(rules: CompiledRules, t: CombatState, rating: SystemRating, tally: DamageTally): void {
  // Each rating by name: a property chosen by a variable name is a slow keyed access.
  if (rating === 'defense') {
    if (t.defense > 0) {
      t.defense--;
      tally.defense++;
      return;
    }
  } else if (rating === 'sensors') {
    if (t.sensors > 0) {
      t.sensors--;
      tally.sensors++;
      return;
    }
  } else if (t.thrusters > 0) {
    t.thrusters--;
    tally.thrusters++;
    return;
  }
  // ZeroRatingHit (combat.md §9.5): the rating is already at 0.
  const mode = rules.flags.zeroRatingHit;
  if (mode === 1) {
    loseStructure(rules, t, 1, tally);
  } else if (mode === 2) {
    const start = RATINGS.indexOf(rating);
    for (let k = 1; k < 3; k++) {
      const next = RATINGS[(start + k) % 3];
      if (t[next] > 0) {
        t[next]--;
        tally[next]++;
        return;
      }
    }
  }
}

function loseStructure(rules: CompiledRules, t: CombatState, n: number, tally: DamageTally): void {
  if (n <= 0 || t.structure === 0) return; // Overkill: nothing below 0 (combat.md §9.8)
  const lost = Math.min(n, t.structure);
  t.structure -= lost;
  tally.structure += lost;
  if (t.structure > 0) return;
  if (rules.combat.capitalAtZero === 'crippled') {
    t.crippled = true; // v1.2.1: a capital ship at 0 Structure is Crippled
    return;
  }
  // v1.2.2: roll on the Catastrophic Damage Table, indexed by ratings at 0 (CatTrigger, combat.md §9.7).
  const zeros = (t.defense === 0 ? 1 : 0) + (t.sensors === 0 ? 1 : 0) + (t.thrusters === 0 ? 1 : 0);
  if (rules.combat.catastrophicTable[zeros] === 'destroyed') t.destroyed = true;
  else t.crippled = true;
}

function critical(rules: CompiledRules, t: CombatState, face: number, tally: DamageTally): void {
  tally.criticals++;
  if (!rules.flags.criticals) return;
  switch (rules.combat.criticalTable[face - 1]) {
    case 'disable_system': {
      // The attacker picks which System trait; we take the first working one.
      for (let i = 0; i < SYSTEM_TRAITS.length; i++) {
        if (t.systemWorking(1 << i)) {
          t.disabledSystems |= 1 << i;
          return;
        }
      }
      return;
    }
    case 'defense':
    case 'sensors':
    case 'thrusters': {
      const r = rules.combat.criticalTable[face - 1] as SystemRating;
      if (t[r] > 0) {
        t[r]--;
        tally[r]++;
      }
      return;
    }
    case 'structure':
      loseStructure(rules, t, 1, tally);
      return;
    case 'fire_control':
      if (t.unit.fireControl - t.fireControlLost > 0) t.fireControlLost++;
      return;
    default:
      return;
  }
}
