// Victory Points (game.md §12.1 v1.2.1, §12.2 v1.2.2; VP-01..VP-05, GM-31, GM-93, GM-94),
// from a Battle whose models are given end states by hand (play() is never called).
//
// A Captured ship is given its end state the way Battle.capture() leaves it: flagged captured
// and serving the captor's side. The embarked squadron of VP-02 is put on the table instead,
// which GM-31 scores the same (×1).
import { describe, expect, it } from 'vitest';
import type { Battle as BattleT } from '../../../src/engine/battle/game.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { UnitCard } from '../../../src/units/types.js';
import { Battle, cardWith, miniScenario, rules } from '../../helpers/battle.js';

type End = 'intact' | 'crippled' | 'destroyed' | 'withdrawn' | 'reserve' | 'hit-destroyed' | 'captured';

const ship = (tv: number) => cardWith('unknown.tengu', { tv, id: `test.ship-${tv}` });
const squadron = (tv: number) => cardWith('jovian.pathfinder', { tv, id: `test.squadron-${tv}` });

/** Sets a model's end state the way the engine records it. */
function finish(m: BattleModel, end: End): void {
  m.state.reset();
  m.where = 'table';
  switch (end) {
    case 'intact':
      break;
    case 'crippled':
      m.state.crippled = true;
      break;
    case 'destroyed':
      m.state.destroyed = true;
      m.where = 'destroyed';
      break;
    case 'hit-destroyed': // destroyed, not yet removed from the table
      m.state.destroyed = true;
      break;
    case 'withdrawn':
      m.where = 'withdrawn';
      break;
    case 'reserve':
      m.where = 'reserve';
      break;
    case 'captured': // boarded and taken: it now serves the other table position (Battle.capture)
      m.captured = true;
      m.side = (1 - m.side) as 0 | 1;
      break;
  }
}

/** A battle of fleets A and B with the given end states; fleet A at table position `sideA`. */
function ended(version: RulesVersionId, a: Array<[UnitCard, End]>, b: Array<[UnitCard, End]>, sideA: 0 | 1 = 0): BattleT {
  const battle = new Battle(rules(version), miniScenario({ a: a.map((x) => x[0]), b: b.map((x) => x[0]) }));
  for (const m of battle.models) {
    m.side = m.fleet === 0 ? sideA : ((1 - sideA) as 0 | 1);
    finish(m, (m.fleet === 0 ? a : b)[m.index][1]);
  }
  return battle;
}

describe('fate()', () => {
  it('reads the end states the engine records', () => {
    const battle = ended('1.2.2', [[ship(10), 'intact'], [ship(11), 'crippled'], [ship(12), 'destroyed'], [ship(13), 'withdrawn'], [ship(14), 'reserve'], [ship(15), 'hit-destroyed']], [[ship(20), 'intact']]);
    expect(battle.models.filter((m) => m.fleet === 0).map((m) => battle.fate(m))).toEqual(['intact', 'crippled', 'destroyed', 'withdrawn', 'reserve', 'destroyed']);
  });
});

describe('v1.2.2: VP = own surviving models with multipliers (§12.2)', () => {
  it('VP-01: 100 intact + 60 Crippled + 40 Withdrawn + B\'s 50-pt ship Captured = 100 + 0 + 20 + 75 = 195', () => {
    const battle = ended('1.2.2', [[ship(100), 'intact'], [ship(60), 'crippled'], [squadron(40), 'withdrawn']], [[ship(50), 'captured']]);
    expect(battle.victoryPoints()[0]).toBe(195);
  });

  it('VP-02: everything destroyed except a 70-pt ship and a 30-pt squadron (on the table, not Embarked: issue 7) = 100', () => {
    const battle = ended('1.2.2', [[ship(70), 'intact'], [squadron(30), 'intact'], [ship(45), 'destroyed'], [squadron(25), 'hit-destroyed'], [ship(33), 'destroyed']], [[ship(50), 'intact']]);
    expect(battle.victoryPoints()[0]).toBe(100);
  });

  it('VP-03: the captured B ship of VP-01 contributes 0 to VP(B)', () => {
    const battle = ended('1.2.2', [[ship(100), 'intact']], [[ship(50), 'captured']]);
    expect(battle.fate(battle.models[1])).toBe('captured');
    expect(battle.victoryPoints()).toEqual([100 + 75, 0]);
  });

  it('TV-20 (combat.md §15.1): a 100-point ship Captured gives 150 to the capturer and 0 to its owner; Crippled 0; Destroyed 0; Withdrawn 50 to the owner', () => {
    // B's only model is a destroyed 10-pt ship, which scores nothing for anyone under v1.2.2.
    const vpOf = (end: End) => ended('1.2.2', [[ship(100), end]], [[ship(10), 'destroyed']]).victoryPoints();
    expect(vpOf('captured')).toEqual([0, 150]);
    expect(vpOf('crippled')).toEqual([0, 0]);
    expect(vpOf('destroyed')).toEqual([0, 0]);
    expect(vpOf('withdrawn')).toEqual([50, 0]);
    expect(vpOf('intact')).toEqual([100, 0]); // the yardstick: intact scores its full value
  });

  it('VP-05: a 45-pt squadron Withdrawn, nothing else survives: 22.5 rounds up to 23 (GM-94)', () => {
    const battle = ended('1.2.2', [[squadron(45), 'withdrawn'], [ship(60), 'destroyed'], [ship(40), 'crippled']], [[ship(50), 'intact']]);
    expect(battle.victoryPoints()).toEqual([23, 50]);
  });

  it('rounding is per model: two 45-pt squadrons withdrawn give 23 + 23 = 46, not 45', () => {
    const battle = ended('1.2.2', [[squadron(45), 'withdrawn'], [squadron(45), 'withdrawn']], [[ship(50), 'destroyed']]);
    expect(battle.victoryPoints()).toEqual([46, 0]);
  });

  it('Crippled ×0, Destroyed ×0, Withdrawn ×0.5, intact ×1, In Reserve ×1 (GM-31 literal default)', () => {
    const battle = ended('1.2.2', [[ship(31), 'intact'], [ship(37), 'crippled'], [ship(41), 'destroyed'], [ship(43), 'withdrawn'], [squadron(29), 'reserve']], [[ship(50), 'intact']]);
    expect(battle.victoryPoints()).toEqual([31 + 0 + 0 + 22 + 29, 50]);
  });

  it('a damaged but not Crippled ship counts in full', () => {
    const battle = ended('1.2.2', [[ship(30), 'intact']], [[ship(50), 'intact']]);
    battle.models[0].state.structure = 1;
    expect(battle.victoryPoints()).toEqual([30, 50]);
  });

  it('VP are per table position: fleet A at the second position scores there', () => {
    const battle = ended('1.2.2', [[ship(100), 'intact'], [squadron(45), 'withdrawn']], [[ship(50), 'intact'], [ship(60), 'destroyed']], 1);
    expect(battle.victoryPoints()).toEqual([50, 123]);
  });
});

describe('v1.2.1: VP earned from enemy losses (§12.1, GM-93, GM-94)', () => {
  it('VP-04: A destroyed B\'s 80-pt ship, B withdrew a 40-pt squadron, A captured B\'s 50-pt ship: A scores 80 + 20 + 75 = 175', () => {
    const battle = ended('1.2.1', [[ship(90), 'intact']], [[ship(80), 'destroyed'], [squadron(40), 'withdrawn'], [ship(50), 'captured']]);
    expect(battle.victoryPoints()).toEqual([175, 0]);
  });

  it('destroyed full, withdrawn half rounded up per model, intact and In Reserve nothing', () => {
    const battle = ended('1.2.1', [[ship(10), 'intact']], [[ship(31), 'destroyed'], [ship(33), 'withdrawn'], [squadron(45), 'withdrawn'], [squadron(20), 'hit-destroyed'], [squadron(29), 'reserve'], [ship(50), 'intact']]);
    expect(battle.victoryPoints()).toEqual([31 + 17 + 23 + 20, 0]);
  });

  it('a Crippled capital ship counts as destroyed for VP (GM-93)', () => {
    const battle = ended('1.2.1', [[ship(37), 'crippled'], [ship(10), 'intact']], [[ship(60), 'crippled'], [ship(50), 'intact']]);
    expect(battle.victoryPoints()).toEqual([60, 37]);
  });

  it('own losses never score for their owner; both sides score at once', () => {
    const battle = ended('1.2.1', [[ship(40), 'destroyed'], [squadron(25), 'withdrawn']], [[ship(30), 'withdrawn'], [squadron(20), 'destroyed']]);
    expect(battle.victoryPoints()).toEqual([15 + 20, 40 + 13]);
  });

  it('VP go to the enemy table position when the fleets are swapped', () => {
    const battle = ended('1.2.1', [[ship(40), 'destroyed']], [[ship(30), 'intact']], 1);
    expect(battle.victoryPoints()).toEqual([40, 0]);
  });
});
