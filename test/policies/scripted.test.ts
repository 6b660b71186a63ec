// The scripted policy (src/policies/scripted.ts) and its orders in scenario files: the loader
// checks orders with messages naming the file and JSON path; a scripted side plays whole
// games; and the traces show the orders carried out (hold at long range, withdraw, close on
// the largest enemy).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Battle, type Trace } from '../../src/engine/battle/game.js';
import { makePolicy } from '../../src/policies/index.js';
import { ScriptedPolicy } from '../../src/policies/scripted.js';
import { compileRules } from '../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../src/rules/interpretations.js';
import { getRulesVersion } from '../../src/rules/registry.js';
import { loadScenario } from '../../src/scenarios/scenario.js';
import type { Scenario } from '../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../src/sim/battles.js';
import { emptyTrace } from '../helpers/battle.js';
import { userError } from '../helpers/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = join(ROOT, 'scenarios', 'battles', 'scripted-screen.json');
const ROSTER = join(ROOT, 'scenarios', 'units', 'sample-roster.json');
const V122 = { rulesVersion: '1.2.2', allowInvalidFleets: false };
const RULES = compileRules(getRulesVersion('1.2.2'), DEFAULT_INTERPRETATIONS);

type Json = Record<string, unknown>;

/** The sample scenario with side a's policy replaced, written to a temporary file. */
function withPolicyA(policy: Json, patch: Json = {}): string {
  const data = JSON.parse(readFileSync(SAMPLE, 'utf8')) as Json & { sides: { a: Json } };
  data.units = [ROSTER];
  data.sides.a.policy = policy;
  Object.assign(data, patch);
  const file = join(mkdtempSync(join(tmpdir(), 'jwsim-scripted-')), 'scenario.json');
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/** Message and details of the UserError loading `file` throws, one string. */
function loadError(file: string): string {
  const e = userError(() => loadScenario(file, V122));
  return [e.message, ...e.details].join('\n');
}

const scripted = (orders: unknown[], params: Json = {}) => ({ name: 'scripted', params, orders });

describe('scripted orders in scenario files', () => {
  it('the sample loads, with defaults filled in', () => {
    const s = loadScenario(SAMPLE, V122);
    expect(s.sides[0].policy.name).toBe('scripted');
    expect(s.sides[0].policy.orders).toEqual([
      { from: 1, to: 2, do: 'hold', range: 'long', target: null, units: 'capital', distance: 4 },
      { from: 3, to: 7, do: 'close', range: 'long', target: 'largest', units: 'capital', distance: 4 },
      { from: 1, to: 4, do: 'screen', range: 'long', target: null, units: 'squadron', distance: 4 },
    ]);
    expect(s.sides[1].policy).toEqual({ name: 'aggressive', params: {} });
    const f = withPolicyA(scripted([{ turns: '5', do: 'close' }, { turns: ' 1 - 3 ', do: 'hold', range: 'short', target: 'weakest' }]));
    expect(loadScenario(f, V122).sides[0].policy.orders).toEqual([
      { from: 5, to: 5, do: 'close', range: 'long', target: 'nearest', units: 'all', distance: 4 },
      { from: 1, to: 3, do: 'hold', range: 'short', target: 'weakest', units: 'all', distance: 4 },
    ]);
  });

  it('a turn range that runs backwards names the file, the path and the fix', () => {
    const f = withPolicyA(scripted([{ turns: '1-2', do: 'hold' }, { turns: '3-1', do: 'close', target: 'largest' }]));
    const msg = loadError(f);
    expect(msg).toContain(f);
    expect(msg).toMatch(/sides\.a\.policy\.orders\[1\]\.turns: "3-1" runs backwards; write the earlier turn first \("1-3"\)/);
  });

  it('turns outside the scenario and turns that are not turns are errors', () => {
    const f = withPolicyA(scripted([{ turns: '6-9', do: 'hold' }, { turns: 'two', do: 'close' }, { turns: '0', do: 'withdraw' }]));
    const msg = loadError(f);
    expect(msg).toMatch(/sides\.a\.policy\.orders\[0\]\.turns: "6-9" lies outside the scenario's turns; allowed 1\.\.7/);
    expect(msg).toMatch(/sides\.a\.policy\.orders\[1\]\.turns: "two" is not a turn or a range of turns; write "N" or "N-M"/);
    expect(msg).toMatch(/sides\.a\.policy\.orders\[2\]\.turns: "0" lies outside/);
  });

  it('overlapping orders for the same models are an error; capital and squadron orders may share turns', () => {
    const f = withPolicyA(scripted([{ turns: '1-2', do: 'hold' }, { turns: '2-4', do: 'close', target: 'largest', units: 'capital' }]));
    const msg = loadError(f);
    expect(msg).toContain(f);
    expect(msg).toMatch(/sides\.a\.policy\.orders\[1\]\.turns: "2-4" overlaps sides\.a\.policy\.orders\[0\] \("1-2"\) in turn 2 for the same models \(capital ships\)/);
    const ok = withPolicyA(scripted([{ turns: '1-3', do: 'hold', units: 'capital' }, { turns: '2-4', do: 'screen', units: 'squadron' }]));
    expect(loadScenario(ok, V122).sides[0].policy.orders).toHaveLength(2);
  });

  it('an unknown "do" or target is a schema error at its path, listing what is allowed', () => {
    const f = withPolicyA(scripted([{ turns: '1', do: 'charge' }, { turns: '2', do: 'close', target: 'flagship' }]));
    const msg = loadError(f);
    expect(msg).toContain(`${f}: sides.a.policy.orders[0].do: "charge" is not one of hold, close, withdraw, objective, screen`);
    expect(msg).toContain(`${f}: sides.a.policy.orders[1].target: "flagship" is not one of largest, nearest, weakest, capital, squadron`);
  });

  it('fields an order does not read, orders on another policy, and a scripted side without orders are errors', () => {
    const f = withPolicyA(scripted([{ turns: '1', do: 'close', range: 'short' }, { turns: '2', do: 'withdraw', target: 'largest' }, { turns: '3', do: 'screen', units: 'capital' }, { turns: '4', do: 'objective', range: 'long' }]));
    const msg = loadError(f);
    expect(msg).toMatch(/orders\[3\]\.range: only "hold" orders read "range"; this is an "objective" order/);
    expect(msg).toMatch(/orders\[0\]\.range: only "hold" orders read "range"; this is a "close" order/);
    expect(msg).toMatch(/orders\[1\]\.target: only "close" and "hold" orders read "target"; this is a "withdraw" order/);
    expect(msg).toMatch(/orders\[2\]\.units: a "screen" order moves squadrons/);
    expect(loadError(withPolicyA({ name: 'aggressive', orders: [{ turns: '1', do: 'hold' }] }))).toMatch(/sides\.a\.policy\.orders: only the "scripted" policy reads orders; this side plays "aggressive"/);
    expect(loadError(withPolicyA({ name: 'scripted' }))).toMatch(/sides\.a\.policy: the "scripted" policy needs "orders"/);
  });

  it('makePolicy builds it with aggressive parameters plus range_margin, and checks them', () => {
    const p = makePolicy({ name: 'scripted', params: { range_margin: 2, focus: 0 }, orders: [] }, 'x: sides.a.policy');
    expect(p).toBeInstanceOf(ScriptedPolicy);
    expect(p.name).toBe('scripted');
    expect(userError(() => makePolicy({ name: 'scripted', params: { caution: 1 }, orders: [] }, 'x: sides.a.policy')).message).toMatch(/sides\.a\.policy\.params\.caution: unknown parameter of policy "scripted"/);
  });
});

// ------------------------------------------------------------------ games

/** Plays `games` games (alternately mirrored) with traces. */
function play(s: Scenario, games: number, seed: string): Array<{ battle: Battle; trace: Trace; fates: Map<string, string> }> {
  const battle = new Battle(RULES, s);
  const streams = battleStreams(seed, 'scripted-test');
  const out = [];
  for (let g = 0; g < games; g++) {
    const trace = emptyTrace();
    const r = battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1, trace);
    expect(r.turns).toBeGreaterThanOrEqual(1);
    expect(r.turns).toBeLessThanOrEqual(s.turns);
    out.push({ battle, trace, fates: new Map(battle.models.map((m) => [m.label, battle.fate(m)])) });
  }
  return out;
}

const withSideA = (s: Scenario, policy: Scenario['sides'][0]['policy']): Scenario => ({ ...s, sides: [{ ...s.sides[0], policy }, s.sides[1]] });
const isCapitalLabel = (s: Scenario, label: string) => s.roster.units.get(label.split(' ')[1])!.isCapital;
const tvOf = (s: Scenario, label: string) => s.roster.units.get(label.split(' ')[1])!.tv;

/**
 * For each fleet-A capital-ship activation in turns 1-2: the centre distance, where it ended,
 * to the nearest fleet-B capital ship (positions replayed from the trace).
 */
function earlyGaps(s: Scenario, trace: Trace): number[] {
  const pos = new Map<string, { x: number; y: number }>();
  for (const d of trace.deployments) if (Number.isFinite(d.x)) pos.set(d.model, d);
  const out: number[] = [];
  for (const a of trace.activations) {
    pos.set(a.model, a.after);
    if (a.turn > 2 || !a.model.startsWith('A') || !isCapitalLabel(s, a.model)) continue;
    let best = Infinity;
    for (const [k, p] of pos) if (k.startsWith('B') && isCapitalLabel(s, k)) best = Math.min(best, Math.hypot(p.x - a.after.x, p.y - a.after.y));
    if (best < Infinity) out.push(best);
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('scripted games', () => {
  const sample = loadScenario(SAMPLE, V122);

  it('a scripted side plays whole games, mirrored too', () => {
    const games = play(sample, 2, 'plays');
    for (const { trace } of games) {
      expect(trace.activations.some((a) => a.model.startsWith('A'))).toBe(true);
      expect(trace.activations.some((a) => a.turn >= 3)).toBe(true);
    }
  });

  it('hold long (turns 1-2): capital ships end their moves farther from the enemy capital ships than aggressive ones on the same seeds', () => {
    const held = play(sample, 4, 'hold').flatMap(({ trace }) => earlyGaps(sample, trace));
    const rushed = play(withSideA(sample, { name: 'aggressive', params: {} }), 4, 'hold').flatMap(({ trace }) => earlyGaps(sample, trace));
    expect(held.length).toBeGreaterThan(10);
    expect(rushed.length).toBeGreaterThan(10);
    expect(mean(held)).toBeGreaterThan(mean(rushed) + 2);
  });

  it('withdraw: capital ships turn for their own edge and leave by it as Withdrawn', () => {
    const f = withPolicyA(scripted([{ turns: '1-7', do: 'withdraw', units: 'capital' }], { deploy_depth: 0 }));
    const s = loadScenario(f, V122);
    let withdrawn = 0;
    for (const { trace, fates } of play(s, 4, 'withdraw')) {
      for (const a of trace.activations) {
        if (!a.model.startsWith('A') || !isCapitalLabel(s, a.model)) continue;
        expect(a.action).not.toBe('ram');
        if (a.action !== 'withdraw') continue;
        withdrawn++;
        expect(a.attacks).toEqual([]);
        expect(fates.get(a.model)).toBe('withdrawn');
      }
      // Fleet B plays aggressive (withdraw_at 0): it never withdraws.
      for (const [label, fate] of fates) if (label.startsWith('B')) expect(fate).not.toBe('withdrawn');
    }
    expect(withdrawn).toBeGreaterThan(0);
  });

  it('objective: squadrons on the order make no strike that would take them off the marker (aggressive ones on the same seeds do)', () => {
    const depot = { objectives: [{ id: 'depot', x: 24, y: 24, radius: 3, points: 1 }] };
    const strikes = ['intercept', 'assault', 'bombing', 'board', 'ram'];
    const count = (policy: Json) => {
      const s = loadScenario(withPolicyA(policy, depot), V122);
      let n = 0;
      for (const { trace } of play(s, 6, 'objective')) for (const a of trace.activations) if (a.model.startsWith('A') && !isCapitalLabel(s, a.model) && strikes.includes(a.action)) n++;
      return n;
    };
    expect(count(scripted([{ turns: '1-7', do: 'objective', units: 'squadron' }]))).toBe(0);
    expect(count({ name: 'aggressive' })).toBeGreaterThan(5);
  });

  it('close on the largest (turns 3-7): the first attack goes at the largest-TV enemy in reach', () => {
    let checked = 0;
    let atLargest = 0;
    const maxTv = Math.max(...sample.sides[1].fleet.map((u) => u.tv));
    for (const { trace } of play(sample, 4, 'close')) {
      for (const a of trace.activations) {
        if (a.turn < 3 || !a.model.startsWith('A') || !isCapitalLabel(sample, a.model)) continue;
        const own = a.attacks.filter((x) => x.window === 0 && x.attacker === a.model);
        if (!own.length) continue;
        checked++;
        // Every enemy it attacked was in reach; none of them may outrank the first in TV.
        const first = tvOf(sample, own[0].target);
        for (const x of own) expect(tvOf(sample, x.target)).toBeLessThanOrEqual(first);
        if (first === maxTv) atLargest++;
      }
    }
    expect(checked).toBeGreaterThan(5);
    // The corsairs (the largest TV in fleet B) draw most of the fire.
    expect(atLargest / checked).toBeGreaterThan(0.5);
  });
});
