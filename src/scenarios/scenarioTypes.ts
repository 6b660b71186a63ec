// A battle scenario as the battle engine reads it: validated once by src/scenarios/scenario.ts
// from a `jwsim-scenario/1` JSON file (schema: scenarios/schemas/scenario.schema.json).
import type { Roster, UnitCard } from '../units/types.js';

export type ZoneKind = 'standard' | 'beacon' | 'corner';
export type DeploymentType = 'fleet' | 'escalating';
export type PolicyName = 'aggressive' | 'standoff' | 'random' | 'scripted' | 'lookahead';
export type SideId = 0 | 1;

/** An objective marker: at each End Phase from `fromTurn` on, the side that holds it scores. */
export interface ObjectiveMarker {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  /** A model holds the marker when its base is within this many inches of the point. */
  readonly radius: number;
  /** Objective Points per End Phase for holding it (held: own models within radius, no enemy). */
  readonly points: number;
  readonly fromTurn: number;
}

export interface EarlyEnd {
  /** End Phase: the game ends when a side has no capital ship left that can fight. */
  readonly noCapitalShips: boolean;
  /** End Phase: the game ends when a side has at least this many Objective Points (null: never). */
  readonly opAtLeast: number | null;
}

export interface PolicySpec {
  readonly name: PolicyName;
  /** Policy parameters, validated per policy (src/policies). */
  readonly params: Readonly<Record<string, number>>;
  /** Scripted policy only: the orders by turn (absent or empty for every other policy). */
  readonly orders?: readonly ScriptedOrder[];
}

export type OrderKind = 'hold' | 'close' | 'withdraw' | 'objective' | 'screen';
export type OrderTarget = 'largest' | 'nearest' | 'weakest' | 'capital' | 'squadron';
export type OrderUnits = 'capital' | 'squadron' | 'all';

/** One order of a scripted policy: what the models it covers do in turns from..to (inclusive). */
export interface ScriptedOrder {
  readonly from: number;
  readonly to: number;
  readonly do: OrderKind;
  /** hold: the range band kept from the nearest enemy. */
  readonly range: 'long' | 'short';
  /** close and hold: which enemy to focus (null: the best shot, as aggressive picks). */
  readonly target: OrderTarget | null;
  /** Which of the side's models the order covers. */
  readonly units: OrderUnits;
  /** screen: inches a squadron keeps within of the nearest friendly capital ship. */
  readonly distance: number;
}

export interface SideSpec {
  readonly name: string;
  /** Every model of the fleet, counts expanded, in file order. */
  readonly fleet: readonly UnitCard[];
  readonly policy: PolicySpec;
  /** Sum of the fleet's TV. */
  readonly tv: number;
  /** The fleet file the fleet came from (absolute path), when the side names one. */
  readonly fleetFile?: string;
}

export interface Scenario {
  readonly file: string;
  readonly sha256: string;
  readonly id: string;
  readonly description: string | null;
  readonly table: { readonly width: number; readonly height: number };
  /** The game's point level (fleet validation). */
  readonly points: number;
  readonly zone: ZoneKind;
  readonly deployment: DeploymentType;
  /** Standard zones: depth of each side's strip, inches (12 by default). */
  readonly stripDepth: number;
  readonly turns: number;
  /** Who holds Initiative: side A (0), side B (1), or a coin per game. */
  readonly initiative: 'a' | 'b' | 'random';
  readonly objectives: readonly ObjectiveMarker[];
  readonly earlyEnd: EarlyEnd;
  readonly sides: readonly [SideSpec, SideSpec];
  readonly roster: Roster;
  /** Fleet-validation problems accepted under --allow-invalid-fleets (empty otherwise). */
  readonly fleetWarnings: readonly string[];
}
