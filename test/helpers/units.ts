// Building unit cards and compiled rules in tests, without files.
import { compileRules, type CompiledRules } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, type RulesVersionId } from '../../src/rules/registry.js';
import type { TraitName, WeaponClass } from '../../src/units/catalogue.js';
import type { Arc, UnitCard, WeaponLine } from '../../src/units/types.js';

export function rulesFor(id: RulesVersionId, assignments: readonly string[] = []): CompiledRules {
  return compileRules(RULES_VERSIONS[id], applyRuleAssignments(assignments));
}

export interface WeaponSpec {
  name?: string;
  cls?: WeaponClass;
  count?: number;
  ac?: number | null;
  as?: number | null;
  macro?: number;
  arcs?: Arc[];
  traits?: Array<[TraitName, number]>;
}

export function weapon(spec: WeaponSpec, index = 0): WeaponLine {
  return {
    index,
    name: spec.name ?? 'Test Gun',
    cls: spec.cls ?? 'other',
    count: spec.count ?? 1,
    ac: spec.ac === undefined ? 2 : spec.ac,
    as: spec.as === undefined ? 2 : spec.as,
    macro: spec.macro ?? 0,
    arcs: spec.arcs ?? ['T'],
    traits: new Map(spec.traits ?? []),
  };
}

export interface UnitSpec extends Partial<Omit<UnitCard, 'weapons' | 'traits' | 'placeholders' | 'isCapital'>> {
  weapons?: WeaponSpec[];
  traits?: Array<[TraitName, number]>;
  placeholders?: string[];
}

/** A unit card with sensible defaults: a capital ship unless `type` says otherwise. */
export function unit(spec: UnitSpec = {}): UnitCard {
  const type = spec.type ?? 'capital_ship';
  const isCapital = type === 'capital_ship';
  return {
    id: spec.id ?? 'test.unit',
    name: spec.name ?? 'Test Unit',
    faction: spec.faction ?? 'Test',
    type,
    isCapital,
    tv: spec.tv ?? 30,
    unitCap: spec.unitCap ?? null,
    skill: spec.skill ?? 2,
    speed: spec.speed ?? 6,
    turns: spec.turns ?? (isCapital ? 1 : 0),
    thrusters: spec.thrusters ?? (isCapital ? 2 : 0),
    fuel: spec.fuel ?? (isCapital ? 0 : 3),
    fireControl: spec.fireControl ?? 2,
    sensors: spec.sensors ?? 3,
    defense: spec.defense ?? 2,
    armor: spec.armor ?? { fore: 0, portStarboard: 0, aft: 0 },
    structure: spec.structure ?? (isCapital ? 4 : 6),
    crippledAt: spec.crippledAt ?? null,
    marines: spec.marines ?? 0,
    hangers: spec.hangers ?? 0,
    base: spec.base ?? (isCapital ? { widthIn: 1.5, lengthIn: 2 } : null),
    traits: new Map(spec.traits ?? []),
    weapons: (spec.weapons ?? [{}]).map((w, i) => weapon({ arcs: isCapital ? ['T'] : ['T'], ...w }, i)),
    placeholders: new Set(spec.placeholders ?? []),
    file: spec.file ?? '(test)',
  };
}
