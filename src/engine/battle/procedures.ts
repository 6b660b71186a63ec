// Shared types of the multi-step procedures squadrons and boarders take part in (dogfights,
// bombing, assaults, boarding). Each procedure is a pure function of these hooks, so tests can
// script every choice and roll; the battle engine supplies hooks that attack with real
// geometry, ask the policies and write the trace.
import type { Roller } from '../../dice/roll.js';
import type { CompiledRules } from '../../rules/compile.js';
import type { RandomStream } from '../../rng/stream.js';
import type { UnitCard } from '../../units/types.js';
import type { DamageTally } from '../damage.js';
import type { CombatState } from '../state.js';

/** A model as the procedures see it (a BattleModel satisfies this). */
export interface Participant {
  readonly unit: UnitCard;
  readonly state: CombatState;
  /** Current Fuel (squadrons). */
  fuel: number;
  readonly label: string;
}

/** Special conditions of one Attack Window (combat.md §10, §11). */
export interface WindowOptions {
  /** Which kind of Attack Window this is (decides the bonuses, combat.md §5.3). */
  readonly kind: 'dogfight' | 'bombing' | 'assault' | 'boarding';
  /** Attacks allowed in the window (Fire Control to spend). */
  readonly fc: number;
  /** Extra Flex dice on every attack (Assault +2). */
  readonly flex?: number;
  /** The target may not defend against missiles (dogfights, bombing, assault). */
  readonly noMissileDefence?: boolean;
  /** Armor is ignored (v1.2.2 Bombing and Assault). */
  readonly ignoreArmor?: boolean;
  /** AS ratings may be used as AC (Assault: per weapon max(AC, AS)); Lance allowed. */
  readonly assault?: boolean;
  /** Nuke and Bomb weapons may not be used (dogfights). */
  readonly noBombs?: boolean;
}

export interface ProcedureHooks {
  readonly rules: CompiledRules;
  readonly roller: Roller;
  /** The dice stream. */
  readonly rng: RandomStream;
  readonly tally: DamageTally;
  /** One Attack Window of `att` against `tgt`; returns the number of attacks made (<= fc). */
  attackWindow(att: Participant, tgt: Participant, opts: WindowOptions): number;
  /** A line for the trace. */
  note(line: string): void;
  /**
   * False when nothing records the lines (a game played without a trace): the procedures then
   * skip building them. Absent: lines are always made.
   */
  readonly tracing?: boolean;
}
