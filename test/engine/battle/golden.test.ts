// A golden game: standard-engagement, seed "golden", game 0, rules v1.2.2, not mirrored.
// Concrete facts about its trace are asserted here, and a compact digest (the result, the
// fates, the deployments, the number of activations and the first three activations) is
// compared exactly against test/engine/battle/golden-trace.json. Any change to the engine,
// the policies, the streams or the sample data that changes this game shows up here.
// Regenerate on purpose with:  JWSIM_UPDATE_GOLDEN=1 npx vitest run test/engine/battle/golden.test.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { traceGame } from '../../../src/sim/battles.js';
import { rules, sampleScenario } from '../../helpers/battle.js';

const GOLDEN = fileURLToPath(new URL('./golden-trace.json', import.meta.url));
const UPDATE = process.env.JWSIM_UPDATE_GOLDEN === '1';

describe('golden trace: standard-engagement, seed "golden", game 0, v1.2.2', () => {
  const scenario = sampleScenario('standard-engagement', '1.2.2');
  const { battle, trace, result, fates } = traceGame(rules('1.2.2'), scenario, 'golden', 0, false);

  it('the trace agrees with the result', () => {
    expect(trace.initiative).toBe(`${result.initiative === 0 ? 'A' : 'B'} (${scenario.sides[result.initiative].name})`);
    expect(trace.activations).toHaveLength(result.activations);
    // Fleet Deployment puts every model down in the first Deployment Phase, Initiative first.
    expect(trace.deployments).toHaveLength(battle.models.length);
    expect(trace.deployments.every((d) => d.turn === 1 && Number.isFinite(d.x))).toBe(true);
    expect(trace.deployments[0].model[0]).toBe(result.initiative === 0 ? 'A' : 'B');
    // No objectives: no Objective Points, one End Phase per turn played (v1.2.2 ends only there).
    expect(result.op).toEqual([0, 0]);
    expect(trace.endPhases.map((e) => e.turn)).toEqual(Array.from({ length: result.turns }, (_, i) => i + 1));
    expect(trace.endPhases.every((e) => e.op[0] === 0 && e.op[1] === 0 && e.scored.length === 0)).toBe(true);
    // Turns run in order; the Initiative fleet opens every Activation Phase.
    const turns = trace.activations.map((a) => a.turn);
    expect(turns).toEqual([...turns].sort((x, y) => x - y));
    for (let t = 1; t <= result.turns; t++) {
      const first = trace.activations.find((a) => a.turn === t);
      if (first) expect(first.model[0]).toBe(result.initiative === 0 ? 'A' : 'B');
    }
  });

  it('VP, surviving TV and the winner follow from the fates', () => {
    const vp = [0, 0];
    const surv = [0, 0];
    for (const f of fates) {
      const i = f.fleet === 'a' ? 0 : 1;
      if (f.fate === 'intact' || f.fate === 'reserve') {
        vp[i] += f.tv;
        surv[i] += f.tv;
      } else if (f.fate === 'withdrawn') vp[i] += Math.ceil(f.tv / 2);
    }
    expect(result.vp).toEqual(vp);
    expect(result.survivingTv).toEqual(surv);
    expect(result.winner).toBe(vp[0] === vp[1] ? 2 : vp[0] > vp[1] ? 0 : 1);
    // Damage dealt adds up to the Structure each fleet lost.
    for (const side of ['a', 'b'] as const) {
      const dealt = fates.filter((f) => f.fleet === side).reduce((s, f) => s + f.damage_dealt, 0);
      const lost = battle.models.filter((m) => (m.fleet === 0 ? 'a' : 'b') !== side).reduce((s, m) => s + (m.unit.structure - m.state.structure), 0);
      const attacks = trace.activations.flatMap((a) => a.attacks).filter((a) => a.attacker[0] === side.toUpperCase());
      expect(attacks.reduce((s, a) => s + a.structureDamage, 0)).toBe(dealt);
      // Rams and point defence (bombing runs, Stay on Target, Engage Point Defense) also cost Structure.
      expect(lost).toBeGreaterThanOrEqual(dealt);
    }
  });

  it('matches the committed digest exactly', () => {
    const digest = {
      scenario: scenario.id,
      rules: '1.2.2',
      seed: 'golden',
      game: 0,
      mirrored: false,
      result,
      fates: fates.map((f) => `${f.model}: ${f.fate}, structure ${f.structure}, dealt ${f.damage_dealt}`),
      deployments: trace.deployments.map((d) => `${d.model} @ ${d.x},${d.y} h${d.heading}`),
      activations: trace.activations.length,
      attacks: trace.activations.reduce((s, a) => s + a.attacks.length, 0),
      firstActivations: trace.activations.slice(0, 3),
    };
    const text = `${JSON.stringify(digest, null, 2)}\n`;
    if (UPDATE) {
      writeFileSync(GOLDEN, text);
      return;
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing; create it with JWSIM_UPDATE_GOLDEN=1`).toBe(true);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});
