import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_RESULT, parseOutcome } from '../../src/dice/outcome.js';
import { compileDiceConfig } from '../../src/rules/compile.js';
import { deriveVersion } from '../../src/rules/derive.js';
import { DEFAULT_INTERPRETATIONS, INTERPRETATIONS, applyRuleAssignments, changedOptions } from '../../src/rules/interpretations.js';
import { RULES_VERSIONS, RULES_VERSION_IDS, getRulesVersion, type RulesVersionId } from '../../src/rules/registry.js';
import { UserError } from '../../src/errors.js';

/**
 * What each version must do at the dice level. Typed by the registry: adding a version
 * without adding its expectations here fails `npm test` at the type check.
 */
const EXPECTED: Record<RulesVersionId, { parent: string | null; successTerm: string; rerollsSuccess: boolean }> = {
  '1.2.1': { parent: null, successTerm: 'degree of success', rerollsSuccess: false },
  '1.2.2': { parent: '1.2.1', successTerm: 'Magnitude', rerollsSuccess: true },
};

describe('rules versions', () => {
  for (const id of RULES_VERSION_IDS) {
    it(`v${id} matches its expectations`, () => {
      const v = RULES_VERSIONS[id];
      const e = EXPECTED[id];
      expect(v.id).toBe(id);
      expect(v.parent).toBe(e.parent);
      expect(v.data.dice.successTerm).toBe(e.successTerm);
      // A derived version lists at least one change; a full one lists none.
      expect(v.changes.length > 0).toBe(v.parent !== null);
      for (const c of v.changes) {
        expect(c.summary.length).toBeGreaterThan(10);
        expect(c.source).toMatch(/^v\d/);
      }
      // A [D2] is rerolled under BELOW_T only where the version allows rerolling successes.
      const cfg = compileDiceConfig(v, applyRuleAssignments(['reroll_policy=BELOW_T']));
      expect(cfg.rerollWhen[parseOutcome('[D2]')!]).toBe(e.rerollsSuccess ? 1 : 0);
      expect(cfg.rerollWhen[NO_RESULT]).toBe(1);
    });
  }

  it('v1.2.2 is v1.2.1 with its changes applied, and v1.2.1 is left untouched', () => {
    const again = deriveVersion(RULES_VERSIONS['1.2.1'], {
      id: 'x',
      title: 'x',
      changes: RULES_VERSIONS['1.2.2'].changes as [(typeof RULES_VERSIONS)['1.2.2']['changes'][number]],
    });
    expect(again.data).toEqual(RULES_VERSIONS['1.2.2'].data);
    expect(RULES_VERSIONS['1.2.1'].data.dice.rerollOnlyNoResult).toBe(true);
  });

  it('a derived version needs at least one change (checked by the compiler)', () => {
    // @ts-expect-error an empty list of changes is not a VersionDelta
    const bad = () => deriveVersion(RULES_VERSIONS['1.2.1'], { id: 'y', title: 'y', changes: [] });
    expect(bad).toBeTypeOf('function');
  });

  it('accepts "1.2.1" and "v1.2.1"; rejects others listing what is allowed', () => {
    expect(getRulesVersion('v1.2.1').id).toBe('1.2.1');
    expect(() => getRulesVersion('1.2.3')).toThrow(UserError);
    expect(() => getRulesVersion('1.2.3')).toThrow(/allowed: 1\.2\.1, 1\.2\.2/);
  });

  it('engines never ask which version they run: no version literals in the kernel or simulation code', () => {
    const root = fileURLToPath(new URL('../../src/', import.meta.url));
    for (const dir of ['dice', 'rng', 'sim', 'engine', 'engine/battle', 'policies']) {
      for (const f of readdirSync(join(root, dir)).filter((name) => name.endsWith('.ts'))) {
        const text = readFileSync(join(root, dir, f), 'utf8');
        expect(text, `${dir}/${f}`).not.toMatch(/['"`]v?1\.2\.\d['"`]/);
        expect(text, `${dir}/${f}`).not.toMatch(/version\.id|\.id\s*===/);
      }
    }
  });
});

describe('interpretation options', () => {
  it('defaults are those of shared/rules (dice.md §8, combat.md §17, game.md §13)', () => {
    expect(DEFAULT_INTERPRETATIONS).toEqual({
      flex_stacking: 'SUM',
      flex_selector: 'MAX_LEXI',
      flex_timing: 'AFTER_MACRO',
      negative_macro_mode: 'LEVEL',
      max_rerolls: 'PER_SOURCE',
      reroll_policy: 'ONLY_N',
      opposed_budget: 'SUM',
      secondary_selector: 'GREEDY',
      post_effect_order: 'OWN_FIRST',
      zero_rating_hit: 'NONE',
      critical_effects: 'TABLE',
      crippled_squadrons: 'VERSION',
      crippled_capital: 'INERT',
      ram_front_bonus: 'HEAD_ON',
      ram_flank_mode: 'EXAMPLE',
      evasive_penalty: 'MACRO_1',
      armor_vs_missiles: 'YES',
      offtable_rule: 'CLAMP',
      pivot_point: 'FRONT_CORNER',
      squadron_contact_122: 'NO_TOUCH',
      zone_containment: 'WHOLE_BASE',
      fleet_deploy_capitals: 'VERSION',
      reserve_vp: 'FULL',
      vp_rounding: 'PER_MODEL_UP',
      fuel_refill: 'END_OF_OWN_ACTIVATION',
      squadron_base_shape: 'HEX',
      withdraw_allows_attacks: 'NO',
      crippled_counts_as_lost: 'NO',
      boost_min_move: 'HALF_BOOSTED',
      boost_halves_fc: 'ALL',
      station_keep_target_flex: 'VERSION',
      reserve_embark_rule: 'CARRIER_IN_ZONE',
      embarked_on_captured: 'DESTROYED',
      embarked_activation: 'OWN_ACTIVATION',
      boarding_combat_timing: 'START_OF_TARGET_ACTIVATION',
      boarding_pd_repel: 'ANY_SUCCESS',
      bombing_pd_drive_off: 'NO',
      cap_boost_mode: 'VERSION',
      enable_repair: 'NO',
    });
  });

  it('every option names its rules gap, lists its default among its values, and every value compiles', () => {
    for (const spec of INTERPRETATIONS) {
      expect(spec.ids.length).toBeGreaterThan(0);
      for (const id of spec.ids) expect(id).toMatch(/^([A-Z][A-Za-z0-9]*(-\d\d)?|combat\.md §[\d.]+)$/);
      expect(spec.values as readonly string[]).toContain(spec.default);
      for (const value of spec.values) {
        const options = applyRuleAssignments([`${spec.name}=${value}`]);
        expect(options[spec.name]).toBe(value);
        expect(changedOptions(options)).toEqual(value === spec.default ? [] : [`${spec.name}=${value}`]);
        for (const id of RULES_VERSION_IDS) expect(() => compileDiceConfig(RULES_VERSIONS[id], options)).not.toThrow();
      }
    }
  });

  it('values are matched without regard to case; one option given twice with two values is refused', () => {
    const o = applyRuleAssignments(['negative_macro_mode=count', 'negative_macro_mode=COUNT', 'max_rerolls=once']);
    expect(o.negative_macro_mode).toBe('COUNT');
    expect(o.max_rerolls).toBe('ONCE');
    expect(() => applyRuleAssignments(['negative_macro_mode=count', 'negative_macro_mode=LEVEL'])).toThrow('--rule: negative_macro_mode is given twice, as COUNT and as LEVEL; give it once');
    // A later list (--rule after an overlay's options) still overrides an earlier one.
    expect(applyRuleAssignments(['negative_macro_mode=LEVEL'], applyRuleAssignments(['negative_macro_mode=COUNT'])).negative_macro_mode).toBe('LEVEL');
  });

  it('names of unknown options and values are refused with the allowed list', () => {
    expect(() => applyRuleAssignments(['nope=1'])).toThrow(/allowed: flex_stacking/);
    expect(() => applyRuleAssignments(['flex_selector=BEST'])).toThrow(/"BEST" is not one of MAX_LEXI, MOST_RESULTS/);
    expect(() => applyRuleAssignments(['=x'])).toThrow(/NAME=VALUE/);
  });
});
