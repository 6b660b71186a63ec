// One model on (or off) the battle table: its card, its damage state, where it stands and
// what has happened to it this game. Objects are made once per battle setup and reset per game.
import type { UnitCard } from '../../units/types.js';
import { capitalBaseSize, cosDeg, hypot, innerRadius, outerRadius, sinDeg, type Base, type BaseShape } from '../geometry.js';
import { CombatState } from '../state.js';

export type Where = 'reserve' | 'table' | 'destroyed' | 'withdrawn' | 'embarked';

/**
 * A base whose position changes: satisfies geometry's read-only Base. Its shape and size change
 * only through `resize`, which also works out the radii it keeps (outerR, innerR) with
 * geometry's own functions, so the kept radii are always those of the current outline.
 */
export class MovingBase implements Base {
  readonly shape!: BaseShape;
  readonly length!: number;
  readonly width!: number;
  readonly outerR!: number;
  readonly innerR!: number;
  constructor(
    shape: BaseShape,
    public x: number,
    public y: number,
    public heading: number,
    length: number,
    width: number,
  ) {
    this.setSize(shape, length, width);
  }
  /** A new shape and size (scratch and zone bases), with the kept radii worked out again. */
  resize(shape: BaseShape, length: number, width: number): void {
    // The scratch base is resized before each of many checks, mostly to the size it has.
    if (shape === this.shape && length === this.length && width === this.width) return;
    this.setSize(shape, length, width);
  }
  /** The only writer of the shape, the size and the radii kept for them. */
  private setSize(shape: BaseShape, length: number, width: number): void {
    const w = this as { shape: BaseShape; length: number; width: number; outerR: number; innerR: number };
    w.shape = shape;
    w.length = length;
    w.width = width;
    w.outerR = outerRadius(this);
    w.innerR = innerRadius(this);
  }
  set(x: number, y: number, heading: number): void {
    this.x = x;
    this.y = y;
    this.heading = heading;
  }
  /**
   * set(p.x, p.y, p.heading), given the pose itself: where a caller is too large for V8 to
   * inline set() (activate), a call to set() boxed each of the three numbers into a new heap
   * number; here they go from field to field, and only the pose is passed.
   */
  place(p: { readonly x: number; readonly y: number; readonly heading: number }): void {
    this.x = p.x;
    this.y = p.y;
    this.heading = p.heading;
  }
  private trigOf = NaN;
  private readonly fwd = { sin: 0, cos: 1 };
  /** sin and cos of the heading (compass: the unit forward vector is (sin, cos)), cached per heading. */
  forward(): { readonly sin: number; readonly cos: number } {
    if (this.heading !== this.trigOf) this.headingTrig();
    return this.fwd;
  }
  /** forward's work for a new heading, out of line so that forward itself stays small enough to inline wherever it is asked. */
  private headingTrig(): void {
    const h = this.heading;
    this.trigOf = h;
    this.fwd.sin = sinDeg(h);
    this.fwd.cos = cosDeg(h);
  }
}

export class BattleModel {
  readonly state: CombatState;
  readonly base: MovingBase;
  /** Radius of a disc around the centre that holds the whole base (quick rejections). */
  readonly reach: number;
  /** Radius of a disc of the same width as the base (quick estimates for policies). */
  readonly bulk: number;
  where: Where = 'reserve';
  /** The side that deploys it: 0 or 1 (fixed per game; mirror games swap the fleets). */
  side: 0 | 1 = 0;
  activated = false;
  /** Declared this turn, cleared in the End Phase (GM-05). */
  evading = false;
  stationKeeping = false;
  /** Current Fuel (squadrons; game.md §6.5: never above the printed rating, never below 0). */
  fuel = 0;
  /** Structure taken from enemy models this game (damage dealt). */
  damageDealt = 0;
  /** Return to Base (game.md §10, GM-77): no interception, bombing, assault, ramming or attacks; it heads home. */
  rtb = false;
  /** Has intercepted this turn (GM-69: at most once per turn as a passive interceptor). */
  intercepted = false;
  /** Current Marines (boarding, §7.4). */
  marines = 0;
  /** Boarded state (v1.2.2): enemy Boarders aboard, and the side they belong to. */
  boarders = 0;
  boarderSide: 0 | 1 = 0;
  /** Captured (GM-75): the side now controlling it (its `side`), and the side it was taken from. */
  captured = false;
  /** Embarked (GM-18, GM-76): the carrier it is aboard (where = 'embarked'). */
  carrier: BattleModel | null = null;
  /** Launched or landed this activation (GM-18: not both in one activation). */
  launched = false;
  /** Assaulting (v1.2.2 state, combat.md §11.4): the capital ship it sits on. */
  assaulting: BattleModel | null = null;
  /** Turn it was deployed (0: not yet). */
  deployedTurn = 0;

  constructor(
    /** Fleet identity: 0 = the scenario's side a, 1 = side b. */
    readonly fleet: 0 | 1,
    /** Index within its fleet, and a label such as "A3 jovian.alexander". */
    readonly index: number,
    readonly unit: UnitCard,
    /** Index of the unit type in the battle's unit list (statistics and plan caches). */
    readonly unitIndex: number,
    squadronShape: 'hex' | 'circle',
  ) {
    this.state = new CombatState(unit);
    if (unit.isCapital) {
      const size = capitalBaseSize(unit);
      this.base = new MovingBase('rect', 0, 0, 0, size.length, size.width);
      this.reach = hypot(size.length, size.width) / 2;
      this.bulk = size.width / 2;
    } else {
      this.base = new MovingBase(squadronShape, 0, 0, 0, 1, 1);
      this.reach = squadronShape === 'hex' ? 1 / Math.sqrt(3) : 0.5;
      this.bulk = 0.5;
    }
  }

  /** The label, made once: fleet, index and unit never change (it was built anew on every read). */
  get label(): string {
    return (this.labelText ??= `${this.fleet === 0 ? 'A' : 'B'}${this.index + 1} ${this.unit.id}`);
  }
  private labelText: string | undefined = undefined;

  reset(): void {
    this.state.reset();
    this.where = 'reserve';
    this.activated = false;
    this.evading = false;
    this.stationKeeping = false;
    this.damageDealt = 0;
    this.deployedTurn = 0;
    this.fuel = this.unit.isCapital ? 0 : this.unit.fuel;
    this.rtb = false;
    this.intercepted = false;
    this.marines = this.unit.marines;
    this.boarders = 0;
    this.captured = false;
    this.carrier = null;
    this.launched = false;
    this.assaulting = null;
    this.base.set(0, 0, 0);
  }

  /** On the table and neither destroyed nor withdrawn (an inert hulk included). */
  get present(): boolean {
    return this.where === 'table';
  }

  /** Can still act and fight: present and not an inert crippled hulk (GM-21, GM-50). */
  fights(inertHulks: boolean): boolean {
    return this.where === 'table' && !this.state.destroyed && !(this.state.crippled && this.unit.isCapital && inertHulks);
  }
}
