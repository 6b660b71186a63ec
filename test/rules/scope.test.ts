// Each interpretation option's declared scope (the commands that read it) checked against
// what the engines do: outside its scope an option changes nothing the command computes,
// and the dice-kernel options do change some `jwsim dice` query.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exactDistribution, opposedDistribution } from '../../src/dice/exact.js';
import { resolvePool, type PoolRequest } from '../../src/dice/pool.js';
import { exactAttack } from '../../src/engine/attack.js';
import { firstArc, planAttack } from '../../src/engine/attackPlan.js';
import { exactRam, planRam } from '../../src/engine/ram.js';
import { CombatState } from '../../src/engine/state.js';
import { PlaceholderUsage } from '../../src/engine/usage.js';
import { compileRules, type CompiledRules } from '../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS, INTERPRETATIONS, applyRuleAssignments, refuseOutOfScope, scopeText } from '../../src/rules/interpretations.js';
import { getRulesVersion } from '../../src/rules/registry.js';
import { UserError } from '../../src/errors.js';
import { findUnit, loadRoster, weaponLine } from '../../src/units/load.js';

const ROSTER = loadRoster([fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url))]);
const VERSIONS = ['1.2.1', '1.2.2'] as const;

const compiled = (version: string, assignment?: string): CompiledRules =>
  compileRules(getRulesVersion(version), assignment ? applyRuleAssignments([assignment]) : DEFAULT_INTERPRETATIONS);

/** Every option at every value other than its default, as NAME=VALUE. */
const nonDefault = (filter: (s: (typeof INTERPRETATIONS)[number]) => boolean) =>
  INTERPRETATIONS.filter(filter).flatMap((s) => s.values.filter((v) => v !== s.default).map((v) => ({ name: s.name, assignment: `${s.name}=${v}` })));

// Pools of the shapes `jwsim dice` accepts: base, several Flex grants, signed Macro, reroll sources.
const POOLS: PoolRequest[] = [];
for (const base of [1, 2, 3, 5, 6]) {
  for (const flexGrants of [[], [1], [1, 2]]) {
    for (const macro of [-2, 0, 1]) for (const rerollSources of [0, 2]) POOLS.push({ base, flexGrants, macro, rerollSources });
  }
}
const diceQuery = (rules: CompiledRules, req: PoolRequest) => Array.from(exactDistribution(rules.dice, resolvePool(rules.dice, req)));

describe('declared scopes match what the engines read', () => {
  it('options outside jwsim dice leave every dice query as it is; the opposed-roll options change opposed rolls only', () => {
    for (const version of VERSIONS) {
      const base = compiled(version);
      const before = POOLS.map((req) => diceQuery(base, req));
      for (const { name, assignment } of nonDefault((s) => !s.scope.includes('dice'))) {
        const r = compiled(version, assignment);
        const opposed = ['opposed_budget', 'secondary_selector', 'post_effect_order'].includes(name);
        if (!opposed) {
          expect(r.dice, assignment).toEqual(base.dice);
          continue;
        }
        for (const [k, req] of POOLS.entries()) expect(diceQuery(r, req), `${assignment} ${JSON.stringify(req)}`).toEqual(before[k]);
        if (name === 'post_effect_order') continue; // read by nothing: see the next tests
        // ...but some missile attack against point defence (an Opposed Roll) reads it; two
        // Secondary Results (what opposed_budget counts) need four dice or more.
        const differs = [2, 3, 4, 5].some((b) => [1, 3, 4, 5].some((d) => {
          const p = { base: b, macro: 1 };
          const pd = { base: d };
          const a = opposedDistribution(r.dice, resolvePool(r.dice, p), null, resolvePool(r.dice, pd));
          const z = opposedDistribution(base.dice, resolvePool(base.dice, p), null, resolvePool(base.dice, pd));
          return Array.from(a).some((x, i) => Math.abs(x - z[i]) > 1e-12);
        }));
        expect(differs, `${assignment} never changes an opposed roll`).toBe(true);
      }
    }
  });

  it('every option jwsim dice reads changes some dice query (rules v1.2.2)', () => {
    const base = compiled('1.2.2');
    const before = POOLS.map((req) => diceQuery(base, req));
    for (const { assignment } of nonDefault((s) => s.scope.includes('dice'))) {
      const r = compiled('1.2.2', assignment);
      expect(POOLS.some((req, k) => diceQuery(r, req).some((x, i) => Math.abs(x - before[k][i]) > 1e-12)), assignment).toBe(true);
    }
  });

  it('battle-only options change neither the dice kernel nor the engagement engines\' switches', () => {
    for (const version of VERSIONS) {
      const base = compiled(version);
      for (const { assignment } of nonDefault((s) => s.scope.length === 1 && s.scope[0] === 'battle')) {
        const r = compiled(version, assignment);
        expect(r.dice, assignment).toEqual(base.dice);
        expect(r.flags, assignment).toEqual(base.flags);
      }
    }
  });

  it('options outside jwsim ram leave rams as they are', () => {
    const rams: Array<[string, string, 'front' | 'side' | 'rear']> = [
      ['jovian.valiant', 'jovian.alexander', 'rear'],
      ['jovian.valiant', 'jovian.alexander', 'front'],
      ['cega.wyvern', 'jovian.alexander', 'front'],
      ['cega.wyvern', 'jovian.pathfinder', 'front'],
    ];
    for (const version of VERSIONS) {
      const base = compiled(version);
      for (const { assignment } of nonDefault((s) => !s.scope.includes('ram'))) {
        const r = compiled(version, assignment);
        for (const [a, t, aspect] of rams) {
          const [ua, ut] = [findUnit(ROSTER, a, 'a'), findUnit(ROSTER, t, 't')];
          const plan = (x: CompiledRules) => planRam(x, ua, ut, aspect, new PlaceholderUsage(x));
          expect(exactRam(r, plan(r), ua, ut), `${version} ${assignment} ${a}->${t}`).toEqual(exactRam(base, plan(base), ua, ut));
        }
      }
    }
  });

  it('options outside jwsim attack leave attacks as they are', () => {
    const attacks: Array<[string, string, string, number]> = [
      ['jovian.alexander', 'Particle Cannon', 'jovian.valiant', 8],
      ['cega.wyvern', 'Mass Driver', 'jovian.alexander', 2],
      ['cega.wyvern', 'Missiles: AC', 'jovian.alexander', 2], // an Opposed Roll against point defence
    ];
    for (const version of VERSIONS) {
      const base = compiled(version);
      for (const { assignment } of nonDefault((s) => !s.scope.includes('attack'))) {
        const r = compiled(version, assignment);
        for (const [a, w, t, range] of attacks) {
          const [ua, ut] = [findUnit(ROSTER, a, 'a'), findUnit(ROSTER, t, 't')];
          const line = weaponLine(ua, w)!;
          const run = (x: CompiledRules) => {
            const planned = planAttack(x, new CombatState(ua), line, new CombatState(ut), { rangeInches: range, aspect: 'side', targetArc: firstArc(line) }, new PlaceholderUsage(x));
            if (!planned.ok) throw new Error(planned.reason);
            return exactAttack(x, planned.plan, new CombatState(ut)).summary;
          };
          expect(run(r), `${version} ${assignment} ${a} ${w}`).toEqual(run(base));
        }
      }
    }
  });
});

describe('refuseOutOfScope', () => {
  it('names the option, what reads it and the command; accepts what the command reads', () => {
    expect(() => refuseOutOfScope(['negative_macro_mode=COUNT', 'zero_rating_hit=STRUCTURE'], 'attack', 'jwsim attack')).not.toThrow();
    let err: unknown;
    try {
      refuseOutOfScope(['reserve_vp=NONE', 'flex_stacking=MAX', 'reserve_vp=NONE'], 'dice', 'jwsim dice');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe('--rule reserve_vp: this option only affects full battles (jwsim battle; batch kind "battle"); jwsim dice does not read it');
    expect((err as UserError).details).toEqual([]);
    expect(scopeText(['attack', 'volley', 'duel', 'battle'])).toBe('attacks, volleys, duels and full battles (jwsim attack, jwsim volley, jwsim duel, jwsim battle; batch kinds "attack", "volley", "duel", "battle")');
  });
});
