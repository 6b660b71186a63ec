// Duels: invariants that must hold whatever the dice.
import { describe, expect, it } from 'vitest';
import { DUEL_DRAW, DUEL_WIN_A, Duel, type DuelSetup } from '../../src/engine/duel.js';
import { ENGAGEMENT_CHUNK_TRIALS, runDuel } from '../../src/sim/engagements.js';
import { openStream } from '../../src/rng/stream.js';
import type { UnitCard } from '../../src/units/types.js';
import { rulesFor, unit } from '../helpers/units.js';
import { loadRoster } from '../../src/units/load.js';
import { arcFacing } from '../../src/engine/arcs.js';
import { CombatState } from '../../src/engine/state.js';
import { sampleRosterFiles } from '../../src/paths.js';

const V122 = rulesFor('1.2.2');
const squadron = unit({ id: 'sq', type: 'exo_armor', structure: 5, fireControl: 2, weapons: [{ ac: 2, as: 3, macro: 1 }, { ac: null, as: 2 }] });

function setup(a: UnitCard, b: UnitCard, more: Partial<DuelSetup> = {}): DuelSetup {
  return { a, b, rangeInches: 3, arcOfA: 'F', arcOfB: 'F', until: 'destroyed', maxRounds: 20, first: 'random', ...more };
}

describe('duels', () => {
  it('a mirror match with a random first shot is fair: win rates equal within 4 standard errors', () => {
    const c = runDuel(new Duel(V122, setup(squadron, squadron)), 'mirror', 'duel/test', 40_000);
    expect(c.aWins + c.bWins + c.draws).toBe(40_000);
    const se = Math.sqrt((0.25 * 2) / 40_000);
    expect(Math.abs(c.aWins - c.bWins) / 40_000).toBeLessThan(4 * se);
  });

  it('firing first is an advantage in a mirror match', () => {
    const first = runDuel(new Duel(V122, setup(squadron, squadron, { first: 'a' })), 's', 'duel/test', 20_000);
    const second = runDuel(new Duel(V122, setup(squadron, squadron, { first: 'b' })), 's', 'duel/test', 20_000);
    expect(first.aWins).toBeGreaterThan(first.bWins);
    expect(second.bWins).toBeGreaterThan(second.aWins);
  });

  it('the same seed replays the same duels; a longer run extends a shorter one chunk by chunk', () => {
    const d = new Duel(V122, setup(squadron, squadron));
    const a = runDuel(d, '7', 'duel/test', 2 * ENGAGEMENT_CHUNK_TRIALS);
    const b = runDuel(d, '7', 'duel/test', 2 * ENGAGEMENT_CHUNK_TRIALS);
    expect(a).toEqual(b);
    const first = runDuel(d, '7', 'duel/test', ENGAGEMENT_CHUNK_TRIALS);
    // Replaying chunk 1 alone gives what the long run added on top of chunk 0.
    const rng = openStream({ seed: '7', experiment: 'duel/test', purpose: 'duel', chunk: 1 });
    const rounds = new Int32Array(1);
    let wins = 0;
    for (let t = 0; t < ENGAGEMENT_CHUNK_TRIALS; t++) if (d.play(rng, rounds) === DUEL_WIN_A) wins++;
    expect(first.aWins + wins).toBe(a.aWins);
  });

  it('a side that cannot hurt the other never wins; with no damage either way it is a draw', () => {
    const harmless = unit({ id: 'h', type: 'fighter', structure: 5, weapons: [{ ac: 2, as: null }] });
    const c = runDuel(new Duel(V122, setup(harmless, squadron)), '1', 'duel/test', 5_000);
    expect(c.aWins).toBe(0);
    const draw = runDuel(new Duel(V122, setup(harmless, harmless, { maxRounds: 3 })), '1', 'duel/test', 100);
    expect(draw.draws).toBe(100);
    expect(draw.roundsTotal).toBe(300);
    const d = new Duel(V122, setup(harmless, harmless));
    expect(d.play(openStream({ seed: '1', experiment: 'x', purpose: 'y', chunk: 0 }), new Int32Array(1))).toBe(DUEL_DRAW);
  });

  it('"until crippled" ends duels no later than "until destroyed" (v1.2.1 squadrons cripple)', () => {
    const V121 = rulesFor('1.2.1');
    const sq = unit({ id: 'sq', type: 'exo_armor', structure: 5, fireControl: 2, crippledAt: 2, weapons: [{ ac: 2, as: 3, macro: 1 }] });
    const destroyed = runDuel(new Duel(V121, setup(sq, sq)), '3', 'duel/test', 10_000);
    const crippled = runDuel(new Duel(V121, setup(sq, sq, { until: 'crippled' })), '3', 'duel/test', 10_000);
    expect(crippled.roundsTotal).toBeLessThan(destroyed.roundsTotal);
  });

  it('a v1.2.1 capital ship at 0 Structure is out of the fight by default (inert hulk), fights on with crippled_capital=FIGHTS_ON', () => {
    const ship = unit({ id: 'ship', structure: 2, defense: 1, weapons: [{ ac: 3, as: 2, arcs: ['T'] }] });
    const inert = runDuel(new Duel(rulesFor('1.2.1'), setup(ship, ship, { rangeInches: 5 })), '4', 'duel/test', 5_000);
    expect(inert.draws).toBeLessThan(5_000);
    expect(inert.aWins + inert.bWins).toBeGreaterThan(0);
    // Fighting on, a crippled v1.2.1 ship can never be destroyed by damage: every duel is a draw.
    const on = runDuel(new Duel(rulesFor('1.2.1', ['crippled_capital=FIGHTS_ON']), setup(ship, ship, { rangeInches: 5, maxRounds: 5 })), '4', 'duel/test', 2_000);
    expect(on.draws).toBe(2_000);
  });
});

describe('duel trials are independent: the spread over seeds is the one the interval reports', () => {
  // The Poseidon's Barrier shields it from Mass Driver and Kinetic Cannon fire until a critical
  // knocks it out. A volley plan made at such a moment was kept for the rest of the chunk, so a
  // whole chunk could play against an unshielded Poseidon: the mean damage then varied between
  // seeds about 10 times as much as its reported interval allows (and the nightly gate failed
  // on a mere change of seed).
  const roster = loadRoster(sampleRosterFiles());
  it('unknown.thunderbolt vs unknown.poseidon at 6 in: 24 chunks of 8192 duels', () => {
    // As a batch duel stands them: front aspects, each presenting its better broadside.
    const [ua, ub] = [roster.units.get('unknown.thunderbolt')!, roster.units.get('unknown.poseidon')!];
    const arcOfA = arcFacing(V122, new CombatState(ua), new CombatState(ub), 6, 'front', 'front');
    const arcOfB = arcFacing(V122, new CombatState(ub), new CombatState(ua), 6, 'front', 'front');
    const duelSetup = setup(ua, ub, { rangeInches: 6, arcOfA, arcOfB, first: 'random' });
    const rounds = new Int32Array(1);
    const means: number[] = [];
    const variances: number[] = [];
    for (let seed = 0; seed < 24; seed++) {
      const duel = new Duel(V122, duelSetup); // one per chunk, as the runner has
      const rng = openStream({ seed: `spread-${seed}`, experiment: 'duel/poseidon', purpose: 'duel', chunk: 0 });
      let sum = 0;
      let sq = 0;
      for (let t = 0; t < 8192; t++) {
        duel.play(rng, rounds);
        const x = duel.damageDealt().byA;
        sum += x;
        sq += x * x;
      }
      const m = sum / 8192;
      means.push(m);
      variances.push((sq / 8192 - m * m) / 8192);
    }
    const grand = means.reduce((a, b) => a + b, 0) / means.length;
    const across = means.reduce((a, b) => a + (b - grand) ** 2, 0) / (means.length - 1);
    const reported = variances.reduce((a, b) => a + b, 0) / variances.length;
    // With independent trials the ratio is about 1 (above 2 with chance about 1 in 1000).
    expect(across / reported).toBeLessThan(2);
  }, 60_000);
});
