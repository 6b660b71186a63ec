// An activation asks its policy for the target order where it will fire (to choose its
// action), and the fire asks again. For policies whose targetOrder is pure (targetsByRule),
// the engine keeps the first list when nothing on the table changed in between. These games
// are played twice, once with that reuse and once with the flag cleared (every fire asks
// afresh), and must come out the same, trace and all.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/policies/types.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import { loadScenario } from '../../../src/scenarios/scenario.js';
import type { PolicyName, Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, policiesOf, rules, sampleScenario, withPolicies, type SampleScenario } from '../../helpers/battle.js';

const GAMES = 16;

/** Plays GAMES traced games; `reuse` false clears targetsByRule on both policies. Counts targetOrder calls. */
function play(version: RulesVersionId, scenario: Scenario, label: string, reuse: boolean): { games: unknown[]; asks: number } {
  const battle = new Battle(rules(version), scenario);
  let asks = 0;
  for (const p of policiesOf(battle)) {
    const pol = p as { -readonly [K in keyof Policy]: Policy[K] };
    if (!reuse) Object.defineProperty(pol, 'targetsByRule', { value: false });
    const order = pol.targetOrder.bind(pol);
    pol.targetOrder = (...args) => {
      asks++;
      return order(...args);
    };
  }
  const streams = battleStreams('target-reuse', label);
  const games: unknown[] = [];
  for (let g = 0; g < GAMES; g++) {
    const trace = emptyTrace();
    const r = battle.play(streams.dice.at(g), streams.policy.at(g), g % 2 === 1, trace);
    games.push({ r, trace });
  }
  return { games, asks };
}

const PAIRS: Array<[PolicyName, PolicyName]> = [
  ['aggressive', 'aggressive'],
  ['standoff', 'lookahead'],
  ['random', 'aggressive'],
];
const SAMPLES: Array<[SampleScenario, RulesVersionId]> = [
  ['standard-engagement', '1.2.2'],
  ['beacon-assault', '1.2.1'],
  ['corner-escalation', '1.2.2'],
];

describe('the target order kept from the action choice for the fire', () => {
  it.each(SAMPLES.flatMap(([name, version]) => PAIRS.map(([a, b]) => ({ name, version, a, b }))))('$name v$version, $a vs $b: same games, fewer asks', ({ name, version, a, b }) => {
    const scenario = withPolicies(sampleScenario(name, version), a, b);
    const kept = play(version, scenario, `${name}-${a}-${b}`, true);
    const fresh = play(version, scenario, `${name}-${a}-${b}`, false);
    expect(kept.games).toEqual(fresh.games);
    expect(kept.asks).toBeLessThan(fresh.asks);
  });

  it('a scripted side (its order over the aggressive one) plays the same games', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const scenario = loadScenario(join(root, 'scenarios', 'battles', 'scripted-screen.json'), { rulesVersion: '1.2.2', allowInvalidFleets: false });
    const kept = play('1.2.2', scenario, 'scripted', true);
    const fresh = play('1.2.2', scenario, 'scripted', false);
    expect(kept.games).toEqual(fresh.games);
    expect(kept.asks).toBeLessThan(fresh.asks);
  });

  it('pure policies say so; random, which draws for its order, does not', () => {
    const s = sampleScenario('standard-engagement', '1.2.2');
    for (const [name, pure] of [['aggressive', true], ['standoff', true], ['lookahead', true], ['random', false]] as const) {
      const [p] = policiesOf(new Battle(rules('1.2.2'), withPolicies(s, name, 'aggressive')));
      expect(p.targetsByRule === true, name).toBe(pure);
    }
  });
});
