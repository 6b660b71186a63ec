// The weapon classes and traits a unit card may name, and which of them the engines model.
// Names come from the rules' trait and weapon pages (shared/rules/combat.md §6-§7, units.md
// §2.3-§2.4). A trait the engines do not model is still accepted, and outputs say it was
// ignored, so a designer is never misled into thinking it counted.

export const WEAPON_CLASSES = ['beam_projector', 'kinetic_cannon', 'mass_driver', 'particle_cannon', 'missile', 'lance', 'drone_bay', 'point_defense', 'other'] as const;
export type WeaponClass = (typeof WEAPON_CLASSES)[number];

export interface TraitInfo {
  /** Takes a value, as in Belt:X. */
  readonly hasValue: boolean;
  /** What the engines (engagements and battles) do with it; null when they ignore it. */
  readonly modelled: string | null;
}

export const TRAITS = {
  Ace: { hasValue: false, modelled: null },
  'Armor Piercing': { hasValue: false, modelled: null },
  'Assault Craft': { hasValue: false, modelled: null },
  Autofire: { hasValue: false, modelled: null },
  Barrier: { hasValue: false, modelled: 'defends against Mass Driver and Kinetic Cannon attacks on itself as against missiles; in battles friends within 3" may defend with its Defense (v1.2.1 against missiles, v1.2.2 also against Mass Driver and Kinetic Cannon)' },
  Belt: { hasValue: true, modelled: 'v1.2.1: attacks into its port or starboard arc lose X Macro dice' },
  Bomb: { hasValue: false, modelled: 'battles: a weapon with it may not fire in a dogfight' },
  CAP: { hasValue: false, modelled: null },
  Cargo: { hasValue: true, modelled: null },
  'Cargo Module': { hasValue: false, modelled: null },
  Catapult: { hasValue: false, modelled: null },
  Cloak: { hasValue: false, modelled: 'at long range an attacker must pass a Skill Test [D+] to target it' },
  Command: { hasValue: false, modelled: null },
  Comms: { hasValue: false, modelled: null },
  Controllable: { hasValue: false, modelled: null },
  Countermeasures: { hasValue: false, modelled: 'may reroll a point defence roll of [N] (INTERPRETATION of the v1.2.2 trait)' },
  Dock: { hasValue: false, modelled: null },
  ECCM: { hasValue: false, modelled: null },
  ECM: { hasValue: false, modelled: null },
  Evasive: { hasValue: false, modelled: 'attacks on it at long range lose 1 Macro die (INTERPRETATION evasive_penalty)' },
  Fast: { hasValue: false, modelled: 'battles: +1 Flex die on its Break Off test in a dogfight' },
  'Fuel Pod': { hasValue: false, modelled: null },
  Hardpoint: { hasValue: false, modelled: null },
  Heavy: { hasValue: false, modelled: 'battles: may Stay on Target in a dogfight; extra dice on a bomber\'s Skill Test after an interception (INTERPRETATION)' },
  Marines: { hasValue: true, modelled: null },
  Nuke: { hasValue: false, modelled: 'battles: a weapon with it may not fire in a dogfight' },
  Parts: { hasValue: true, modelled: null },
  Precise: { hasValue: false, modelled: null },
  'Reactive Armor': { hasValue: false, modelled: null },
  Repair: { hasValue: true, modelled: 'battles, with option enable_repair=YES only (GM-19 stub; the action\'s rules were not retrieved): the Repair action, a Skill Test that on [D+] restores one lost box' },
  Rugged: { hasValue: false, modelled: 'battles: a crippled squadron with it keeps its Fire Control in a dogfight' },
  Sluggish: { hasValue: false, modelled: 'battles: turns only at the very start or the very end of its move, never mid-move (INTERPRETATION GM-11); may not Evade where the version says so (v1.2.2)' },
} as const satisfies Record<string, TraitInfo>;

export type TraitName = keyof typeof TRAITS;
export const TRAIT_NAMES = Object.keys(TRAITS) as TraitName[];

/** Traits that critical damage can knock out (rules v1.2.1/v1.2.2 "System" traits). */
export const SYSTEM_TRAITS: readonly TraitName[] = ['Catapult', 'Cloak', 'Comms', 'Countermeasures'];
