// The AI policies: aggressive, standoff, random, scripted (src/policies/scripted.ts) and
// lookahead (src/policies/lookahead.ts). Each reads its parameters from the scenario file
// (checked against PARAMS) and chooses among the legal options the engine offers.
import { UserError } from '../errors.js';
import type { BattleModel } from '../engine/battle/model.js';
import type { Pose } from '../engine/battle/movement.js';
import type { RandomStream } from '../rng/stream.js';
import type { PolicyName, PolicySpec } from '../scenarios/scenarioTypes.js';
import { ScriptedPolicy } from './scripted.js';
import { LOOKAHEAD_PARAMS, LookaheadPolicy } from './lookahead.js';
import { commonParams, firepower, firstLegal, holdBackOf, insertTarget, menuMeasures, nearestPoint, pickByDepth, wantsByParams } from './shared.js';
import { LEFT_TIE, type ActionName, type DeployCandidates, type MoveOption, type ParamSpec, type Policy, type PolicyView } from './types.js';
import { hypot } from '../engine/geometry.js';

const escortParam = (inches: number): ParamSpec => ({ default: inches, min: 0, max: 24, summary: 'squadrons try to end their moves within this many inches of a friendly capital ship (0: no escort duty)' });

export const PARAMS: Record<PolicyName, Record<string, ParamSpec>> = {
  aggressive: {
    ...commonParams(1, 0, 1, 1, 1),
    escort: escortParam(0),
    focus: { default: 1, min: 0, max: 1, integer: true, summary: '1: fire first where expected damage per remaining Structure is highest (finish damaged models); 0: most expected damage' },
    objective_weight: { default: 0.5, min: 0, max: 10, summary: 'score for ending a move on an objective marker, in expected Structure damage' },
  },
  standoff: {
    ...commonParams(0.3, 1, 0, 0, 0),
    escort: escortParam(6),
    range_margin: { default: 1, min: 0, max: 12, summary: 'inches inside its own longest reach at which the model tries to hold' },
    caution: { default: 1, min: 0, max: 10, summary: 'weight of the damage the enemy could deal at the end position (keeping out of the enemy\'s reach and best arcs)' },
    objective_weight: { default: 0.5, min: 0, max: 10, summary: 'score for ending a move on an objective marker, in expected Structure damage' },
  },
  lookahead: LOOKAHEAD_PARAMS,
  scripted: {
    // Models and turns no order covers play as aggressive, with these parameters.
    ...commonParams(1, 0, 1, 1, 1),
    escort: escortParam(0),
    focus: { default: 1, min: 0, max: 1, integer: true, summary: 'aggressive play (turns and models no order covers): 1 fires first where expected damage per remaining Structure is highest; 0: most expected damage' },
    objective_weight: { default: 0.5, min: 0, max: 10, summary: 'aggressive play: score for ending a move on an objective marker, in expected Structure damage' },
    range_margin: { default: 1, min: 0, max: 12, summary: 'hold orders: inches inside the range band edge (own long range, or short range) at which the model keeps from the nearest enemies' },
  },
  random: {
    deploy_depth: { default: 0.5, min: 0, max: 1, summary: 'unused by random (deployment spots are uniform); accepted for symmetry' },
  },
};

/** Every problem of a side's policy parameters (unknown names, values out of range or not whole), each naming its path. */
export function paramProblems(spec: PolicySpec, where: string): string[] {
  const specs = PARAMS[spec.name];
  const problems: string[] = [];
  for (const [k, v] of Object.entries(spec.params)) {
    const s = specs[k];
    if (!s) problems.push(`${where}.params.${k}: unknown parameter of policy "${spec.name}"; allowed: ${Object.keys(specs).join(', ')}`);
    else if (!(v >= s.min && v <= s.max)) problems.push(`${where}.params.${k}: ${v} is out of range; allowed ${s.min}..${s.max} (${s.summary})`);
    else if (s.integer && !Number.isInteger(v)) {
      const allowed = s.min === 0 && s.max === 1 ? '0 or 1' : `a whole number in ${s.min}..${s.max}`;
      problems.push(`${where}.params.${k}: ${v} is not allowed; it must be ${allowed} (${s.summary})`);
    }
  }
  return problems;
}

/** Parameters with defaults filled in; any problem (paramProblems) is a UserError, the first as its message. */
export function policyParams(spec: PolicySpec, where: string): Record<string, number> {
  const problems = paramProblems(spec, where);
  if (problems.length) throw new UserError(problems[0], problems.slice(1));
  const out: Record<string, number> = {};
  for (const [k, s] of Object.entries(PARAMS[spec.name])) out[k] = s.default;
  return { ...out, ...spec.params };
}



/** Centre-to-centre distance less the model's bulk: a cheap distance from a pose to a model. */
function distanceTo(f: BattleModel, p: Pose): number {
  return Math.max(0, hypot(f.base.x - p.x, f.base.y - p.y) - f.bulk);
}




class Heuristic implements Policy {
  /** pickByDepth and the parameters alone (Policy.deploysByRule). */
  readonly deploysByRule = true;
  /** targetOrder: estimates and the parameters alone (Policy.targetsByRule). */
  readonly targetsByRule = true;
  constructor(
    readonly name: 'aggressive' | 'standoff',
    private readonly p: Record<string, number>,
  ) {}

  pickActivation(view: PolicyView, c: readonly BattleModel[]): number {
    // Standoff: the model with the best shot from where it stands goes first (then the
    // farthest from the enemy); aggressive: the model closest to the enemy first.
    // A lone candidate is the answer whatever it scores (one in eight calls on beacon-assault);
    // the scoring asks nothing that changes the game (the lists and firepower it reads are caches).
    if (c.length <= 1) return 0;
    let best = 0;
    let bestFire = -1;
    const aggressive = this.name === 'aggressive';
    let bestD = aggressive ? Infinity : -Infinity;
    const enemies = view.enemiesOf(c.length ? c[0].side : 0);
    const ne = enemies.length;
    // A plain loop: forEach made a closure per call and called it per candidate.
    for (let i = 0; i < c.length; i++) {
      const m = c[i];
      // The least distance by arithmetic on each comparison rather than a branch (see
      // firstLegal): x c + d (1 - c) is exactly x or d for finite values (a square root less a
      // positive bulk is never -0); the first enemy's value is taken as it is. The rest come
      // two at a time, the lesser of the two found before it meets d: the least is the same
      // number whatever the order of the comparisons, and each step that waits on the last
      // (compare, convert, multiply, add) now serves two enemies rather than one.
      let d = Infinity;
      const mx = m.base.x, my = m.base.y;
      if (ne > 0) {
        let e = enemies[0];
        let dx = e.base.x - mx, dy = e.base.y - my;
        d = Math.sqrt(dx * dx + dy * dy) - e.bulk;
        let k = 1;
        for (; k + 1 < ne; k += 2) {
          e = enemies[k];
          dx = e.base.x - mx;
          dy = e.base.y - my;
          const a = Math.sqrt(dx * dx + dy * dy) - e.bulk;
          e = enemies[k + 1];
          dx = e.base.x - mx;
          dy = e.base.y - my;
          const b = Math.sqrt(dx * dx + dy * dy) - e.bulk;
          const cp = +(b < a);
          const x = b * cp + a * (1 - cp);
          const c = +(x < d);
          d = x * c + d * (1 - c);
        }
        if (k < ne) {
          e = enemies[k];
          dx = e.base.x - mx;
          dy = e.base.y - my;
          const x = Math.sqrt(dx * dx + dy * dy) - e.bulk;
          const c = +(x < d);
          d = x * c + d * (1 - c);
        }
      }
      d = d === Infinity ? 0 : Math.max(0, d - m.bulk);
      if (aggressive) {
        if (d < bestD) {
          best = i;
          bestD = d;
        }
        continue;
      }
      const fire = firepower(view, m, m.base, 1);
      if (fire > bestFire + 1e-12 || (Math.abs(fire - bestFire) <= 1e-12 && d > bestD)) {
        best = i;
        bestFire = fire;
        bestD = d;
      }
    }
    return best;
  }

  pickMove(view: PolicyView, m: BattleModel, options: readonly MoveOption[], legal: (i: number) => boolean): { index: number; fireBefore: boolean } {
    const focus = this.name === 'aggressive' ? this.p.focus : 1;
    const fireStart = firepower(view, m, m.base, focus);
    const reach = Math.min(view.maxRange(m, true), view.maxRange(m, false) + 3);
    // Plain arrays kept by the policy and refilled in place (emptying one drops its backing store).
    const scores = this.scores;
    // Escort duty: the friendly capital ship nearest to the squadron.
    let escortOf: BattleModel | null = null;
    if (this.p.escort > 0 && !m.unit.isCapital) {
      for (const f of view.models) {
        if (f.side !== m.side || !f.unit.isCapital || f.where !== 'table' || f.state.destroyed) continue;
        if (!escortOf || distanceTo(f, m.base) < distanceTo(escortOf, m.base)) escortOf = f;
      }
    }
    // The firepower from every end position, worked out for the whole menu at once. A score
    // takes the better of that and fireStart, so enemies that cannot beat fireStart from
    // anywhere may be left out: then a value up to fireStart is not exact (see below).
    const fires = this.fires;
    const partial = view.firepowerOfMoves(m, options, focus, fires, fireStart);
    // And the distance to the nearest enemy from each (nearestEnemyDistance, for the whole menu).
    // And each end position's objective value (objectiveValue, for the whole menu): both in one pass.
    const dists = this.dists;
    const objs = this.objs;
    menuMeasures(view, m, options, dists, objs);
    // Boosting halves Fire Control (GM-60): count half the firepower from the end position.
    // boostFactor's answer for a Boost, asked once per menu: whether it halves depends on the
    // model only, and view.boostHalvesFc was a call V8 did not inline, made for each Boost option.
    const boostBf = view.boostHalvesFc(m) ? 0.5 : 1;
    // The policy's parameters and the escort test read once per menu, not once per option.
    const objWeight = this.p.objective_weight, aggressive = this.name === 'aggressive';
    const escorting = escortOf !== null && !m.unit.isCapital;
    for (let i = 0; i < options.length; i++) {
      const o = options[i];
      const fireEnd = fires[i] * (o.action === 'boost' ? boostBf : 1);
      const d = dists[i];
      // Math.max(fireStart, fireEnd) by arithmetic (see firstLegal): both finite, at least +0.
      const later = +(fireEnd > fireStart);
      let score = fireEnd * later + fireStart * (1 - later) + objWeight * objs[i];
      if (escorting) score -= 0.1 * Math.max(0, distanceTo(escortOf!, o.pose) - this.p.escort);
      if (aggressive) score -= 0.02 * d;
      else score -= this.p.caution * view.threat(m, o.pose) + 0.05 * Math.abs(d - (reach - this.p.range_margin));
      scores[i] = score;
    }
    // Best first (ties: menu order); the first legal one is taken. The scratch arrays are not
    // cut to the menu (MENU_STORE in battleState): firstLegal is told how many keys count.
    const i = firstLegal(scores, legal, true, options.length);
    // The answer goes out in one object kept by the policy (the engine reads it at once).
    const choice = this.choice;
    choice.index = i;
    choice.fireBefore = false;
    if (i < 0) return choice;
    // Fire before the move when that scores higher: the exact firepower from the chosen end
    // is needed where the menu's value may stand for a smaller one (at most fireStart).
    // That is needed only to tell a value equal to fireStart from a smaller one at full Fire
    // Control: above fireStart the value is exact; at or below it, halved by a Boost it is below
    // a positive fireStart (with fireStart 0 nothing worth more than 0 was left out); and a value
    // below fireStart stands for one below it unless something left out may be worth fireStart
    // exactly (LEFT_TIE; see PolicyView.firepowerOfMoves).
    const o = options[i];
    let fireEnd = fires[i];
    const bf = o.action === 'boost' ? boostBf : 1;
    if (partial === LEFT_TIE && bf === 1 && fireEnd < fireStart) fireEnd = firepower(view, m, o.pose, focus);
    choice.fireBefore = fireStart > fireEnd * bf;
    return choice;
  }

  /** pickMove's answer, refilled on each call. */
  private readonly choice = { index: -1, fireBefore: false };

  /** pickMove's scratch: each option's score. */
  private readonly scores: number[] = [];
  /** pickMove's scratch: the firepower from each option's end position. */
  private readonly fires: number[] = [];
  /** pickMove's scratch: the distance to the nearest enemy from each option's end position. */
  private readonly dists: number[] = [];
  /** pickMove's scratch: the objective value of each option's end position. */
  private readonly objs: number[] = [];

  targetOrder(view: PolicyView, m: BattleModel, from: Pose, enemies: readonly BattleModel[]): BattleModel[] {
    const focus = this.name === 'aggressive' ? this.p.focus : 1;
    // Only targets worth a shot are kept (most are out of range), each put in its place (insertTarget).
    // The list is the policy's own, refilled on each call: the engine reads an order only until
    // its fire is over, and asks for no other order meanwhile. Emptied by pop() (as cutTo in battleState), which
    // keeps its backing store: a new list per call allocated one as its first target went in.
    const out = this.targets;
    while (out.length > 0) out.pop();
    for (const e of enemies) insertTarget(out, this.targetScores, e, view.estimate(m, from, e) / (focus ? Math.max(1, e.state.structure) : 1));
    return out;
  }

  /** targetOrder's answer, refilled on each call. */
  private readonly targets: BattleModel[] = [];

  /** targetOrder's scratch: the score of each target in its list, at the same index. */
  private readonly targetScores: number[] = [];

  pickDeployment(_view: PolicyView, _m: BattleModel, candidates: DeployCandidates, legal: (i: number) => boolean): number {
    return pickByDepth(candidates, legal, this.p.deploy_depth);
  }

  pickBeacon(view: PolicyView, _side: 0 | 1, home: { x: number; y: number }, c: ReadonlyArray<{ x: number; y: number }>): number {
    // Aggressive beacons go towards the middle of the table; standoff beacons stay near home.
    return this.name === 'aggressive' ? nearestPoint(c, view.width / 2, view.height / 2) : nearestPoint(c, home.x, home.y);
  }

  holdBack(): { squadrons: number; untilTurn: number; embark?: number } {
    return holdBackOf(this.p);
  }

  wants(view: PolicyView, m: BattleModel, action: Exclude<ActionName, 'none'>): boolean {
    return wantsByParams(this.p, view, m, action);
  }
}

class RandomPolicy implements Policy {
  readonly name = 'random' as const;
  private pick(n: number, rng: RandomStream): number {
    return Math.min(n - 1, Math.floor(rng.next() * n));
  }
  pickActivation(_v: PolicyView, c: readonly BattleModel[], rng: RandomStream): number {
    return this.pick(c.length, rng);
  }
  pickMove(_v: PolicyView, _m: BattleModel, o: readonly MoveOption[], legal: (i: number) => boolean, rng: RandomStream) {
    // Uniform over the legal options: draw among those not yet ruled out.
    const left = o.map((_, i) => i);
    const fireBefore = rng.next() < 0.5;
    while (left.length) {
      const k = this.pick(left.length, rng);
      if (legal(left[k])) return { index: left[k], fireBefore };
      left.splice(k, 1);
    }
    return { index: -1, fireBefore };
  }
  targetOrder(_v: PolicyView, _m: BattleModel, _f: Pose, enemies: readonly BattleModel[], rng: RandomStream): BattleModel[] {
    const out = enemies.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.pick(i + 1, rng);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  pickDeployment(_v: PolicyView, _m: BattleModel, c: DeployCandidates, legal: (i: number) => boolean, rng: RandomStream): number {
    const left = c.map((_, i) => i);
    while (left.length) {
      const k = this.pick(left.length, rng);
      if (legal(left[k])) return left[k];
      left.splice(k, 1);
    }
    return -1;
  }
  pickBeacon(_v: PolicyView, _s: 0 | 1, _h: { x: number; y: number }, c: ReadonlyArray<{ x: number; y: number }>, rng: RandomStream): number {
    return this.pick(c.length, rng);
  }
  holdBack(): { squadrons: number; untilTurn: number; embark?: number } {
    return { squadrons: 0, untilTurn: 2 };
  }
  wants(_v: PolicyView, _m: BattleModel, _a: Exclude<ActionName, 'none'>, rng: RandomStream): boolean {
    return rng.next() < 0.5;
  }
}

export function makePolicy(spec: PolicySpec, where: string): Policy {
  const params = policyParams(spec, where);
  if (spec.name === 'scripted') return new ScriptedPolicy(params, spec.orders ?? [], new Heuristic('aggressive', params));
  if (spec.name === 'lookahead') return new LookaheadPolicy(params);
  return spec.name === 'random' ? new RandomPolicy() : new Heuristic(spec.name, params);
}
