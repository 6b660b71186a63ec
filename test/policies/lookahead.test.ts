// The lookahead policy (src/policies/lookahead.ts): it values options by expected TV destroyed
// and lost, so it finishes a crippled enemy rather than scratching a fresh one, keeps out of
// reach of enemies still to activate when that costs nothing, is a pure function of the
// position and its random stream, and plays whole games.
import { describe, expect, it } from 'vitest';
import type { BattleModel } from '../../src/engine/battle/model.js';
import type { Pose } from '../../src/engine/battle/movement.js';
import { LOOKAHEAD_PARAMS, LookaheadPolicy, lookaheadDefaults } from '../../src/policies/lookahead.js';
import type { MoveOption, Policy } from '../../src/policies/types.js';
import { TrialStreams } from '../../src/rng/stream.js';
import { battleStreams, runBattleChunk, B_N, B_WIN_A, B_WIN_B, B_DRAW } from '../../src/sim/battles.js';
import { Battle, handBattle, miniScenario, policiesOf, put, rules, sampleScenario } from '../helpers/battle.js';

const opt = (x: number, y: number, heading: number): MoveOption => ({ pose: { x, y, heading }, action: 'none', travelled: 0 });
const always = () => true;
const rngAt = (seed: string, t = 0) => new TrialStreams({ seed, experiment: 'lookahead-test', purpose: 'battle-policy', chunk: 0 }).at(t);

/** A hand-built Battle: the first model of fleet a and the listed fleet-b models, none activated. */
function table(b: string[]): { battle: Battle; m: BattleModel; enemies: BattleModel[] } {
  const battle = new Battle(rules('1.2.2'), miniScenario({ a: ['unknown.tengu'], b }));
  handBattle(battle);
  const [m, ...enemies] = battle.models;
  return { battle, m, enemies };
}

function inject(battle: Battle, a: Policy, b: Policy): void {
  const policies = policiesOf(battle);
  policies[0] = a;
  policies[1] = b;
}

describe('LOOKAHEAD_PARAMS', () => {
  it('has the common parameters the engine asks about, plus its own, with defaults in range', () => {
    for (const k of ['ram', 'withdraw_at', 'concentrate', 'evade', 'intercept', 'bomb', 'assault', 'engage_pd', 'board', 'hold_squadrons', 'hold_until', 'deploy_depth', 'depth', 'caution']) {
      expect(LOOKAHEAD_PARAMS[k], k).toBeDefined();
    }
    for (const [k, s] of Object.entries(LOOKAHEAD_PARAMS)) expect(s.default >= s.min && s.default <= s.max, k).toBe(true);
    expect(lookaheadDefaults({ caution: 2 }).caution).toBe(2);
    expect(new LookaheadPolicy().name as string).toBe('lookahead');
  });
});

describe('lookahead move choice', () => {
  it('turns to finish an enemy at 1 Structure rather than scratch a full-health one', () => {
    const { battle, m, enemies } = table(['unknown.tengu', 'unknown.tengu']);
    const [x, y] = enemies;
    put(m, 24, 2, 0); // out of reach of both where it stands: it can only fire after moving
    put(x, 16, 24, 180);
    put(y, 32, 24, 180);
    x.state.structure = 1; // crippled to its last point; y is untouched
    // The same spot, turned towards x (heading -35) or towards y (heading +35): mirror images.
    const options = [opt(24, 12, 35), opt(24, 12, 325)];
    for (const caution of [0, 0.5, 2]) {
      const pol = new LookaheadPolicy({ caution });
      for (const e of enemies) expect(battle.estimate(m, m.base, e)).toBe(0);
      const toY = battle.estimate(m, options[0].pose, y), toX = battle.estimate(m, options[1].pose, x);
      expect(toX).toBeGreaterThan(0);
      expect(toY).toBeCloseTo(toX, 12); // the geometry is symmetric: the same expected damage
      expect(toY).toBeLessThan(y.state.structure); // a scratch on y
      const { scores } = pol.scoreOptions(battle, m, options);
      expect(scores[1]).toBeGreaterThan(scores[0]);
      expect(pol.pickMove(battle, m, options, always, rngAt('kill')).index).toBe(1);
      expect(pol.targetOrder(battle, m, options[1].pose, [y, x], rngAt('kill'))[0]).toBe(x);
    }
  });

  it('keeps out of reach of several enemies still to activate when a safe option is as good', () => {
    const { battle, m, enemies } = table(['unknown.tengu', 'unknown.tengu', 'unknown.tengu']);
    put(m, 24, 6, 0);
    enemies.forEach((e, i) => put(e, 20 + 4 * i, 44, 180));
    // B: 22" short of them: beyond m's own reach (15") but within theirs (Speed 8 + 15");
    // A: 30" short: out of everyone's reach. Neither lets m fire: equally good as shots.
    const options = [opt(24, 22, 0), opt(24, 14, 0)];
    for (const o of options) for (const e of enemies) expect(battle.estimate(m, o.pose, e)).toBe(0);
    const careless = new LookaheadPolicy({ caution: 0, approach: 0 }).scoreOptions(battle, m, options);
    expect(careless.scores[0]).toBeCloseTo(careless.scores[1], 12);
    const pol = new LookaheadPolicy({ approach: 0 });
    const { scores } = pol.scoreOptions(battle, m, options);
    expect(scores[0]).toBeLessThan(scores[1]);
    expect(pol.pickMove(battle, m, options, always, rngAt('safe')).index).toBe(1);
    // Once they have all activated, they can no longer reply this turn: no difference left.
    for (const e of enemies) e.activated = true;
    const after = pol.scoreOptions(battle, m, options).scores;
    expect(after[0]).toBeCloseTo(after[1], 12);
    // And m's base is where it was: the rollout puts it back.
    expect([m.base.x, m.base.y, m.base.heading]).toEqual([24, 6, 0]);
  });

  it('asks about legality best first and skips an illegal best option', () => {
    const { battle, m, enemies } = table(['unknown.tengu', 'unknown.tengu', 'unknown.tengu']);
    put(m, 24, 6, 0);
    enemies.forEach((e, i) => put(e, 20 + 4 * i, 44, 180));
    const options = [opt(24, 22, 0), opt(24, 14, 0)];
    const asked: number[] = [];
    const r = new LookaheadPolicy({ approach: 0 }).pickMove(battle, m, options, (i) => (asked.push(i), i === 0), rngAt('legal'));
    expect(asked).toEqual([1, 0]);
    expect(r.index).toBe(0);
    expect(new LookaheadPolicy().pickMove(battle, m, options, () => false, rngAt('legal')).index).toBe(-1);
  });
});

describe('lookahead determinism', () => {
  it('makes the same choices from the same position and random stream', () => {
    const { battle, m, enemies } = table(['unknown.tengu', 'cega.wyvern', 'cega.uller']);
    put(m, 24, 10, 0);
    put(enemies[0], 20, 30, 180);
    put(enemies[1], 30, 26, 180);
    put(enemies[2], 12, 24, 180);
    const options: MoveOption[] = [];
    for (const h of [0, 45, 315]) for (const d of [4, 6, 8]) options.push(opt(24 + d * Math.sin((h * Math.PI) / 180), 10 + d * Math.cos((h * Math.PI) / 180), h));
    const pol = new LookaheadPolicy();
    const first = pol.pickMove(battle, m, options, always, rngAt('det', 3));
    for (let k = 0; k < 5; k++) expect(new LookaheadPolicy().pickMove(battle, m, options, always, rngAt('det', 3))).toEqual(first);
    expect(pol.pickActivation(battle, battle.models.filter((x) => x.side === 1), rngAt('det', 3))).toBe(pol.pickActivation(battle, battle.models.filter((x) => x.side === 1), rngAt('det', 3)));
  });

  it('breaks exact ties with its random stream only', () => {
    const { battle, m, enemies } = table(['unknown.tengu']);
    put(m, 24, 6, 0);
    put(enemies[0], 24, 44, 180);
    const same: Pose = { x: 24, y: 10, heading: 0 };
    const options = [opt(same.x, same.y, 0), opt(same.x, same.y, 0), opt(same.x, same.y, 0)];
    const pol = new LookaheadPolicy();
    const seen = new Set<number>();
    for (let t = 0; t < 40; t++) {
      const a = pol.pickMove(battle, m, options, always, rngAt('tie', t)).index;
      expect(pol.pickMove(battle, m, options, always, rngAt('tie', t)).index).toBe(a);
      seen.add(a);
    }
    expect(seen.size).toBe(3);
  });
});

describe('lookahead whole games', () => {
  it('plays standard-engagement games against aggressive, on either side, deterministically', () => {
    const scenario = sampleScenario('standard-engagement', '1.2.2');
    const run = () => {
      const battle = new Battle(rules('1.2.2'), scenario);
      inject(battle, new LookaheadPolicy(), policiesOf(battle)[1]);
      return runBattleChunk(battle, battleStreams('lookahead-smoke', scenario.id), 0, 3, true);
    };
    const c = run();
    expect(c[B_N]).toBe(6);
    expect(c[B_WIN_A] + c[B_WIN_B] + c[B_DRAW]).toBe(6);
    expect(run()).toEqual(c);
  });

  it('plays a small lookahead mirror match to the end', () => {
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: ['unknown.tengu', 'unknown.tengu', 'cega.wyvern'], b: ['jovian.alexander', 'jovian.pathfinder'], turns: 5 }));
    inject(battle, new LookaheadPolicy({ depth: 1 }), new LookaheadPolicy({ depth: 2, caution: 1 }));
    const s = battleStreams('lookahead-mini', 'mini');
    for (let t = 0; t < 4; t++) {
      const r = battle.play(s.dice.at(t), s.policy.at(t), t % 2 === 1);
      expect([0, 1, 2]).toContain(r.winner);
      expect(r.activations).toBeGreaterThan(0);
      expect(r.turns).toBeGreaterThanOrEqual(1);
    }
  });
});
