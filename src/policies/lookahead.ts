// The lookahead policy: a smarter opponent that scores each move option by a short, cheap,
// deterministic rollout instead of a one-step heuristic. Every quantity is in Threat Value
// (TV) destroyed, so shots, risks and objectives share one scale.
//
// Converting damage to TV: `d` expected Structure damage on a model with Structure `rem` left
// (of `start` printed) is worth  min(d, rem) / start × TV  plus a kill term
// kill_bonus × TV × min(1, d / rem)²  (a destroyed model stops fighting; the square keeps
// partial damage from earning much of it). Expected damage comes from view.estimate, i.e. the
// engine's cached tables built from the exact dice distributions.
//
// Rollout of one option (pose P) for model m:
//   1. Own shot: the better of firing from where m stands (then moving) and firing from P
//      (Boost halves Fire Control: half the damage). The target is the enemy with the best TV
//      value. depth 2 adds friendly follow-up: F(t), the damage the friendly models that have
//      not activated yet could add on t (each moving its Speed towards t); the shot is then worth
//      value(own + F) − value(F), which rewards finishing what the others will start (focus fire).
//   2. Replies (depth ≥ 1): every enemy that has not activated this turn and can reach P (its
//      Speed plus its longest range) is moved its Speed towards P (facing P, or keeping its
//      heading, whichever hits harder) and its expected damage on m standing at P is summed;
//      the shot's target replies only in proportion to the chance it survives (1 − own/rem,
//      floored at 0). The sum is converted to TV lost and weighted by `caution`.
//   3. Position: objective_weight × the objective points P stands on (with a pull towards
//      markers still to be reached), less `approach` TV per inch to the nearest enemy (so a
//      model with nothing in reach still closes in).
// Score = shot − caution × replies + position. The best legal option is taken; exact ties are
// broken with the policy's random stream (never the dice). To evaluate replies against m at P
// the policy places m's base at P for the duration of the estimates and restores it before
// returning (synchronously; the engine's estimate caches do not depend on positions).
import type { BattleModel } from '../engine/battle/model.js';
import type { Pose } from '../engine/battle/movement.js';
import type { RandomStream } from '../rng/stream.js';
import type { PolicyName } from '../scenarios/scenarioTypes.js';
import type { ActionName, DeployCandidates, MoveOption, ParamSpec, Policy, PolicyView } from './types.js';
import { boostFactor, commonParams, holdBackOf, insertTarget, nearestPoint, objectiveValue, pickByDepth, wantsByParams } from './shared.js';
import { hypot } from '../engine/geometry.js';

/** The policy's name (typed as a PolicyName once the scenario types list it). */
export const LOOKAHEAD_NAME = 'lookahead' as const;

export const LOOKAHEAD_PARAMS: Record<string, ParamSpec> = {
  ...commonParams(0.8, 0, 1, 1, 1),
  // Lookahead's own.
  depth: { default: 2, min: 1, max: 2, integer: true, summary: '1: each option weighs its shot against the replies of the enemy models still to activate this turn; 2: also counts friendly follow-up fire on the same target (focus fire)' },
  caution: { default: 0.5, min: 0, max: 10, summary: 'weight of the TV the model is expected to lose to the enemy replies at its end position' },
  kill_bonus: { default: 0.5, min: 0, max: 5, summary: 'extra value, as a fraction of the target\'s TV, of destroying it outright (scaled by the square of the kill fraction)' },
  objective_weight: { default: 8, min: 0, max: 100, summary: 'TV per objective point for ending a move on an objective marker' },
  approach: { default: 0.05, min: 0, max: 5, summary: 'TV per inch of distance to the nearest enemy subtracted from an option (closing in when nothing is in reach)' },
};

/** Parameters with the defaults filled in (values are assumed already range-checked). */
export function lookaheadDefaults(params: Readonly<Record<string, number>> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, s] of Object.entries(LOOKAHEAD_PARAMS)) out[k] = params[k] ?? s.default;
  return out;
}

const EPS = 1e-9;

interface Shot {
  /** TV value of the shot (with depth 2: its marginal value over friendly follow-up). */
  value: number;
  target: BattleModel | null;
  /** Expected Structure damage on the target. */
  damage: number;
}

const NO_SHOT: Shot = { value: 0, target: null, damage: 0 };

function headingTo(dx: number, dy: number): number {
  // Compass headings: forward is (sin h, cos h).
  const h = (Math.atan2(dx, dy) * 180) / Math.PI;
  return h < 0 ? h + 360 : h;
}

function gapBetween(a: BattleModel, ax: number, ay: number, b: BattleModel, bx: number, by: number): number {
  return Math.max(0, hypot(bx - ax, by - ay) - a.bulk - b.bulk);
}

export class LookaheadPolicy implements Policy {
  readonly name: PolicyName = LOOKAHEAD_NAME;
  /** pickByDepth and the parameters alone (Policy.deploysByRule). */
  readonly deploysByRule = true;
  /** targetOrder: estimates and the parameters alone (Policy.targetsByRule). */
  readonly targetsByRule = true;
  private readonly p: Record<string, number>;
  /** Scratch pose for moved attackers. */
  private readonly tmp: Pose = { x: 0, y: 0, heading: 0 };

  constructor(params: Readonly<Record<string, number>> = {}) {
    this.p = lookaheadDefaults(params);
  }

  // ------------------------------------------------------------------ valuation

  /** TV value of `d` expected Structure damage on `t` (see the header). */
  tvValue(d: number, t: BattleModel): number {
    if (d <= 0) return 0;
    const rem = Math.max(1, t.state.structure);
    const start = Math.max(1, t.unit.structure, t.state.structure);
    const k = Math.min(1, d / rem);
    return (Math.min(d, rem) / start) * t.unit.tv + this.p.kill_bonus * t.unit.tv * k * k;
  }

  /**
   * Best expected damage `att` could deal `tgt` (standing where its base is) after moving its
   * Speed towards the point (tx, ty): facing it, or keeping its heading. 0 when out of reach.
   */
  private reply(view: PolicyView, att: BattleModel, tgt: BattleModel, tx: number, ty: number): number {
    const dx = tx - att.base.x, dy = ty - att.base.y;
    const dist = hypot(dx, dy);
    const gap = Math.max(0, dist - att.bulk - tgt.bulk);
    const speed = att.unit.speed;
    if (gap > speed + view.maxRange(att, tgt.unit.isCapital) + 0.01) return 0;
    const step = Math.min(speed, Math.max(0, gap - 0.5));
    const f = dist > EPS ? step / dist : 0;
    const q = this.tmp;
    q.x = att.base.x + dx * f;
    q.y = att.base.y + dy * f;
    q.heading = dist > EPS ? headingTo(dx, dy) : att.base.heading;
    let best = view.estimate(att, q, tgt);
    if (att.unit.isCapital && q.heading !== att.base.heading) {
      q.heading = att.base.heading;
      best = Math.max(best, view.estimate(att, q, tgt));
    }
    return best;
  }

  /** Friendly follow-up on `t`: damage the friends of `m` still to activate could add (depth 2). */
  private followUp(view: PolicyView, m: BattleModel, t: BattleModel, cache: Map<BattleModel, number>): number {
    if (this.p.depth < 2) return 0;
    let v = cache.get(t);
    if (v !== undefined) return v;
    v = 0;
    for (const f of view.enemiesOf(t.side)) {
      if (f === m || f.activated || f.side !== m.side) continue;
      v += this.reply(view, f, t, t.base.x, t.base.y);
    }
    cache.set(t, v);
    return v;
  }

  /** The best shot of `m` from `pose` among `targets` (Fire Control scaled by `scale`). */
  private bestShot(view: PolicyView, m: BattleModel, pose: Pose, targets: readonly BattleModel[], scale: number, follow: Map<BattleModel, number>): Shot {
    let best = NO_SHOT;
    for (const t of targets) {
      const d = view.estimate(m, pose, t) * scale;
      if (d <= 0) continue;
      const f = this.followUp(view, m, t, follow);
      const value = this.tvValue(d + f, t) - this.tvValue(f, t);
      if (value > best.value + EPS || (Math.abs(value - best.value) <= EPS && best.target !== null && (t.fleet < best.target.fleet || (t.fleet === best.target.fleet && t.index < best.target.index)))) {
        best = { value, target: t, damage: d };
      }
    }
    return best;
  }

  /**
   * Expected TV `m` loses standing at `pose` to the enemy models still to activate this turn;
   * the target of its own shot replies only as far as it is expected to survive.
   */
  private exposure(view: PolicyView, m: BattleModel, pose: Pose, shot: Shot, follow: Map<BattleModel, number>): number {
    const b = m.base;
    const ox = b.x, oy = b.y, oh = b.heading;
    b.set(pose.x, pose.y, pose.heading);
    let sum = 0;
    try {
      for (const e of view.enemiesOf(m.side)) {
        if (e.activated) continue;
        let d = this.reply(view, e, m, pose.x, pose.y);
        if (d > 0 && e === shot.target) {
          const hit = shot.damage + 0.5 * (follow.get(e) ?? 0);
          d *= Math.max(0, 1 - hit / Math.max(1, e.state.structure));
        }
        sum += d;
      }
    } finally {
      b.set(ox, oy, oh);
    }
    return this.tvValue(sum, m);
  }

  private nearestGap(m: BattleModel, p: Pose, enemies: readonly BattleModel[]): number {
    let best = Infinity;
    for (const e of enemies) best = Math.min(best, gapBetween(m, p.x, p.y, e, e.base.x, e.base.y));
    return best === Infinity ? 0 : best;
  }

  /** Scores of every option (and whether to fire before moving), for pickMove and tests. */
  scoreOptions(view: PolicyView, m: BattleModel, options: readonly MoveOption[]): { scores: Float64Array; before: Uint8Array } {
    const targets = view.reachable(m).slice(); // the engine reuses its list: copy before other queries
    const enemies = view.enemiesOf(m.side).slice();
    const follow = new Map<BattleModel, number>();
    const start = this.bestShot(view, m, m.base, targets, 1, follow);
    const scores = new Float64Array(options.length);
    const before = new Uint8Array(options.length);
    options.forEach((o, i) => {
      const end = this.bestShot(view, m, o.pose, targets, boostFactor(view, m, o), follow);
      const fireFirst = start.value > end.value + EPS;
      const shot = fireFirst ? start : end;
      let score = shot.value;
      if (this.p.caution > 0) score -= this.p.caution * this.exposure(view, m, o.pose, shot, follow);
      score += this.p.objective_weight * objectiveValue(view, o.pose);
      score -= this.p.approach * this.nearestGap(m, o.pose, enemies);
      scores[i] = score;
      before[i] = fireFirst ? 1 : 0;
    });
    return { scores, before };
  }

  /** Indices by key, best first; runs of exactly equal keys are shuffled with `rng` (drawn only for ties). */
  private ranked(keys: Float64Array, high: boolean, rng: RandomStream): number[] {
    const idx = Array.from(keys, (_, i) => i);
    idx.sort((a, b) => (high ? keys[b] - keys[a] : keys[a] - keys[b]) || a - b);
    for (let s = 0; s < idx.length; ) {
      let e = s + 1;
      while (e < idx.length && Math.abs(keys[idx[e]] - keys[idx[s]]) <= EPS) e++;
      for (let i = e - 1; i > s; i--) {
        const j = s + Math.min(i - s, Math.floor(rng.next() * (i - s + 1)));
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      s = e;
    }
    return idx;
  }

  // ------------------------------------------------------------------ Policy

  pickActivation(view: PolicyView, c: readonly BattleModel[], rng: RandomStream): number {
    // Cheap stand-in for (best option − waiting): the best shot from where the model stands or
    // from a step of its Speed towards the nearest enemy, plus what waiting risks (the enemy's
    // threat on it, in TV, weighted by caution); the nearest to the enemy breaks near-ties.
    if (c.length <= 1) return 0;
    const keys = new Float64Array(c.length);
    const follow = new Map<BattleModel, number>();
    const q: Pose = { x: 0, y: 0, heading: 0 };
    c.forEach((m, i) => {
      const targets = view.reachable(m).slice();
      const enemies = view.enemiesOf(m.side);
      let shot = this.bestShot(view, m, m.base, targets, 1, follow).value;
      let near: BattleModel | null = null;
      let nd = Infinity;
      for (const e of enemies) {
        const d = gapBetween(m, m.base.x, m.base.y, e, e.base.x, e.base.y);
        if (d < nd) {
          nd = d;
          near = e;
        }
      }
      if (near) {
        const dx = near.base.x - m.base.x, dy = near.base.y - m.base.y;
        const dist = hypot(dx, dy);
        const f = dist > EPS ? Math.min(m.unit.speed, Math.max(0, nd - 0.5)) / dist : 0;
        q.x = m.base.x + dx * f;
        q.y = m.base.y + dy * f;
        q.heading = m.unit.isCapital ? m.base.heading : headingTo(dx, dy);
        shot = Math.max(shot, this.bestShot(view, m, q, targets, 1, follow).value);
      }
      const risk = this.p.caution * this.tvValue(view.threat(m, m.base), m);
      keys[i] = shot + 0.5 * risk - 0.001 * (nd === Infinity ? 0 : nd);
    });
    return this.ranked(keys, true, rng)[0];
  }

  pickMove(view: PolicyView, m: BattleModel, options: readonly MoveOption[], legal: (i: number) => boolean, rng: RandomStream): { index: number; fireBefore: boolean } {
    if (!options.length) return { index: -1, fireBefore: false };
    const { scores, before } = this.scoreOptions(view, m, options);
    for (const i of this.ranked(scores, true, rng)) if (legal(i)) return { index: i, fireBefore: before[i] === 1 };
    return { index: -1, fireBefore: false };
  }

  targetOrder(view: PolicyView, m: BattleModel, from: Pose, enemies: readonly BattleModel[], _rng?: RandomStream): BattleModel[] {
    // Expected TV destroyed by a volley at each target, best first (ties: fleet, then index).
    const out: BattleModel[] = [];
    for (const e of enemies) insertTarget(out, this.targetScores, e, this.tvValue(view.estimate(m, from, e), e));
    return out;
  }
  /** targetOrder's scratch (insertTarget). */
  private readonly targetScores: number[] = [];

  pickDeployment(_view: PolicyView, _m: BattleModel, candidates: DeployCandidates, legal: (i: number) => boolean): number {
    return pickByDepth(candidates, legal, this.p.deploy_depth);
  }

  pickBeacon(view: PolicyView, _side: 0 | 1, _home: { x: number; y: number }, c: ReadonlyArray<{ x: number; y: number }>): number {
    // Towards the middle of the table, where the fight is.
    return nearestPoint(c, view.width / 2, view.height / 2);
  }

  holdBack(): { squadrons: number; untilTurn: number; embark?: number } {
    return holdBackOf(this.p);
  }

  wants(view: PolicyView, m: BattleModel, action: Exclude<ActionName, 'none'>): boolean {
    return wantsByParams(this.p, view, m, action);
  }
}
