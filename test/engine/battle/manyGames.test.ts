// Invariants over thousands of whole games, checked after every activation rather than only
// at the end: every sample scenario under each rules version it allows, with random, aggressive
// and standoff policies (mirrored every other game). The games run without a trace, as runs
// do; the per-game checks (fates, VP, winner) use only the end state. The detailed trace-based
// checks live in invariants.test.ts and squadronInvariants.test.ts on fewer games.
import { describe, expect, it } from 'vitest';
import type { GameResult } from '../../../src/engine/battle/game.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { GEOM_EPSILON, onTable, separationBelow } from '../../../src/engine/geometry.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { PolicyName, Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, endState, expectedVp, expectedWinner, rules, sampleScenario, withPolicies, type SampleScenario } from '../../helpers/battle.js';

const PAIRS: Array<[PolicyName, PolicyName]> = [
  ['random', 'random'],
  ['aggressive', 'aggressive'],
  ['aggressive', 'random'],
  ['standoff', 'aggressive'],
];
const SCENARIO_VERSIONS: Array<[SampleScenario, RulesVersionId]> = [
  ['standard-engagement', '1.2.2'],
  ['standard-engagement', '1.2.1'],
  ['beacon-assault', '1.2.2'],
  ['beacon-assault', '1.2.1'],
  ['corner-escalation', '1.2.2'], // v1.2.1 rejects Escalating Deployment
];
const GAMES = 120; // per scenario, version and pair: 5 x 4 x 120 = 2400 games

interface Internals {
  activate(m: BattleModel): void;
}

/** Checks that must hold between any two activations; returns the first few violations. */
function between(battle: Battle, W: number, H: number, activated: Set<BattleModel>, m: BattleModel): string[] {
  const bad: string[] = [];
  if (activated.has(m)) bad.push(`${m.label} activated twice in a turn`);
  activated.add(m);
  const table = battle.models.filter((x) => x.where === 'table');
  const aboard = new Map<BattleModel, number>();
  for (const x of battle.models) {
    if (x.where === 'table' && x.state.destroyed) bad.push(`${x.label} is destroyed but still on the table`);
    if (!x.unit.isCapital && (x.fuel < 0 || x.fuel > x.unit.fuel)) bad.push(`${x.label} Fuel ${x.fuel} outside 0..${x.unit.fuel}`);
    if ((x.where === 'embarked') !== (x.carrier !== null)) bad.push(`${x.label} is ${x.where} with carrier ${x.carrier?.label ?? 'none'}`);
    if (x.where === 'embarked' && x.carrier) aboard.set(x.carrier, (aboard.get(x.carrier) ?? 0) + 1);
  }
  for (const [c, n] of aboard) if (n > c.unit.hangers) bad.push(`${c.label} carries ${n} squadrons with Hangers ${c.unit.hangers}`);
  for (const x of table) if (!onTable(x.base, W, H)) bad.push(`${x.label} is off the table at ${x.base.x}, ${x.base.y}, ${x.base.heading}`);
  for (let i = 0; i < table.length; i++) {
    for (let j = i + 1; j < table.length; j++) {
      const a = table[i], b = table[j];
      if (a.assaulting === b || b.assaulting === a) continue; // an Assaulting squadron sits on its ship (combat.md §11.4)
      if (separationBelow(a.base, b.base, -GEOM_EPSILON)) bad.push(`${a.label} overlaps ${b.label}`);
    }
  }
  return bad;
}

function afterGame(battle: Battle, scenario: Scenario, version: RulesVersionId, r: GameResult): string[] {
  const bad: string[] = [];
  for (const m of battle.models) if (battle.fate(m) !== endState(m)) bad.push(`fate of ${m.label}: ${battle.fate(m)} vs ${endState(m)}`);
  const vp = expectedVp(battle, version);
  if (r.vp[0] !== vp[0] || r.vp[1] !== vp[1]) bad.push(`VP ${r.vp} vs recomputed ${vp}`);
  const surv = [0, 0];
  for (const m of battle.models) if (['intact', 'reserve'].includes(endState(m))) surv[m.fleet] += m.unit.tv;
  if (r.survivingTv[0] !== surv[0] || r.survivingTv[1] !== surv[1]) bad.push(`surviving TV ${r.survivingTv} vs ${surv}`);
  const want = expectedWinner(r, version);
  if (r.winner !== want) bad.push(`winner ${r.winner}, expected ${want} from OP ${r.op} and VP ${r.vp}`);
  if (r.turns < 1 || r.turns > scenario.turns) bad.push(`${r.turns} turns played of ${scenario.turns}`);
  return bad;
}

describe(`invariants after every activation over ${SCENARIO_VERSIONS.length * PAIRS.length * GAMES} games`, () => {
  const totals = { games: 0, activations: 0, checks: 0 };
  describe.each(SCENARIO_VERSIONS.map(([name, version]) => ({ name, version })))('$name under v$version', ({ name, version }) => {
    it.each(PAIRS.map(([a, b]) => ({ a, b })))(`${GAMES} games, $a vs $b`, ({ a, b }) => {
      const scenario = withPolicies(sampleScenario(name, version), a, b);
      const battle = new Battle(rules(version), scenario);
      const inner = battle as unknown as Internals;
      const W = scenario.table.width, H = scenario.table.height;
      const activate = inner.activate.bind(battle);
      let turn = 0;
      let activated = new Set<BattleModel>();
      let violations: string[] = [];
      inner.activate = (m: BattleModel) => {
        const now = (battle as unknown as { turn: number }).turn;
        if (now !== turn) {
          turn = now;
          activated = new Set();
        }
        activate(m);
        totals.checks++;
        if (violations.length < 10) violations.push(...between(battle, W, H, activated, m).map((v) => `turn ${now}, after ${m.label}: ${v}`));
      };
      const streams = battleStreams(`many-${a}-${b}`, `${name}-${version}`);
      for (let g = 0; g < GAMES; g++) {
        turn = 0;
        violations = [];
        const r = battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1);
        violations.push(...afterGame(battle, scenario, version, r));
        expect(violations, `game ${g}${g % 2 ? ' (mirrored)' : ''}`).toEqual([]);
        totals.games++;
        totals.activations += r.activations;
      }
    });
  });
  it('played every game and checked after every activation', () => {
    expect(totals.games).toBe(SCENARIO_VERSIONS.length * PAIRS.length * GAMES);
    expect(totals.checks).toBe(totals.activations);
    expect(totals.activations).toBeGreaterThan(totals.games * 20);
  });
});
