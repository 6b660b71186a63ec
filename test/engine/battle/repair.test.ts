// The Repair action as the digest's stub (GM-19, option enable_repair=YES): a model with the
// Repair trait and a lost box declares Repair, takes a Skill Test, and on [D+] restores one box
// (a knocked-out System trait, else a lost rating point, else 1 Structure); it then moves
// (no Station Keep or Boost) and attacks as usual. Off by default.
import { describe, expect, it } from 'vitest';
import { REPAIR_STUB_NOTE } from '../../../src/engine/battle/battleState.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { SYSTEM_TRAITS } from '../../../src/units/catalogue.js';
import { ScriptedDice } from '../../../src/rng/scripted.js';
import { Battle, cardWith, handBattle, miniScenario, policiesOf, put } from '../../helpers/battle.js';
import { rulesFor } from '../../helpers/units.js';

// A Tengu (Skill 3) with Repair:1 and Cloak (a System trait).
const base = cardWith('unknown.tengu', {});
const mender = cardWith('unknown.tengu', { id: 'test.mender', traits: new Map([...base.traits, ['Repair', 1], ['Cloak', 1]]) });

function activate(opts: string[], damage: (m: BattleModel) => void, faces: number[] | null) {
  const battle = new Battle(rulesFor('1.2.2', opts), miniScenario({ a: [mender], b: ['unknown.tengu'] }));
  const inner = handBattle(battle, 'repair');
  const [m, enemy] = battle.models;
  put(m, 24, 6, 0);
  put(enemy, 24, 44, 180); // far away: nobody fires
  damage(m);
  if (faces) inner.dice = new ScriptedDice(faces);
  inner.activate(m);
  return { m, rec: inner.trace!.activations[0] };
}

// Skill Test dice (3): 6,6,1 is [D+]; 1,2,4 is [N] (RAM-02).
const PASS = (skill: number) => (expect(skill).toBe(3), [6, 6, 1]);
const FAIL = (skill: number) => (expect(skill).toBe(3), [1, 2, 4]);

describe('Repair (GM-19 stub)', () => {
  it('off by default: a damaged model with the trait does not repair', () => {
    const { m, rec } = activate([], (x) => (x.state.structure -= 1), null);
    expect(rec.action).not.toBe('repair');
    expect(m.state.structure).toBe(mender.structure - 1);
  });

  it('enable_repair=YES: [D+] brings back a knocked-out System trait first, then ratings, then Structure', () => {
    const cloak = SYSTEM_TRAITS.indexOf('Cloak');
    const skill = mender.skill;
    const a = activate(['enable_repair=YES'], (x) => {
      x.state.disabledSystems = 1 << cloak;
      x.state.defense -= 1;
      x.state.structure -= 1;
    }, PASS(skill));
    expect(a.rec.action).toBe('repair');
    expect(a.rec.test).toBe(`Repair Skill Test (${skill} dice): [D+] passed`);
    expect(a.m.state.disabledSystems).toBe(0);
    expect(a.m.state.defense).toBe(mender.defense - 1);
    expect(a.rec.notes).toContain(`${a.m.label} repairs its Cloak system (GM-19)`);
    const b = activate(['enable_repair=YES'], (x) => {
      x.state.defense -= 1;
      x.state.structure -= 1;
    }, PASS(skill));
    expect(b.m.state.defense).toBe(mender.defense);
    expect(b.m.state.structure).toBe(mender.structure - 1);
    const c = activate(['enable_repair=YES'], (x) => (x.state.structure -= 2), PASS(skill));
    expect(c.m.state.structure).toBe(mender.structure - 1);
    expect(c.rec.notes).toContain(`${c.m.label} repairs 1 Structure (GM-19)`);
  });

  it('[N] restores nothing; the model still moves, with no Station Keep or Boost', () => {
    const { m, rec } = activate(['enable_repair=YES'], (x) => (x.state.structure -= 1), FAIL(mender.skill));
    expect(rec.action).toBe('repair');
    expect(rec.test).toBe(`Repair Skill Test (${mender.skill} dice): [N]: nothing repaired`);
    expect(m.state.structure).toBe(mender.structure - 1);
    expect(rec.after.y).toBeGreaterThan(rec.before.y); // it moved (v1.2.2 minimum: Speed - Thrusters)
    expect(m.stationKeeping).toBe(false);
  });

  it('a Crippled model gets no Structure back (it would stay Crippled with Structure again)', () => {
    const opts = ['enable_repair=YES', 'crippled_capital=FIGHTS_ON', 'critical_effects=NONE'];
    const only = activate(opts, (x) => {
      x.state.structure = 0;
      x.state.crippled = true;
    }, null);
    expect(only.rec.action).not.toBe('repair'); // nothing it may restore
    expect(only.m.state.structure).toBe(0);
    const rating = activate(opts, (x) => {
      x.state.structure = 0;
      x.state.crippled = true;
      x.state.sensors -= 1;
    }, PASS(mender.skill));
    expect(rating.rec.action).toBe('repair');
    expect(rating.m.state.sensors).toBe(mender.sensors);
    expect(rating.m.state.structure).toBe(0);
  });

  it('a model that wants to withdraw does not repair instead', () => {
    const battle = new Battle(rulesFor('1.2.2', ['enable_repair=YES']), miniScenario({ a: [mender], b: ['unknown.tengu'] }));
    const policy = policiesOf(battle)[0];
    const [m] = battle.models;
    m.state.structure = 1;
    expect(policy.wants(battle, m, 'repair', null as never)).toBe(true);
    const s = miniScenario({ a: [mender], b: ['unknown.tengu'] });
    const withdrawing = new Battle(rulesFor('1.2.2', ['enable_repair=YES']), { ...s, sides: [{ ...s.sides[0], policy: { name: 'aggressive', params: { withdraw_at: 2 } } }, s.sides[1]] });
    const w = withdrawing.models[0];
    w.state.structure = 1;
    expect(policiesOf(withdrawing)[0].wants(withdrawing, w, 'withdraw', null as never)).toBe(true);
    expect(policiesOf(withdrawing)[0].wants(withdrawing, w, 'repair', null as never)).toBe(false);
  });

  it('a battle that may play the stub lists it with its placeholders; one that cannot does not', () => {
    const withStub = (opts: string[], a: Array<typeof mender | string>) => new Battle(rulesFor('1.2.2', opts), miniScenario({ a, b: ['unknown.tengu'] })).usage.list().includes(REPAIR_STUB_NOTE);
    expect(withStub(['enable_repair=YES'], [mender])).toBe(true);
    expect(withStub([], [mender])).toBe(false); // off
    expect(withStub(['enable_repair=YES'], ['unknown.tengu'])).toBe(false); // nobody has the trait
  });

  it('an undamaged model, or one without the trait, does not declare it', () => {
    expect(activate(['enable_repair=YES'], () => {}, null).rec.action).not.toBe('repair');
  });
});
