import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runAttack } from '../../src/cli/attack.js';
import { rulesContext, rulesHeader } from '../../src/cli/rulesContext.js';
import { applyOverlay, loadOverlay, type Overlay } from '../../src/rules/overlay.js';
import { RULES_VERSIONS } from '../../src/rules/registry.js';
import { userError } from '../helpers/errors.js';
import { SCHEMA_CATALOG } from '../../src/schemas/catalog.js';

/** The field names the overlay schema allows at a place (path of property names), as unknown-field messages list them. */
function allowedAt(...path: string[]): string {
  let node = SCHEMA_CATALOG.overlay as { properties: Record<string, unknown> };
  for (const k of path) node = node.properties[k] as typeof node;
  return Object.keys(node.properties).join(', ');
}

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/overlays/${name}`, import.meta.url));
const CRIT = fixture('critical-structure.json');
const OPTIONS = fixture('options.json');

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

type AttackOpts = Parameters<typeof runAttack>[0];
/** jwsim attack --json in-process: Alexander's Particle Cannon (AC 5, Macro 1) at a Valiant 5 in away. */
function attack(extra: Partial<AttackOpts> = {}) {
  const opts: AttackOpts = {
    attacker: 'jovian.alexander',
    weapon: 'Particle Cannon',
    target: 'jovian.valiant',
    range: 5,
    aspect: 'front',
    firingArc: 'auto',
    rules: '1.2.2',
    rule: [],
    seed: 'overlay-test',
    json: true,
    ...extra,
  };
  return JSON.parse(runAttack(opts)) as {
    mean_structure_damage: number;
    mean_criticals: number;
    mean_rating_damage: Record<string, number>;
    placeholders: string[];
    overlay?: { path: string; sha256: string; description: string | null };
    options: Record<string, string>;
  };
}

describe('loadOverlay', () => {
  it('reads the overlay; the SHA-256 is of the file bytes', () => {
    const o = loadOverlay(CRIT);
    expect(o.file).toBe(CRIT);
    expect(o.sha256).toBe(sha256(CRIT));
    expect(o.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(o.description).toBe('every critical hit costs one more Structure');
    expect(o.rules).toBe('1.2.2');
    expect(o.options).toEqual([]);
    expect(o.tables).toEqual({ combat: { criticalTable: Array(6).fill('structure') } });
    // A different file has a different hash.
    expect(loadOverlay(OPTIONS).sha256).toBe(sha256(OPTIONS));
    expect(loadOverlay(OPTIONS).sha256).not.toBe(o.sha256);
  });

  it('options become NAME=VALUE assignments; no rules and no tables are fine', () => {
    const o = loadOverlay(OPTIONS);
    expect(o.options).toEqual(['negative_macro_mode=COUNT', 'zero_rating_hit=STRUCTURE']);
    expect(o.rules).toBeNull();
    expect(o.tables).toEqual({});
  });
});

describe('applyOverlay', () => {
  const v122 = RULES_VERSIONS['1.2.2'];

  it('replacing combat.criticalTable sets the data and removes only its placeholder mark', () => {
    const before = structuredClone(v122.data);
    const patched = applyOverlay(v122, loadOverlay(CRIT));
    expect(patched.data.combat.criticalTable).toEqual(Array(6).fill('structure'));
    expect(v122.data.placeholders['combat.criticalTable']).toBeDefined();
    expect(patched.data.placeholders['combat.criticalTable']).toBeUndefined();
    const { 'combat.criticalTable': _removed, ...others } = v122.data.placeholders;
    expect(patched.data.placeholders).toEqual(others);
    // Everything else is the version's own data; the registry's version is untouched.
    expect({ ...patched.data.combat, criticalTable: v122.data.combat.criticalTable }).toEqual(v122.data.combat);
    expect(patched.data.dice).toEqual(v122.data.dice);
    expect(patched.id).toBe('1.2.2');
    expect(patched.changes).toBe(v122.changes);
    expect(v122.data).toEqual(before);
  });

  it('objects merge key by key: a partial rearBonus keeps the other fields and clears the mark', () => {
    const v121 = RULES_VERSIONS['1.2.1'];
    const patched = applyOverlay(v121, loadOverlay(fixture('other-version.json')));
    expect(patched.data.combat.rearBonus).toEqual({ ...v121.data.combat.rearBonus, base: 1 });
    expect(v121.data.combat.rearBonus.base).toBe(2);
    expect(patched.data.placeholders['combat.rearBonus']).toBeUndefined();
    expect(patched.data.placeholders['combat.sideBonus']).toBe(v121.data.placeholders['combat.sideBonus']);
  });

  it('an overlay for another rules version is refused, naming the file', () => {
    const file = fixture('other-version.json');
    const e = userError(() => applyOverlay(v122, loadOverlay(file)));
    expect(e.message).toBe(`${file}: rules: the overlay is written for v1.2.1 but the run uses v1.2.2; pass --rules 1.2.1 or change the overlay`);
  });

  it('"v1.2.2" and "1.2.2" name the same version', () => {
    const o: Overlay = { ...loadOverlay(CRIT), rules: 'v1.2.2' };
    expect(applyOverlay(v122, o).data.combat.criticalTable).toEqual(Array(6).fill('structure'));
  });
});

describe('through rulesContext (--rules-overlay, --rule)', () => {
  it('the overlay is recorded with path, SHA-256 and description, in JSON and in the header', () => {
    const ctx = rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: CRIT });
    expect(ctx.overlay).toEqual({ path: CRIT, sha256: sha256(CRIT), description: 'every critical hit costs one more Structure' });
    expect(ctx.compiled.placeholders['combat.criticalTable']).toBeUndefined();
    expect(ctx.compiled.combat.criticalTable).toEqual(Array(6).fill('structure'));
    expect(rulesHeader(ctx)).toContain(`overlay: ${CRIT} (sha256 ${sha256(CRIT).slice(0, 16)}...)`);
    const none = rulesContext({ rules: '1.2.2', rule: [] });
    expect(none.overlay).toBeNull();
    expect(none.compiled.placeholders['combat.criticalTable']).toBeDefined();
  });

  it('criticalTable all "structure" raises mean Structure damage of an exact attack, and the mark leaves the output', () => {
    const plain = attack();
    const patched = attack({ rulesOverlay: CRIT });
    expect(plain.placeholders.some((p) => p.startsWith('rules combat.criticalTable:'))).toBe(true);
    expect(patched.placeholders.some((p) => p.startsWith('rules combat.criticalTable'))).toBe(false);
    expect(patched.overlay).toEqual({ path: CRIT, sha256: sha256(CRIT), description: 'every critical hit costs one more Structure' });
    expect(plain.overlay).toBeUndefined();
    expect(plain.mean_structure_damage).toBeGreaterThan(0);
    expect(patched.mean_structure_damage).toBeGreaterThan(plain.mean_structure_damage);
    // Every [T] / [Q+] now costs as much Structure again through its criticals (the Valiant's
    // 4 Structure is never exceeded here), so the mean doubles; criticals and [D] are unchanged.
    expect(patched.mean_structure_damage).toBeCloseTo(2 * plain.mean_structure_damage, 12);
    expect(patched.mean_criticals).toBeCloseTo(plain.mean_criticals, 12);
    expect(patched.mean_rating_damage).toEqual(plain.mean_rating_damage);
  });

  it('options in the overlay apply; --rule assignments win over them', () => {
    const fromOverlay = rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: OPTIONS });
    expect(fromOverlay.options.negative_macro_mode).toBe('COUNT');
    expect(fromOverlay.options.zero_rating_hit).toBe('STRUCTURE');
    expect(fromOverlay.changed).toEqual(['negative_macro_mode=COUNT', 'zero_rating_hit=STRUCTURE']);
    expect(fromOverlay.compiled.flags.zeroRatingHit).toBe(1);
    const overridden = rulesContext({ rules: '1.2.2', rule: ['negative_macro_mode=LEVEL', 'zero_rating_hit=NEXT_RATING'], rulesOverlay: OPTIONS });
    expect(overridden.options.negative_macro_mode).toBe('LEVEL');
    expect(overridden.options.zero_rating_hit).toBe('NEXT_RATING');
    expect(overridden.changed).toEqual(['zero_rating_hit=NEXT_RATING']);
    expect(overridden.compiled.flags.zeroRatingHit).toBe(2);
    // The options reach the dice kernel.
    expect(fromOverlay.dice.negativeMacroMode).not.toBe(overridden.dice.negativeMacroMode);
    expect(attack({ rulesOverlay: OPTIONS }).options).toMatchObject({ negative_macro_mode: 'COUNT', zero_rating_hit: 'STRUCTURE' });
  });

  it('an overlay for v1.2.1 is refused under the default v1.2.2 and accepted with --rules 1.2.1', () => {
    const file = fixture('other-version.json');
    expect(userError(() => rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: file })).message).toMatch(new RegExp(`^${escape(file)}: rules: .*v1\\.2\\.1.*v1\\.2\\.2`));
    expect(rulesContext({ rules: '1.2.1', rule: [], rulesOverlay: file }).compiled.combat.rearBonus.base).toBe(1);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('prototype pollution', () => {
  afterEach(() => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('"__proto__", "constructor" and "prototype" in tables.combat are rejected as unknown fields', () => {
    const file = fixture('proto.json');
    const e = userError(() => loadOverlay(file));
    expect(e.message).toBe(`${file}: 3 problems`);
    expect(e.details).toEqual([
      `${file}: tables.combat: unknown field "__proto__"; allowed here: ${allowedAt('tables', 'combat')}`,
      `${file}: tables.combat: unknown field "constructor"; allowed here: ${allowedAt('tables', 'combat')}`,
      `${file}: tables.combat: unknown field "prototype"; allowed here: ${allowedAt('tables', 'combat')}`,
    ]);
  });

  it('... and at the top level, in options and in tables', () => {
    const file = fixture('proto-top.json');
    const e = userError(() => loadOverlay(file));
    expect([...e.details].sort()).toEqual(
      [
        `${file}: (top level): unknown field "__proto__"; allowed here: $schema, format, description, rules, options, tables`,
        `${file}: options: unknown field "__proto__"; allowed here: ${allowedAt('options')}`,
        `${file}: options: unknown field "constructor"; allowed here: ${allowedAt('options')}`,
        `${file}: tables: unknown field "__proto__"; allowed here: dice, combat`,
      ].sort(),
    );
    expect(userError(() => rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: file })).message).toBe(`${file}: 4 problems`);
  });

  it('applyOverlay itself skips the keys when handed them past the schema', () => {
    const tables = JSON.parse(readFileSync(fixture('proto.json'), 'utf8')).tables as Record<string, unknown>;
    const combat = tables.combat as Record<string, unknown>;
    expect(Object.keys(combat)).toEqual(['__proto__', 'constructor', 'prototype']); // own keys, as JSON.parse makes them
    const v = RULES_VERSIONS['1.2.2'];
    const o: Overlay = { file: 'hand-made', sha256: '0'.repeat(64), description: null, rules: null, options: [], tables };
    const patched = applyOverlay(v, o);
    const out = patched.data.combat as unknown as Record<string, unknown>;
    expect(out.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(out, 'prototype')).toBe(false);
    expect(out.constructor).toBe(Object);
    expect(patched.data.combat).toEqual(v.data.combat);
    expect(patched.data.placeholders).toEqual(v.data.placeholders);
  });
});

describe('bad overlays: a UserError naming the file', () => {
  it('malformed JSON, with line and column', () => {
    const file = fixture('malformed.json');
    const e = userError(() => loadOverlay(file));
    expect(e.message).toMatch(new RegExp(`^${escape(file)}: not valid JSON at line 5, column 5: .+$`));
  });

  it('a missing file', () => {
    const file = fixture('no-such-overlay.json');
    expect(userError(() => rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: file })).message).toBe(`--rules-overlay: ${file}: cannot read file (no such file)`);
  });

  it('an unknown option name', () => {
    const file = fixture('unknown-option.json');
    const e = userError(() => loadOverlay(file));
    expect(e.message).toBe(`${file}: options: unknown field "dice_colour"; allowed here: ${allowedAt('options')}`);
    expect(e.details).toEqual([]);
  });

  it('a bad option value', () => {
    const file = fixture('bad-option-value.json');
    const e = userError(() => rulesContext({ rules: '1.2.2', rule: [], rulesOverlay: file }));
    expect(e.message).toBe(`${file}: options.negative_macro_mode: "SOMETIMES" is not one of LEVEL, COUNT`);
  });

  it('unknown table fields, wrong types and a table of the wrong length: every problem at once', () => {
    const file = fixture('bad-tables.json');
    const e = userError(() => loadOverlay(file));
    expect(e.message).toBe(`${file}: 6 problems`);
    const d = e.details;
    expect(d).toContain(`${file}: tables: unknown field "movement"; allowed here: dice, combat`);
    expect(d).toContain(`${file}: tables.combat: unknown field "warpFactor"; allowed here: ${allowedAt('tables', 'combat')}`);
    expect(d).toContain(`${file}: tables.combat.shortRangeAC: "six" must be number`);
    expect(d).toContain(`${file}: tables.combat.armorByArc: "yes" must be boolean`);
    expect(d).toContain(`${file}: tables.combat.catastrophicTable[2]: "exploded" is not one of destroyed, crippled`);
    expect(d.find((x) => x.startsWith(`${file}: tables.combat.criticalTable: `))).toMatch(/: has \d+ items; allowed: at least 6$/);
  });

  it('the Attack Window and missile support fields: each bad value named with what is allowed', () => {
    const file = fixture('bad-window-tables.json');
    const e = userError(() => loadOverlay(file));
    expect(e.message).toBe(`${file}: 3 problems`);
    const d = e.details;
    expect(d).toContain(`${file}: tables.combat.bombingBonus.flex: "one" must be integer`);
    expect(d).toContain(`${file}: tables.combat.positionalInBombing: "no" must be boolean`);
    expect(d.find((x) => x.startsWith(`${file}: tables.combat.missileSupport: 9 `))).toMatch(/must be <= 3$/);
  });

  it('a wrong format string and an unknown rules version', () => {
    const file = fixture('wrong-format.json');
    const e = userError(() => loadOverlay(file));
    expect([...e.details].sort()).toEqual(
      [`${file}: format: "jwsim-overlay/9" must be "jwsim-overlay/1"`, `${file}: rules: "1.3.0" is not one of 1.2.1, 1.2.2, v1.2.1, v1.2.2`].sort(),
    );
  });
});
