// What a played battle reports (its result, the trace of one game, a model's fate), and the
// deployment spot the Battle layers share.
import type { ActionName, DeployCandidate } from '../../policies/types.js';
import type { AttackRecord } from './gunnery.js';
import type { Pose } from './movement.js';

export type Fate = 'intact' | 'crippled' | 'destroyed' | 'withdrawn' | 'reserve' | 'captured';

export interface GameResult {
  /** Per fleet (0 = scenario side a): Objective Points, Victory Points, TV still fighting. */
  readonly op: [number, number];
  readonly vp: [number, number];
  readonly survivingTv: [number, number];
  /** 0 or 1: the winning fleet; 2: a draw. */
  readonly winner: 0 | 1 | 2;
  readonly turns: number;
  readonly activations: number;
  /** The fleet that held Initiative. */
  readonly initiative: 0 | 1;
  readonly endReason: string;
  /** The game ended before its last turn was played out (endReason says why). */
  readonly endedEarly: boolean;
}

export interface TraceActivation {
  turn: number;
  model: string;
  action: ActionName;
  test?: string;
  before: { x: number; y: number; heading: number };
  after: { x: number; y: number; heading: number };
  fired: 'before-move' | 'after-move' | 'none';
  attacks: AttackRecord[];
  ram?: { target: string; result: string; rammerAfter: string; targetAfter: string };
  notes: string[];
}

export interface Trace {
  initiative: string;
  beacons: Array<{ side: string; x: number; y: number }>;
  deployments: Array<{ turn: number; model: string; x: number; y: number; heading: number }>;
  activations: TraceActivation[];
  /** `notes`: what happened in the End Phase besides scoring (only when something did, e.g. a boarded fight). */
  endPhases: Array<{ turn: number; op: [number, number]; scored: string[]; notes?: string[] }>;
}

/** A deployment spot offered to a policy, with its zone test. */
export type DeploySpot = DeployCandidate & { inZone: (p: Pose) => boolean; zoneOk: number };
