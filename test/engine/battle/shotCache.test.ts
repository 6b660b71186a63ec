// The shot entries a battle's Gunnery keeps are shared between situations that differ only in
// what the attack plan does not depend on (which bearing arc, Concentrated Fire's dice for
// missiles, Cloak at short range, Countermeasures without a defence roll). Over whole sample
// games, every entry it hands out is checked against one planned afresh for exactly the
// situation asked: the same plan (dice pool, defence pool, Cloak test, band, weapon) and the
// same expected damage, or no attack in both. The plan's notes are left out: a battle never
// prints them, and its entries are keyed on the defence dice in all, so an entry's note may
// split them between the target's Defense and its supporters as an earlier situation did.
import { describe, expect, it } from 'vitest';
import { Gunnery, shotMods, type ShotEntry } from '../../../src/engine/battle/gunnery.js';
import { PlaceholderUsage } from '../../../src/engine/usage.js';
import { pickWritten } from '../../../src/dice/alias.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, rules, sampleScenario, withPolicies, type BattleInternals, type SampleScenario } from '../../helpers/battle.js';

const plain = (e: ShotEntry | null) =>
  e === null ? null : { pool: e.plan.pool, defence: e.plan.defence, cloakTestDice: e.plan.cloakTestDice, band: e.plan.band, weapon: e.plan.weapon.name, expected: e.expected };

describe('shot entries shared between situations', () => {
  const cases: Array<[SampleScenario, RulesVersionId]> = [
    ['beacon-assault', '1.2.2'],
    ['standard-engagement', '1.2.1'],
    ['corner-escalation', '1.2.2'],
  ];
  for (const [name, version] of cases) {
    it(`${name} v${version}: every entry handed out is the one planned afresh for its situation`, () => {
      const r = rules(version);
      const battle = new Battle(r, withPolicies(sampleScenario(name, version), 'aggressive', 'aggressive'));
      const g = (battle as unknown as BattleInternals).gunnery;
      let asked = 0, attacks = 0, byFire = 0;
      const shared = new Map<ShotEntry, string>();
      // Which calls are fire()'s own lookups (made inside fire() but not through entry()).
      const depth = { fire: 0, entry: 0 };
      const within = <A extends unknown[], R>(key: 'fire' | 'entry', f: (...a: A) => R) => (...a: A): R => {
        depth[key]++;
        try {
          return f(...a);
        } finally {
          depth[key]--;
        }
      };
      g.fire = within('fire', g.fire.bind(g));
      g.entry = within('entry', g.entry.bind(g));
      // Every entry handed out, by entry() and by fire() (which looks its entries up itself).
      g.watch = (got, att, w, tgt, band, asp, arc, mods) => {
        if (depth.fire > 0 && depth.entry === 0) byFire++;
        // A Gunnery with nothing cached plans this exact situation (the modifiers as the first
        // call left them: supporters and Barrier cover already worked out).
        const fresh = new Gunnery(r, new PlaceholderUsage(r)).entry(att, w, tgt, band, asp, arc, mods);
        expect(plain(got), `${att.label} ${w.name} -> ${tgt.label}, ${band}, ${asp}, arc ${arc}`).toEqual(plain(fresh));
        asked++;
        if (got) {
          attacks++;
          shared.set(got, `${arc}|${mods.rerolls}|${mods.nonMissileFlex ?? 0}`);
        }
      };
      const streams = battleStreams('shot-cache', name);
      for (let t = 0; t < 6; t++) battle.play(streams.dice.at(t), streams.policy.at(t), t % 2 === 1);
      // The checks bite: many situations asked, most of them attacks that can be made.
      expect(asked).toBeGreaterThan(300);
      expect(attacks).toBeGreaterThan(100);
      // fire()'s own lookups are among them (not only the policies' estimates through entry()).
      expect(byFire).toBeGreaterThan(300);
      expect(shared.size).toBeGreaterThan(5);
    }, 60_000);
  }

  // Aggressive games seldom attack a model that Evades, so every situation is also asked
  // directly, in turn, of one Gunnery: each pair of unit types of a fleet, every weapon line,
  // band, aspect, firing arc, Flex and Evading.
  for (const version of ['1.2.1', '1.2.2'] as const) {
    it(`every situation of the standard engagement's unit types, asked in turn, gets its own plan [v${version}]`, () => {
      const r = rules(version);
      const battle = new Battle(r, sampleScenario('standard-engagement', version));
      const g = (battle as unknown as BattleInternals).gunnery;
      const firers = battle.models.filter((m) => m.fleet === 0), targets = battle.models.filter((m) => m.fleet === 1);
      let asked = 0, differ = 0;
      for (const att of firers) for (const tgt of targets) for (const w of att.unit.weapons) {
        for (const band of ['short', 'long'] as const) for (const asp of ['front', 'side', 'rear'] as const) for (const arc of ['F', 'P', 'S', 'R'] as const) for (const flex of [0, 1]) {
          const seen: Array<ReturnType<typeof plain>> = [];
          for (const evading of [false, true]) {
            tgt.evading = evading;
            const mods = () => shotMods({ flex, rerolls: 0, missileSupporters: 0 });
            const got = plain(g.entry(att, w, tgt, band, asp, arc, mods()));
            expect(got, `${att.label} ${w.name} -> ${tgt.label}, ${band}, ${asp}, ${arc}, flex ${flex}, evading ${evading}`).toEqual(plain(new Gunnery(r, new PlaceholderUsage(r)).entry(att, w, tgt, band, asp, arc, mods())));
            seen.push(got);
            asked++;
          }
          if (JSON.stringify(seen[0]) !== JSON.stringify(seen[1])) differ++;
        }
        tgt.evading = false;
      }
      expect(asked).toBeGreaterThan(1000);
      // Evading changes some plans (Evasive at long range), so a key without it would be caught.
      expect(differ).toBeGreaterThan(0);
    }, 60_000);
  }
});

// fire() rolls from copies of the samplers in one array (the arena). Samplers with the same
// columns (a Cloak test folded in the same way, or equal distributions from different pools)
// share one copy, and every entry's copy rolls what its own sampler rolls.
describe('the arena of sampler copies', () => {
  it('beacon-assault v1.2.2 (Cloak on the Venusian ships): one copy per distinct sampler, each rolling as its sampler', () => {
    const r = rules('1.2.2');
    const battle = new Battle(r, withPolicies(sampleScenario('beacon-assault', '1.2.2'), 'aggressive', 'aggressive'));
    const g = battle as unknown as BattleInternals;
    const streams = battleStreams('arena', 'beacon-assault');
    for (let t = 0; t < 12; t++) battle.play(streams.dice.at(t), streams.policy.at(t), t % 2 === 1);
    const gun = g.gunnery as unknown as { tabEnt: Array<ShotEntry | null>; arena: Float64Array; arenaLen: number };
    const entries = gun.tabEnt.filter((e): e is ShotEntry => e !== null);
    const atOf = new Map<string, number>();
    let cloaked = 0;
    for (const e of entries) {
      if (e.plan.cloakTestDice > 0) cloaked++;
      const u = [0, 0.1234, 0.5, 0.77777, 0.999999];
      const rolled = u.map((x) => e.sampler.pick(x));
      expect(u.map((x) => pickWritten(gun.arena, e.at, x))).toEqual(rolled);
      // The sampler's own columns (threshold, outcome, alias each).
      const key = Array.from((e.sampler as unknown as { table: Float64Array }).table).join(',');
      const at = atOf.get(key);
      if (at === undefined) atOf.set(key, e.at);
      else expect(e.at, 'an equal sampler copied twice').toBe(at);
    }
    // The checks bite: many entries, Cloak tests among them, far fewer copies than entries.
    expect(entries.length).toBeGreaterThan(200);
    expect(cloaked).toBeGreaterThan(10);
    expect(atOf.size).toBeLessThan(entries.length / 2);
    // Nothing else lies in the arena: its length is the copies' own.
    let len = 0;
    for (const at of atOf.values()) len += 1 + 2 * gun.arena[at];
    expect(gun.arenaLen).toBe(len);
  }, 60_000);
});
