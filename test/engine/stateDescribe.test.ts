// CombatState.describe: the target's state in battle traces, with every rating lost and every
// System knocked out (a trace that showed Structure only hid [D] and [T] effects).
import { describe, expect, it } from 'vitest';
import { CombatState } from '../../src/engine/state.js';
import { loadRoster } from '../../src/units/load.js';
import { sampleRosterFiles } from '../../src/paths.js';

const roster = loadRoster(sampleRosterFiles());

describe('CombatState.describe', () => {
  it('an undamaged model: its Structure only', () => {
    const s = new CombatState(roster.units.get('unknown.tengu')!);
    expect(s.describe()).toBe(`structure ${s.unit.structure}`);
  });
  it('ratings below their printed values, Fire Control lost and Systems knocked out, in that order', () => {
    const u = roster.units.get('unknown.tengu')!;
    const s = new CombatState(u);
    s.structure = 2;
    s.defense = u.defense - 1;
    s.thrusters = 0;
    s.fireControlLost = 1;
    s.disabledSystems = 1; // the first System trait
    expect(s.describe()).toMatch(new RegExp(`^structure 2; Defense ${u.defense - 1} of ${u.defense}, Thrusters 0 of ${u.thrusters}, Fire Control ${u.fireControl - 1} of ${u.fireControl}; knocked out: \\w+$`));
  });
  it('crippled and destroyed say only that', () => {
    const s = new CombatState(roster.units.get('unknown.tengu')!);
    s.defense = 0;
    s.crippled = true;
    expect(s.describe()).toBe('crippled');
    s.destroyed = true;
    expect(s.describe()).toBe('destroyed');
  });
});
