// The changing state of one model during an engagement: what damage has taken away.
// One object per model, reset between trials, so simulations allocate nothing per trial.
import { SYSTEM_TRAITS, type TraitName } from '../units/catalogue.js';
import type { UnitCard } from '../units/types.js';

/** A System trait's bit in CombatState.disabledSystems and .systems (its index in SYSTEM_TRAITS). */
export function systemBit(trait: TraitName): number {
  const i = SYSTEM_TRAITS.indexOf(trait);
  if (i < 0) throw new Error(`${trait} is not a System trait`);
  return 1 << i;
}
export const CLOAK = systemBit('Cloak');
export const COUNTERMEASURES = systemBit('Countermeasures');
/** Barrier's System bit, or 0 where it is not a System trait (then the card alone says). */
const BARRIER_SYSTEM = SYSTEM_TRAITS.includes('Barrier') ? systemBit('Barrier') : 0;

export class CombatState {
  /** Bits (systemBit) of the System traits the card has. */
  readonly systems: number;
  structure = 0;
  defense = 0;
  sensors = 0;
  thrusters = 0;
  /** Fire Control lost to critical hits. */
  fireControlLost = 0;
  /** Bit i set: SYSTEM_TRAITS[i] knocked out by a critical hit. */
  disabledSystems = 0;
  crippled = false;
  destroyed = false;
  /** The card has the Barrier trait (hasBarrier). */
  private readonly barrierTrait: boolean;

  constructor(readonly unit: UnitCard) {
    this.systems = SYSTEM_TRAITS.reduce((bits, t, i) => (unit.traits.has(t) ? bits | (1 << i) : bits), 0);
    this.barrierTrait = unit.traits.has('Barrier');
    this.reset();
  }

  reset(): void {
    const u = this.unit;
    this.structure = u.structure;
    this.defense = u.defense;
    this.sensors = u.sensors;
    this.thrusters = u.thrusters;
    this.fireControlLost = 0;
    this.disabledSystems = 0;
    this.crippled = false;
    this.destroyed = false;
  }

  copyFrom(other: CombatState): void {
    this.structure = other.structure;
    this.defense = other.defense;
    this.sensors = other.sensors;
    this.thrusters = other.thrusters;
    this.fireControlLost = other.fireControlLost;
    this.disabledSystems = other.disabledSystems;
    this.crippled = other.crippled;
    this.destroyed = other.destroyed;
  }

  /** The card has the System trait of `bit` (systemBit) and it is not knocked out; hasWorking for hot paths. */
  systemWorking(bit: number): boolean {
    return (this.systems & ~this.disabledSystems & bit) !== 0;
  }

  /**
   * hasWorking('Barrier') without the search of the System list and the lookup in the card's
   * trait set (the point defence roll of Mass Drivers and Kinetic Cannon asks it).
   */
  hasBarrier(): boolean {
    return BARRIER_SYSTEM === 0 ? this.barrierTrait : this.systemWorking(BARRIER_SYSTEM);
  }

  /** The model has the trait and, for a System trait, it is not knocked out. */
  hasWorking(trait: TraitName): boolean {
    const i = SYSTEM_TRAITS.indexOf(trait);
    return i < 0 ? this.unit.traits.has(trait) : this.systemWorking(1 << i);
  }

  /**
   * The state in words for traces: "destroyed", "crippled", or the Structure left, followed by
   * every rating below its printed value and every System knocked out
   * ("structure 4; Defense 1 of 3, Thrusters 0 of 1; knocked out: Cloak").
   */
  describe(): string {
    if (this.destroyed) return 'destroyed';
    if (this.crippled) return 'crippled';
    const u = this.unit;
    const lost: string[] = [];
    if (this.defense < u.defense) lost.push(`Defense ${this.defense} of ${u.defense}`);
    if (this.sensors < u.sensors) lost.push(`Sensors ${this.sensors} of ${u.sensors}`);
    if (this.thrusters < u.thrusters) lost.push(`Thrusters ${this.thrusters} of ${u.thrusters}`);
    if (this.fireControlLost > 0) lost.push(`Fire Control ${Math.max(0, u.fireControl - this.fireControlLost)} of ${u.fireControl}`);
    const out = SYSTEM_TRAITS.filter((_, i) => (this.disabledSystems & (1 << i)) !== 0);
    return `structure ${this.structure}${lost.length ? `; ${lost.join(', ')}` : ''}${out.length ? `; knocked out: ${out.join(', ')}` : ''}`;
  }

  /**
   * Fire Control now: a Crippled model fires once (v1.2.1 crippled squadrons; a crippled
   * capital ship that fights on, game.md GM-21 alternative).
   */
  fireControl(): number {
    const fc = Math.max(0, this.unit.fireControl - this.fireControlLost);
    return this.crippled ? Math.min(fc, 1) : fc;
  }
}
