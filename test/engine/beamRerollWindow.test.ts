// Beam Projector reroll by Attack Window (combat.md §4.4, §6.2, §5.4): v1.2.1 rerolls [N] "at
// short or long range; not in Dogfights, Bombing Runs, or attacks made with the Long Range
// Sensors action", read as the model's own Activation window only (rules data
// `combat.beamRerollOwnActivationOnly`); v1.2.2 "may re-roll attacks" with no restriction.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planAttack, type AttackWindowKind, type Situation } from '../../src/engine/attackPlan.js';
import { CombatState } from '../../src/engine/state.js';
import { PlaceholderUsage } from '../../src/engine/usage.js';
import { compileRules, type CompiledRules } from '../../src/rules/compile.js';
import { applyRuleAssignments } from '../../src/rules/interpretations.js';
import { applyOverlay, loadOverlay } from '../../src/rules/overlay.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';
import type { UnitCard } from '../../src/units/types.js';
import { rulesFor, unit } from '../helpers/units.js';

const V121 = rulesFor('1.2.1');
const V122 = rulesFor('1.2.2');

/** A squadron with a Beam Projector AS 3 (Macro 0), and one with a plain gun of the same ratings. */
const beam = unit({ id: 'test.beam', type: 'exo_armor', structure: 4, sensors: 2, weapons: [{ name: 'Beam Projector', cls: 'beam_projector', ac: 3, as: 3 }] });
const gun = unit({ id: 'test.gun', type: 'exo_armor', structure: 4, sensors: 2, weapons: [{ name: 'Mass Driver', cls: 'mass_driver', ac: 3, as: 3 }] });
const squadron = unit({ id: 'test.target', type: 'exo_armor', structure: 4, defense: 0, weapons: [] });
const ship = unit({ id: 'test.ship', defense: 0, structure: 8, armor: { fore: 0, portStarboard: 0, aft: 0 }, weapons: [] });

const WINDOWS: readonly AttackWindowKind[] = ['activation', 'dogfight', 'bombing', 'assault', 'boarding'];

function plan(rules: CompiledRules, attacker: UnitCard, target: UnitCard, at: Situation) {
  const r = planAttack(rules, new CombatState(attacker), attacker.weapons[0], new CombatState(target), at, new PlaceholderUsage(rules));
  if (!r.ok) throw new Error(r.reason);
  return r.plan;
}

/** A front-arc attack at 2" (short range against either target type) in the given window. */
const at = (window: AttackWindowKind | undefined, extra: Partial<Situation> = {}): Situation => ({ rangeInches: 2, aspect: 'front', targetArc: 'F', window, ...extra });

describe('the rules data', () => {
  it('v1.2.1 restricts the reroll to the own Activation; v1.2.2 lifts the restriction', () => {
    expect(RULES_VERSIONS['1.2.1'].data.combat.beamRerollOwnActivationOnly).toBe(true);
    expect(RULES_VERSIONS['1.2.2'].data.combat.beamRerollOwnActivationOnly).toBe(false);
    // The lift is one of v1.2.2's listed changes, and no placeholder.
    expect(RULES_VERSIONS['1.2.2'].changes.filter((c) => c.summary.includes('Beam Projector'))).toHaveLength(1);
    expect(Object.keys(RULES_VERSIONS['1.2.1'].data.placeholders)).not.toContain('combat.beamRerollOwnActivationOnly');
  });
});

describe('v1.2.1: the Beam Projector rerolls in the own Activation window only', () => {
  it('activation (and no window given, which means activation): one reroll from the beam', () => {
    expect(plan(V121, beam, squadron, at('activation')).pool).toEqual({ base: 3, flex: 0, macro: 0, rerolls: 1 });
    expect(plan(V121, beam, squadron, at(undefined)).pool).toEqual({ base: 3, flex: 0, macro: 0, rerolls: 1 });
    // At long range too (6" against a squadron with Sensors 2: 3" short + 6" long).
    const long = plan(V121, beam, squadron, { ...at('activation'), rangeInches: 6 });
    expect(long.band).toBe('long');
    expect(long.pool.rerolls).toBe(1);
  });

  it('dogfight: no reroll from the beam', () => {
    expect(plan(V121, beam, squadron, at('dogfight', { noMissileDefence: true })).pool).toEqual({ base: 3, flex: 0, macro: 0, rerolls: 0 });
  });

  it('bombing: no reroll from the beam (the side bonus still applies: positionalInBombing)', () => {
    const p = plan(V121, beam, ship, at('bombing', { aspect: 'side', noMissileDefence: true }));
    // Flank121 +1 base die in a v1.2.1 Bombing Run; the beam's reroll is withheld.
    expect(p.pool).toEqual({ base: 4, flex: 0, macro: 0, rerolls: 0 });
    expect(plan(V121, beam, ship, at('bombing', { noMissileDefence: true })).pool.rerolls).toBe(0);
  });

  it('assault and boarding windows keep the reroll: the rule names Dogfights and Bombing Runs only', () => {
    expect(plan(V121, beam, ship, at('assault', { assault: true })).pool.rerolls).toBe(1);
    expect(plan(V121, beam, ship, at('boarding', { ignoreArmor: true })).pool.rerolls).toBe(1);
  });

  it('other reroll sources still count where the beam\'s is withheld (Concentrated Fire [D+])', () => {
    expect(plan(V121, beam, ship, at('bombing', { extraRerolls: 1 })).pool.rerolls).toBe(1);
    expect(plan(V121, beam, ship, at('activation', { extraRerolls: 1 })).pool.rerolls).toBe(2);
  });

  it('a weapon of another class never had the reroll: 0 in every window', () => {
    for (const w of WINDOWS) expect(plan(V121, gun, ship, at(w)).pool.rerolls).toBe(0);
  });

  it('the rest of the pool does not change with the reroll: dogfight and activation differ only in it (squadron target)', () => {
    const a = plan(V121, beam, squadron, at('activation'));
    const d = plan(V121, beam, squadron, at('dogfight'));
    expect({ ...d.pool, rerolls: 1 }).toEqual(a.pool);
    expect(d.notes).toEqual(a.notes);
  });
});

describe('v1.2.2: the Beam Projector rerolls in every window', () => {
  for (const w of WINDOWS) {
    it(`${w}: one reroll from the beam`, () => {
      expect(plan(V122, beam, ship, at(w, w === 'assault' ? { assault: true } : {})).pool.rerolls).toBe(1);
      expect(plan(V122, gun, ship, at(w, w === 'assault' ? { assault: true } : {})).pool.rerolls).toBe(0);
    });
  }

  it('dogfight against a squadron: base 3, no Flex (the short-range bonus is the Activation\'s), one reroll', () => {
    expect(plan(V122, beam, squadron, at('dogfight')).pool).toEqual({ base: 3, flex: 0, macro: 0, rerolls: 1 });
    expect(plan(V122, beam, squadron, at('activation')).pool).toEqual({ base: 3, flex: 1, macro: 0, rerolls: 1 });
  });
});

describe('an overlay may set the flag', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jwsim-beam-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function overlaid(id: '1.2.1' | '1.2.2', value: boolean): CompiledRules {
    const file = join(dir, `beam-${id}-${value}.json`);
    writeFileSync(file, JSON.stringify({ format: 'jwsim-overlay/1', rules: id, tables: { combat: { beamRerollOwnActivationOnly: value } } }));
    return compileRules(applyOverlay(RULES_VERSIONS[id], loadOverlay(file)), applyRuleAssignments([]));
  }

  it('v1.2.2 with the v1.2.1 restriction: no reroll in a dogfight, one in the Activation', () => {
    const r = overlaid('1.2.2', true);
    expect(r.combat.beamRerollOwnActivationOnly).toBe(true);
    expect(plan(r, beam, squadron, at('dogfight')).pool.rerolls).toBe(0);
    expect(plan(r, beam, squadron, at('activation')).pool.rerolls).toBe(1);
  });

  it('v1.2.1 without it: one reroll in a Bombing Run', () => {
    const r = overlaid('1.2.1', false);
    expect(plan(r, beam, ship, at('bombing')).pool.rerolls).toBe(1);
  });
});
