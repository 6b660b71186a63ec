// --rule options a command does not read are refused (exit 2, one clear line, nothing
// written); options it reads are still accepted. Batch variants likewise, per batch.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { INTERPRETATIONS, OPTION_READERS } from '../../src/rules/interpretations.js';
import { loadBatch } from '../../src/scenarios/batch.js';
import { jwsim } from '../helpers/cli.js';

const SAMPLE = fileURLToPath(new URL('../../scenarios/units/sample-roster.json', import.meta.url));
const STANDARD = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-rule-scope-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const COMMANDS: Record<string, string[]> = {
  dice: ['dice', '--base', '3'],
  attack: ['attack', '--attacker', 'jovian.alexander', '--weapon', 'Particle Cannon', '--target', 'jovian.valiant', '--range', '8'],
  volley: ['volley', '--attacker', 'jovian.alexander', '--target', 'unknown.tengu', '--range', '9', '--trials', '200'],
  ram: ['ram', '--rammer', 'jovian.valiant', '--target', 'jovian.alexander', '--aspect', 'rear'],
  duel: ['duel', 'cega.wyvern', 'jovian.pathfinder', '--range', '6', '--trials', '200'],
};

const BATTLES_ONLY = 'full battles (jwsim battle; batch kind "battle")';

/** Runs jwsim and expects a refusal: exit 2, nothing on stdout, one "jwsim: error:" line (plus `details` indented lines), no stack trace. */
function refused(args: string[], details = 0): string {
  const r = jwsim(...args);
  expect(r.status, args.join(' ')).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1 + details);
  expect(lines[0]).toMatch(/^jwsim: error: /);
  for (const l of lines.slice(1)) expect(l).toMatch(/^ {2}--rule /);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  return r.stderr;
}

function ok(args: string[]) {
  const r = jwsim(...args, '--json');
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('--rule options outside a command\'s scope are refused', () => {
  it('a battle-only option, on jwsim dice and on every engagement command', () => {
    for (const [name, args] of Object.entries(COMMANDS)) {
      const err = refused([...args, '--rule', 'boarding_pd_repel=CASUALTIES_ONLY']);
      expect(err).toBe(`jwsim: error: --rule boarding_pd_repel: this option only affects ${BATTLES_ONLY}; jwsim ${name} does not read it\n`);
    }
  });

  it('movement, deployment, scoring and squadron-procedure options on jwsim dice', () => {
    for (const opt of ['pivot_point=CENTRE', 'zone_containment=ANY_PART', 'vp_rounding=NONE', 'fuel_refill=END_PHASE', 'enable_repair=YES']) {
      const name = opt.split('=')[0];
      expect(refused(['dice', '--base', '2', '--rule', opt])).toContain(`--rule ${name}: this option only affects ${BATTLES_ONLY}; jwsim dice does not read it`);
    }
  });

  it('engagement options a command never reaches: damage on dice, opposed rolls on dice and ram, rams on attack, weapon attacks on ram, staying in the fight on volley', () => {
    expect(refused([...COMMANDS.dice, '--rule', 'zero_rating_hit=STRUCTURE'])).toContain('--rule zero_rating_hit: this option only affects attacks, volleys, rams, duels and full battles (jwsim attack, jwsim volley, jwsim ram, jwsim duel, jwsim battle; batch kinds "attack", "volley", "ram", "duel", "battle"); jwsim dice does not read it');
    expect(refused([...COMMANDS.dice, '--rule', 'opposed_budget=HIGHEST'])).toContain('--rule opposed_budget: this option only affects attacks, volleys, duels and full battles');
    expect(refused([...COMMANDS.ram, '--rule', 'secondary_selector=GREEDY_LOW_VALUE'])).toContain('jwsim ram does not read it');
    expect(refused([...COMMANDS.attack, '--rule', 'ram_flank_mode=GENERAL'])).toContain('--rule ram_flank_mode: this option only affects rams and full battles (jwsim ram, jwsim battle; batch kinds "ram", "battle"); jwsim attack does not read it');
    expect(refused([...COMMANDS.ram, '--rule', 'evasive_penalty=NONE'])).toContain('--rule evasive_penalty: this option only affects attacks, volleys, duels and full battles');
    expect(refused([...COMMANDS.volley, '--rule', 'crippled_capital=FIGHTS_ON'])).toContain('--rule crippled_capital: this option only affects duels and full battles (jwsim duel, jwsim battle; batch kinds "duel", "battle"); jwsim volley does not read it');
  });

  it('the default value is refused too (the command reads the option at no value); several are listed, one per line', () => {
    refused([...COMMANDS.dice, '--rule', 'pivot_point=FRONT_CORNER']);
    const err = refused([...COMMANDS.duel, '--rule', 'pivot_point=CENTRE', '--rule', 'ram_front_bonus=RAMMER_ALWAYS', '--rule', 'negative_macro_mode=COUNT'], 1);
    expect(err).toContain('jwsim: error: --rule pivot_point: ');
    expect(err).toContain('\n  --rule ram_front_bonus: this option only affects rams and full battles');
  });

  it('post_effect_order, which nothing reads, is refused by every command, battle included', () => {
    for (const [name, args] of [...Object.entries(COMMANDS), ['battle', ['battle', '--scenario', STANDARD, '--trials', '1', '--threads', '0']] as const]) {
      expect(refused([...args, '--rule', 'post_effect_order=SECONDARY_FIRST'])).toBe(
        `jwsim: error: --rule post_effect_order: no jwsim command reads this option at present (no Opposed Roll that jwsim makes has post-roll effects of its own); jwsim ${name} does not read it\n`,
      );
    }
  });

  it('an unknown option or a bad value is still reported as such, not as out of scope', () => {
    expect(refused([...COMMANDS.dice, '--rule', 'pivot_point=SIDEWAYS'])).toContain('--rule: pivot_point: "SIDEWAYS" is not one of FRONT_CORNER, CENTRE');
  });

  it('jwsim costs plays duels: a battle-only option is refused before any duel runs', () => {
    expect(refused(['costs', '--threads', '0', '--rule', 'offtable_rule=WITHDRAWN'])).toBe(
      `jwsim: error: --rule offtable_rule: this option only affects ${BATTLES_ONLY}; jwsim costs (it plays duels) does not read it\n`,
    );
  });

  it('jwsim battle --trace with an option it reads writes its file; battle reads every option', () => {
    const trace = join(root, 'trace.json');
    const r = jwsim('battle', '--scenario', STANDARD, '--trace', trace, '--rule', 'pivot_point=CENTRE', '--rule', 'opposed_budget=HIGHEST', '--rule', 'ram_front_bonus=RAMMER_ALWAYS');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(trace, 'utf8')).options).toMatchObject({ pivot_point: 'CENTRE', opposed_budget: 'HIGHEST', ram_front_bonus: 'RAMMER_ALWAYS' });
  });
});

describe('--rule options inside a command\'s scope are accepted', () => {
  it('dice-kernel options on jwsim dice change its numbers', () => {
    const sum = ok(['dice', '--base', '2', '--flex', '1', '--flex', '2']);
    const max = ok(['dice', '--base', '2', '--flex', '1', '--flex', '2', '--rule', 'flex_stacking=MAX']);
    expect(max.options.flex_stacking).toBe('MAX');
    expect(max.p['D+']).toBeLessThan(sum.p['D+']);
  });

  it('ram options on jwsim ram change its numbers', () => {
    const headOn = ok(COMMANDS.ram);
    const always = ok([...COMMANDS.ram, '--rule', 'ram_front_bonus=RAMMER_ALWAYS']);
    expect(always.options.ram_front_bonus).toBe('RAMMER_ALWAYS');
    // Rear: the ram rear bonus (HEAD_ON reading) against the rammer's front-arc die (RAMMER_ALWAYS).
    expect(always.pools.rammer_attack.base).toBeLessThan(headOn.pools.rammer_attack.base);
    expect(always.mean_structure_damage).toBeLessThan(headOn.mean_structure_damage);
  });

  it('every command accepts the options its scope lists, and records them', () => {
    const cases: Array<[string, string]> = [
      ['dice', 'max_rerolls=ONCE'],
      ['attack', 'critical_effects=NONE'],
      ['attack', 'opposed_budget=HIGHEST'],
      ['volley', 'armor_vs_missiles=NO'],
      ['ram', 'zero_rating_hit=NEXT_RATING'],
      ['ram', 'ram_flank_mode=GENERAL'],
      ['duel', 'crippled_capital=FIGHTS_ON'],
      ['duel', 'evasive_penalty=NONE'],
    ];
    for (const [cmd, opt] of cases) {
      const [name, value] = opt.split('=');
      expect(ok([...COMMANDS[cmd], '--rule', opt]).options[name]).toBe(value);
    }
  });

  it('jwsim rules accepts every option (it runs nothing) and shows who reads each', () => {
    expect(jwsim('rules', '--rule', 'boarding_pd_repel=CASUALTIES_ONLY').status).toBe(0);
    const j = JSON.parse(jwsim('rules', '--json').stdout);
    expect(j.options).toHaveLength(INTERPRETATIONS.length);
    for (const o of j.options as Array<{ name: string; scope: string[] }>) {
      expect(o.scope.every((r) => (OPTION_READERS as readonly string[]).includes(r)), o.name).toBe(true);
      // Battles read every option but post_effect_order, which nothing reads.
      if (o.name === 'post_effect_order') expect(o.scope).toEqual([]);
      else expect(o.scope, o.name).toContain('battle');
    }
    expect(j.options.find((o: { name: string }) => o.name === 'boarding_pd_repel').scope).toEqual(['battle']);
    expect(j.options.find((o: { name: string }) => o.name === 'negative_macro_mode').scope).toEqual([...OPTION_READERS]);
    const text = jwsim('rules').stdout;
    expect(text).toMatch(/ read by\n/);
    expect(text).toMatch(/negative_macro_mode +LEVEL +LEVEL +LEVEL\|COUNT +AMB-09,AMB-10 +all\n/);
    expect(text).toMatch(/opposed_budget .* attack,volley,duel,battle\n/);
    expect(text).toMatch(/boarding_pd_repel .* battle\n/);
    expect(text).toMatch(/post_effect_order .* none\n/);
    expect(text).toContain('  post_effect_order: the roll\'s own post-roll effects (Escalate, Diminish all) before or after the Secondary\'s Diminishes (read by no command at present: no Opposed Roll that jwsim makes has post-roll effects of its own)\n');
  });
});

describe('batch variants: an option no experiment of the batch reads is refused', () => {
  const batchFile = (name: string, experiments: object[], options: Record<string, string>) => {
    const file = join(root, name);
    writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', units: [SAMPLE], variants: [{ name: 'base', rules: '1.2.2' }, { name: 'house', rules: '1.2.2', options }], experiments }));
    return file;
  };
  const attack = { id: 'pc', kind: 'attack', attacker: 'jovian.alexander', weapon: 'Particle Cannon', target: 'jovian.valiant', range: 8 };
  const duel = { id: 'd', kind: 'duel', matchups: [['cega.wyvern', 'jovian.pathfinder']], range: 6, trials: 8192 };
  const battle = { id: 'b', kind: 'battle', scenario: STANDARD, trials: 10 };

  it('jwsim run and jwsim compare refuse it, naming the file, the variant field and the experiment kinds, and make no --out folder', () => {
    const file = batchFile('battle-option.json', [attack, duel], { boarding_pd_repel: 'CASUALTIES_ONLY' });
    const message = `${file}: variants[1].options.boarding_pd_repel: this option only affects ${BATTLES_ONLY}; no experiment of this batch reads it (its experiments are of kinds "attack" (experiments[0].kind), "duel" (experiments[1].kind))`;
    for (const cmd of ['run', 'compare']) {
      const out = join(root, `${cmd}-out`);
      const r = jwsim(cmd, file, '--out', out, '--threads', '0');
      expect(r.status, cmd).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`jwsim: error: ${message}\n`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('every unread option is listed; an option read by some experiment passes', () => {
    const file = batchFile('two-unread.json', [attack], { pivot_point: 'CENTRE', crippled_capital: 'FIGHTS_ON', zero_rating_hit: 'STRUCTURE' });
    let err: unknown;
    try {
      loadBatch(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    const e = err as UserError;
    expect(e.message).toBe(`${file}: 2 problems`);
    expect(e.details).toEqual([
      `${file}: variants[1].options.pivot_point: this option only affects ${BATTLES_ONLY}; no experiment of this batch reads it (every experiment is of kind "attack" (experiments[0].kind))`,
      `${file}: variants[1].options.crippled_capital: this option only affects duels and full battles (jwsim duel, jwsim battle; batch kinds "duel", "battle"); no experiment of this batch reads it (every experiment is of kind "attack" (experiments[0].kind))`,
    ]);
  });

  it('a mixed batch accepts an option one of its kinds reads, and the run records it', () => {
    const mixed = loadBatch(batchFile('mixed.json', [attack, battle], { pivot_point: 'CENTRE' }));
    expect(mixed.variants[1].options).toEqual(['pivot_point=CENTRE']);
    const file = batchFile('in-scope.json', [attack], { zero_rating_hit: 'STRUCTURE' });
    const out = join(root, 'in-scope-out');
    const r = jwsim('run', file, '--out', out, '--threads', '0', '--no-report');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(JSON.stringify(manifest.variants[1])).toContain('zero_rating_hit');
  });
});

describe('an overlay may carry options a command does not read (it is a house-rule set shared by commands)', () => {
  it('they are accepted, and the output says they have no effect there', () => {
    const overlay = join(root, 'shared-house-rules.json');
    writeFileSync(overlay, JSON.stringify({ format: 'jwsim-overlay/1', options: { offtable_rule: 'WITHDRAWN', flex_stacking: 'MAX' } }));
    const text = jwsim('dice', '--base', '3', '--rules-overlay', overlay);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('options: flex_stacking=MAX, offtable_rule=WITHDRAWN (jwsim rules lists them)\n  without effect here: offtable_rule=WITHDRAWN (not read by jwsim dice)\n');
    expect(ok(['dice', '--base', '3', '--rules-overlay', overlay]).optionsWithoutEffect).toEqual([{ option: 'offtable_rule=WITHDRAWN', why: 'not read by jwsim dice' }]);
    // A command that reads both lists neither.
    expect(jwsim('battle', '--scenario', STANDARD, '--trials', '2', '--threads', '0', '--rules-overlay', overlay).stdout).not.toContain('not read by');
  });
});

describe('options the rules in force leave nothing to change are accepted and marked without effect', () => {
  it('reroll_policy under v1.2.1 (only [N] may be rerolled) and crippled_capital under v1.2.2 (capital ships are never Crippled)', () => {
    const dice = jwsim('dice', '--base', '3', '--rerolls', '1', '--rules', '1.2.1', '--rule', 'reroll_policy=BELOW_T');
    expect(dice.stdout).toContain('  without effect here: reroll_policy=BELOW_T (these rules let a reroll replace only [N], which every policy rerolls)\n');
    // The same option where it matters is not marked, and it moves the numbers.
    const v122 = ok(['dice', '--base', '3', '--rerolls', '1', '--rule', 'reroll_policy=BELOW_T']);
    expect(v122.optionsWithoutEffect).toBeUndefined();
    expect(v122.p).not.toEqual(ok(['dice', '--base', '3', '--rerolls', '1']).p);
    // Under v1.2.1 it is truly idle: the same probabilities as without it.
    expect(ok(['dice', '--base', '3', '--rerolls', '1', '--rules', '1.2.1', '--rule', 'reroll_policy=BELOW_T']).p).toEqual(ok(['dice', '--base', '3', '--rerolls', '1', '--rules', '1.2.1']).p);
    const duel = ok(['duel', 'jovian.alexander', 'jovian.valiant', '--range', '8', '--trials', '200', '--rule', 'crippled_capital=FIGHTS_ON']);
    expect(duel.optionsWithoutEffect).toEqual([{ option: 'crippled_capital=FIGHTS_ON', why: 'no capital ship can be Crippled under these rules: one at 0 Structure is Destroyed' }]);
    expect(ok(['duel', 'jovian.alexander', 'jovian.valiant', '--range', '8', '--trials', '200', '--rules', '1.2.1', '--rule', 'crippled_capital=FIGHTS_ON']).optionsWithoutEffect).toBeUndefined();
  });
});

describe('battle options v1.2.1 leaves nothing to change (squadron_contact_122, reserve_vp)', () => {
  const beacon = fileURLToPath(new URL('../../scenarios/battles/beacon-assault.json', import.meta.url));
  const games = (rules: string, rule: string[]) => {
    const j = ok(['battle', '--scenario', beacon, '--rules', rules, '--trials', '30', '--threads', '0', ...rule.flatMap((r) => ['--rule', r])]);
    return { marked: j.optionsWithoutEffect, figures: JSON.stringify([j.a, j.b, j.draw, j.turns, j.units]) };
  };
  it('are marked under v1.2.1, where the games are the same as without them, and not under v1.2.2', () => {
    const plain = games('1.2.1', []);
    for (const [rule, why] of [
      ['squadron_contact_122=ALLOW_TOUCH', 'these rules keep squadrons 1" from capital ships and enemies, and no squadron may end a move touching another base'],
      ['reserve_vp=NONE', 'these rules score Victory Points from enemy losses, to which a model still In Reserve adds nothing'],
    ]) {
      const g = games('1.2.1', [rule]);
      expect(g.marked).toEqual([{ option: rule, why }]);
      expect(g.figures).toBe(plain.figures);
      expect(games('1.2.2', [rule]).marked).toBeUndefined();
    }
  });
});

describe('jwsim rules says under which versions an option can change nothing', () => {
  it('in the text and in --json', () => {
    const text = jwsim('rules').stdout;
    expect(text).toContain('without effect under v1.2.1: these rules let a reroll replace only [N], which every policy rerolls');
    expect(text).toContain('without effect under v1.2.2: no capital ship can be Crippled under these rules: one at 0 Structure is Destroyed');
    const json = JSON.parse(jwsim('rules', '--json').stdout);
    expect(Object.keys(json.withoutEffect).sort()).toEqual(['boarding_pd_repel', 'boost_min_move', 'crippled_capital', 'crippled_counts_as_lost', 'reroll_policy', 'reserve_vp', 'squadron_contact_122']);
    expect(json.withoutEffect.reroll_policy).toEqual([{ version: '1.2.1', why: 'these rules let a reroll replace only [N], which every policy rerolls' }]);
    // With cap_boost_mode giving v1.2.2 capital ships the v1.2.1 Boost, boost_min_move matters there too.
    expect(JSON.parse(jwsim('rules', '--json', '--rule', 'cap_boost_mode=V121_DOUBLE_SPEED').stdout).withoutEffect.boost_min_move).toBeUndefined();
  });
  it('the chosen version is judged with its data as an overlay patched it', () => {
    // A Catastrophic Damage table with Crippled results: v1.2.2 capital ships can be Crippled, so crippled_capital matters there.
    const overlay = join(root, 'crippling-table.json');
    writeFileSync(overlay, JSON.stringify({ format: 'jwsim-overlay/1', rules: '1.2.2', tables: { combat: { catastrophicTable: ['destroyed', 'crippled', 'crippled', 'destroyed'] } } }));
    expect(JSON.parse(jwsim('rules', '--json', '--rules', '1.2.2').stdout).withoutEffect.crippled_capital).toHaveLength(1);
    expect(JSON.parse(jwsim('rules', '--json', '--rules', '1.2.2', '--rules-overlay', overlay).stdout).withoutEffect.crippled_capital).toBeUndefined();
    expect(jwsim('rules', '--rules', '1.2.2', '--rules-overlay', overlay).stdout).not.toContain('without effect under v1.2.2: no capital ship can be Crippled');
  });
});

