// A unit card as the engines read it: plain numbers, validated once at load time.
import type { TraitName, WeaponClass } from './catalogue.js';

export type Arc = 'F' | 'P' | 'S' | 'R' | 'T';
export type UnitType = 'capital_ship' | 'exo_armor' | 'fighter';

export interface WeaponLine {
  /** Position on the card (0-based), used in placeholder paths. */
  readonly index: number;
  readonly name: string;
  readonly cls: WeaponClass;
  readonly count: number;
  /** Dice against capital ships / squadrons; null when the weapon cannot attack that type. */
  readonly ac: number | null;
  readonly as: number | null;
  readonly macro: number;
  /** Arcs it fires in; squadron weapons fire in any direction (T). */
  readonly arcs: readonly Arc[];
  readonly traits: ReadonlyMap<TraitName, number>;
}

export interface UnitCard {
  readonly id: string;
  readonly name: string;
  readonly faction: string;
  readonly type: UnitType;
  readonly isCapital: boolean;
  readonly tv: number;
  readonly unitCap: number | null;
  readonly skill: number;
  readonly speed: number;
  readonly turns: number;
  readonly thrusters: number;
  readonly fuel: number;
  readonly fireControl: number;
  readonly sensors: number;
  readonly defense: number;
  readonly armor: { readonly fore: number; readonly portStarboard: number; readonly aft: number };
  /** Starting Structure (Damage for v1.2.1 squadrons). */
  readonly structure: number;
  /** v1.2.1 squadrons: crippled at or below this Damage; null when the card gives none. */
  readonly crippledAt: number | null;
  readonly marines: number;
  readonly hangers: number;
  readonly base: { readonly widthIn: number; readonly lengthIn: number } | null;
  /** Trait name -> value (1 for traits without a value). */
  readonly traits: ReadonlyMap<TraitName, number>;
  readonly weapons: readonly WeaponLine[];
  /** Card fields holding PLACEHOLDER values, as paths such as "skill" or "weapons[1].ac". */
  readonly placeholders: ReadonlySet<string>;
  /** The file the card was loaded from. */
  readonly file: string;
}

export interface Roster {
  readonly files: readonly string[];
  readonly units: ReadonlyMap<string, UnitCard>;
}
