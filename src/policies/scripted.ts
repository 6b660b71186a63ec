// The scripted policy: a designer's orders by turn, read from the scenario file, so a tactic
// seen at the table ("hold at long range for two turns, then close on the largest ship") can
// be replayed over many games. Each order covers some turns and some of the side's models;
// whatever no order covers plays exactly as the aggressive policy (the `fallback`).
//
// Orders are carried out by scoring the engine's move options (as the heuristic policies do:
// estimated damage from the end position, and distances) and taking the best legal one.
import type { BattleModel } from '../engine/battle/model.js';
import type { Pose } from '../engine/battle/movement.js';
import type { RandomStream } from '../rng/stream.js';
import type { OrderTarget, ScriptedOrder } from '../scenarios/scenarioTypes.js';
import { boostFactor, firepower, firstLegal, nearestEnemyDistance } from './shared.js';
import type { ActionName, DeployCandidates, MoveOption, Policy, PolicyView } from './types.js';
import { hypot } from '../engine/geometry.js';

/**
 * Hold scores: an inch nearer than wanted to one of the nearest enemies costs as much as one
 * point of expected Structure damage; an inch beyond the band of the nearest costs a tenth.
 */
const HOLD_FIRE_WEIGHT = 1;
const HOLD_IN = 1;
const HOLD_OUT = 0.1;

/** Short range when the view does not say (rules v1.2.x: 6" against capital ships, 3" against squadrons). */
const SHORT_FALLBACK = { capital: 6, squadron: 3 };

/**
 * Short range against capital ships or squadrons. The PolicyView has no accessor for it, but
 * the engine's view (the Battle) carries its compiled rules; anything else gets the v1.2.x values.
 */
export function shortRange(view: PolicyView, vsCapital: boolean): number {
  const combat = (view as { rules?: { combat?: { shortRangeAC?: number; shortRangeAS?: number } } }).rules?.combat;
  const v = vsCapital ? combat?.shortRangeAC : combat?.shortRangeAS;
  return typeof v === 'number' ? v : vsCapital ? SHORT_FALLBACK.capital : SHORT_FALLBACK.squadron;
}

/** Base-to-base gap (cheap estimate, as the heuristic policies use) from `m` standing at `p` to `e`. */
function gap(m: BattleModel, p: { x: number; y: number }, e: BattleModel): number {
  return Math.max(0, hypot(e.base.x - p.x, e.base.y - p.y) - e.bulk - m.bulk);
}

/**
 * How an enemy ranks under a target preference: lower comes first. Ties go to the nearer
 * enemy (from `p`), then to fleet and model order.
 */
function preferenceKey(pref: OrderTarget, e: BattleModel): number {
  switch (pref) {
    case 'largest':
      return -e.unit.tv;
    case 'weakest':
      return e.state.structure;
    case 'capital':
      return e.unit.isCapital ? 0 : 1;
    case 'squadron':
      return e.unit.isCapital ? 1 : 0;
    case 'nearest':
      return 0;
  }
}


/** A table edge: the line x = value or y = value. */
interface Edge {
  readonly axis: 'x' | 'y';
  readonly value: number;
}

export class ScriptedPolicy implements Policy {
  readonly name = 'scripted' as const;
  /** Per table side (0/1): the edges behind its deployment zone, learnt when it deploys. */
  private readonly homeEdges: [Edge[], Edge[]] = [[], []];

  constructor(
    private readonly p: Record<string, number>,
    readonly orders: readonly ScriptedOrder[],
    /** The aggressive policy with the same parameters: everything no order covers. */
    private readonly fallback: Policy,
  ) {
    this.targetsByRule = fallback.targetsByRule === true;
  }

  /** targetOrder: the fallback's order, then the order's preference (fixed orders, the turn, the table): as pure as the fallback's. */
  readonly targetsByRule: boolean;

  /** The order covering `m` this turn, or null (aggressive play). Screen orders never cover capital ships. */
  orderFor(view: PolicyView, m: BattleModel): ScriptedOrder | null {
    const kind = m.unit.isCapital ? 'capital' : 'squadron';
    for (const o of this.orders) {
      if (view.turn < o.from || view.turn > o.to) continue;
      if (o.units !== 'all' && o.units !== kind) continue;
      if (o.do === 'screen' && m.unit.isCapital) continue;
      return o;
    }
    return null;
  }

  /** The enemy a close or hold order focuses, from where `m` stands; null when none fights. */
  focusOf(view: PolicyView, m: BattleModel, pref: OrderTarget): BattleModel | null {
    const enemies = view.enemiesOf(m.side);
    if (!enemies.length) return null;
    let best = enemies[0];
    for (const e of enemies) {
      const k = preferenceKey(pref, e) - preferenceKey(pref, best);
      if (k < 0 || (k === 0 && gap(m, m.base, e) < gap(m, m.base, best))) best = e;
    }
    return best;
  }

  pickActivation(view: PolicyView, candidates: readonly BattleModel[], rng: RandomStream): number {
    return this.fallback.pickActivation(view, candidates, rng);
  }

  pickMove(view: PolicyView, m: BattleModel, options: readonly MoveOption[], legal: (i: number) => boolean, rng: RandomStream): { index: number; fireBefore: boolean } {
    const order = this.orderFor(view, m);
    if (!order) return this.fallback.pickMove(view, m, options, legal, rng);
    let score: ((o: MoveOption) => { s: number; fire: number }) | null = null;
    let fireStart = 0;
    switch (order.do) {
      case 'hold': {
        const focus = order.target ? this.focusOf(view, m, order.target) : null;
        score = this.holdScore(view, m, order, focus);
        fireStart = ScriptedPolicy.fireAt(view, m, m.base, focus);
        break;
      }
      case 'close': {
        const t = this.focusOf(view, m, order.target ?? 'nearest');
        if (t) {
          score = this.closeScore(view, m, t);
          fireStart = 2 * view.estimate(m, m.base, t) + 0.5 * firepower(view, m, m.base, 0);
        }
        break;
      }
      case 'withdraw':
        score = this.withdrawScore(view, m);
        fireStart = firepower(view, m, m.base, 0);
        break;
      case 'objective':
        score = this.objectiveScore(view, m);
        fireStart = firepower(view, m, m.base, 0);
        break;
      case 'screen':
        score = this.screenScore(view, m, order.distance);
        fireStart = firepower(view, m, m.base, this.p.focus);
        break;
    }
    // Nothing to act on (no enemy left, no marker, no friendly capital ship, no known edge).
    if (!score) return this.fallback.pickMove(view, m, options, legal, rng);
    const keys: number[] = [];
    const before: boolean[] = [];
    for (const o of options) {
      const r = score(o);
      keys.push(r.s);
      before.push(fireStart > r.fire);
    }
    const i = firstLegal(keys, legal, true);
    return { index: i, fireBefore: i >= 0 && before[i] };
  }

  /** What a hold order values as firepower from `p`: its focus enemy (when it names one) first, else the best shot. */
  private static fireAt(view: PolicyView, m: BattleModel, p: Pose, focus: BattleModel | null): number {
    return focus ? view.estimate(m, p, focus) + 0.25 * firepower(view, m, p, 0) : firepower(view, m, p, 0);
  }

  /**
   * Hold: end at the wanted band edge from the nearest enemies (long: `range_margin` inside
   * the model's own long range against each; short: that far inside short range), weighing
   * firepower against inches out of place (HOLD_IN, HOLD_OUT).
   */
  private holdScore(view: PolicyView, m: BattleModel, order: ScriptedOrder, focus: BattleModel | null): (o: MoveOption) => { s: number; fire: number } {
    const near = view.nearestEnemies(m);
    const margin = this.p.range_margin;
    const want = near.map((e) => {
      const edge = order.range === 'long' ? view.maxRange(m, e.unit.isCapital) : shortRange(view, e.unit.isCapital);
      return Math.max(0, edge - margin);
    });
    return (o) => {
      const fire = ScriptedPolicy.fireAt(view, m, o.pose, focus) * boostFactor(view, m, o);
      let s = HOLD_FIRE_WEIGHT * fire;
      near.forEach((e, k) => {
        const d = gap(m, o.pose, e);
        if (d < want[k]) s -= HOLD_IN * (want[k] - d);
        else if (k === 0) s -= HOLD_OUT * (d - want[k]);
      });
      return { s, fire };
    };
  }

  /** Close: get within short range of the focus enemy (0.3 per inch beyond), with the most damage on it. */
  private closeScore(view: PolicyView, m: BattleModel, t: BattleModel): (o: MoveOption) => { s: number; fire: number } {
    const want = Math.max(0, shortRange(view, t.unit.isCapital) - 0.5);
    return (o) => {
      const fire = (2 * view.estimate(m, o.pose, t) + 0.5 * firepower(view, m, o.pose, 0)) * boostFactor(view, m, o);
      return { s: fire - 0.3 * Math.max(0, gap(m, o.pose, t) - want), fire };
    };
  }

  /**
   * Withdraw (when the engine found no move that reaches the edge this activation): as near
   * the own edge as possible, where a capital ship counts the Speed it can cover towards the
   * edge next time from its heading (so it turns round first rather than idle facing away).
   */
  private withdrawScore(view: PolicyView, m: BattleModel): ((o: MoveOption) => { s: number; fire: number }) | null {
    const edges = this.homeEdges[m.side];
    if (!edges.length) return null;
    return (o) => {
      const fire = firepower(view, m, o.pose, 0) * boostFactor(view, m, o);
      let best = Infinity;
      for (const e of edges) {
        const at = e.axis === 'x' ? o.pose.x : o.pose.y;
        let d = Math.abs(at - e.value);
        if (m.unit.isCapital) {
          // cos of the angle between the heading (forward (sin h, cos h)) and the way to the edge.
          const f = e.axis === 'x' ? Math.sin((o.pose.heading * Math.PI) / 180) : Math.cos((o.pose.heading * Math.PI) / 180);
          d -= m.unit.speed * (e.value > at ? f : -f);
        }
        best = Math.min(best, d);
      }
      return { s: -best + 0.05 * fire, fire };
    };
  }

  /** Objective: onto the marker nearest the model (inside its radius every spot is as good; then firepower). */
  private objectiveScore(view: PolicyView, m: BattleModel): ((o: MoveOption) => { s: number; fire: number }) | null {
    let best: { x: number; y: number; radius: number } | null = null;
    let bestD = Infinity;
    for (const o of view.objectives) {
      const d = hypot(o.x - m.base.x, o.y - m.base.y) - o.radius;
      if (d < bestD) {
        best = o;
        bestD = d;
      }
    }
    if (!best) return null;
    const mk = best;
    // A quarter inch inside the radius, so that the base (not only its centre) is comfortably within it.
    return (o) => {
      const fire = firepower(view, m, o.pose, 0) * boostFactor(view, m, o);
      const out = Math.max(0, hypot(mk.x - o.pose.x, mk.y - o.pose.y) - Math.max(0, mk.radius - 0.25));
      return { s: -out + 0.1 * fire, fire };
    };
  }

  /** Screen (squadrons): within `distance` of the nearest friendly capital ship (1 per inch beyond); firepower inside. */
  private screenScore(view: PolicyView, m: BattleModel, distance: number): ((o: MoveOption) => { s: number; fire: number }) | null {
    let anchor: BattleModel | null = null;
    let bestD = Infinity;
    for (const x of view.models) {
      if (x === m || x.side !== m.side || !x.unit.isCapital || x.where !== 'table' || x.state.destroyed) continue;
      const d = gap(m, m.base, x);
      if (d < bestD) {
        anchor = x;
        bestD = d;
      }
    }
    if (!anchor) return null;
    const a = anchor;
    return (o) => {
      const fire = firepower(view, m, o.pose, this.p.focus) * boostFactor(view, m, o);
      const d = gap(m, o.pose, a);
      return { s: fire - Math.max(0, d - distance) - 0.02 * nearestEnemyDistance(view, m, o.pose), fire };
    };
  }

  targetOrder(view: PolicyView, m: BattleModel, from: Pose, enemies: readonly BattleModel[], rng: RandomStream): BattleModel[] {
    const base = this.fallback.targetOrder(view, m, from, enemies, rng);
    const order = this.orderFor(view, m);
    const pref = order && (order.do === 'close' || order.do === 'hold') ? order.target : null;
    if (!pref) return base;
    // The preferred enemies first. Among equals: the nearer for nearest, largest and weakest
    // (as the move aimed); otherwise aggressive's order (the best shot).
    const rank = new Map(base.map((e, i) => [e, i] as const));
    const byGap = pref === 'nearest' || pref === 'largest' || pref === 'weakest';
    return base.slice().sort((a, b) => preferenceKey(pref, a) - preferenceKey(pref, b) || (byGap ? gap(m, from, a) - gap(m, from, b) : 0) || rank.get(a)! - rank.get(b)!);
  }

  pickDeployment(view: PolicyView, m: BattleModel, candidates: DeployCandidates, legal: (i: number) => boolean, rng: RandomStream): number {
    this.learnHome(view, m.side, candidates);
    return this.fallback.pickDeployment(view, m, candidates, legal, rng);
  }

  /**
   * The side's own edges for withdraw orders: the table edges nearest the middle of its
   * deployment spots (standard: the strip's edge; corner: both edges of the quadrant;
   * beacon: the edge nearest its beacons, though the engine accepts any there).
   */
  private learnHome(view: PolicyView, side: 0 | 1, candidates: DeployCandidates): void {
    if (!candidates.length) return;
    let x = 0, y = 0;
    for (const c of candidates) {
      x += c.pose.x;
      y += c.pose.y;
    }
    x /= candidates.length;
    y /= candidates.length;
    const all: Array<Edge & { d: number }> = [
      { axis: 'x', value: 0, d: x },
      { axis: 'x', value: view.width, d: view.width - x },
      { axis: 'y', value: 0, d: y },
      { axis: 'y', value: view.height, d: view.height - y },
    ];
    const min = Math.min(...all.map((e) => e.d));
    this.homeEdges[side] = all.filter((e) => e.d <= min + 1).map(({ axis, value }) => ({ axis, value }));
  }

  pickBeacon(view: PolicyView, side: 0 | 1, home: { x: number; y: number }, candidates: ReadonlyArray<{ x: number; y: number }>, rng: RandomStream): number {
    return this.fallback.pickBeacon(view, side, home, candidates, rng);
  }

  holdBack(): { squadrons: number; untilTurn: number; embark?: number } {
    return this.fallback.holdBack();
  }

  wants(view: PolicyView, m: BattleModel, action: Exclude<ActionName, 'none'>, rng: RandomStream): boolean {
    const order = this.orderFor(view, m);
    if (order) {
      switch (order.do) {
        case 'withdraw':
          // Leave as soon as the engine finds a move off the own edge; strike at nothing on the way.
          if (action === 'withdraw') return true;
          if (action === 'ram' || action === 'board' || action === 'bombing' || action === 'assault' || action === 'intercept' || action === 'repair') return false;
          break;
        case 'hold':
        case 'screen':
          // Bombing runs, assaults and boarding would leave the band or the screen.
          if (action === 'bombing' || action === 'assault' || action === 'board') return false;
          break;
        case 'objective':
          // Stay on the marker: every strike that moves the model off it (and the Return to Base after one) is left out.
          if (action === 'bombing' || action === 'assault' || action === 'board' || action === 'intercept' || action === 'ram') return false;
          break;
        default:
          break;
      }
    }
    return this.fallback.wants(view, m, action, rng);
  }
}
