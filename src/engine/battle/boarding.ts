// Boarding and capture (game.md §7.4, §10; combat.md §8.1, §12), as pure procedures over the
// shared ProcedureHooks: every roll comes from hooks.roller / hooks.rng, every trace line goes
// to hooks.note, and the battle engine decides who boards whom and when.
//
// Two procedures exist, chosen by BoardingRules.procedure (never by asking the rules version):
//
//   'raid' (combat.md §12.1): one self-contained Boarding Action.
//     1. X marines are committed and leave the boarder.
//     2. The defender's Point Defense attack (Base Pool = current Defense, PDAttackPool) kills
//        marines by the casualty table; with `pdRepels`, any [D+] also drives the party off
//        and the survivors go back to their ship (PDRepel121 = any-success).
//     3. If not repelled, the defender rolls its current Marines; a [D+] kills one more.
//     4. The rest make a Normal Attack with Base Pool = their number, every Result Escalated,
//        applied as capital-ship damage; the defender loses one Marine per successful set
//        (or once per successful roll, `defenderMarineLoss`).
//     5. Capture121: if the ship is at 0 Structure at the end (and not Destroyed), it is
//        Captured. Whatever happens, the surviving marines then return to their ship.
//
//   'boarded_state' (combat.md §12.2, game.md §7.4 / GM-70 / GM-20 / GM-75):
//     1. X marines are committed and are spent for good (GM-70).
//     2. The same Point Defense attack kills marines by the casualty table (no repel).
//     3. Survivors join the target's Boarders pool and the target is Boarded.
//     4. boardedFight, at the start of the Boarded ship's activation (GM-20): Boarders and the
//        ship's Marines roll their counts at once and cut each other by the casualty table
//        (simultaneous, GM-88). Marines 0 with Boarders left → Captured, and the Boarders
//        become the ship's Marines, capped at its printed Marines (GM-75). Boarders 0 → the
//        state ends (also when both reach 0; then the ship is not captured).
//
// Marines counts live on the BoardingSide objects and are updated in place; the Boarded state
// is a small value the caller keeps on the target and replaces with the one returned.
// Changing owners, VP for a capture (game.md §12: ×1.5 to the captor) and the Exo-Armor
// boarding of GM-68 / ExoBoard121 are the caller's business.
import { BEST_MAG, ESCALATE_ALL, MAG_D, MAG_Q, MAG_T, RESULT_COUNT, magOf, outcomeName } from '../../dice/outcome.js';
import { MAX_ROLLED_BASE_DICE, resolvePool } from '../../dice/pool.js';
import { applyResults } from '../damage.js';
import type { Participant, ProcedureHooks } from './procedures.js';

/** Marines lost per Result of each Magnitude; a negative value means "all of them". */
export interface CasualtyTable {
  readonly D: number;
  readonly T: number;
  readonly Q: number;
}

/** combat.md §8.1 / §12: marines treated as a squadron: [D] −1, [T] −2, [Q+] all. */
export const MARINE_CASUALTIES: CasualtyTable = { D: 1, T: 2, Q: -1 };

/** Everything about boarding that differs between rules versions. */
export interface BoardingRules {
  /** 'raid': one Boarding Action that may capture a ship at 0 Structure; 'boarded_state': survivors stay aboard as Boarders. */
  readonly procedure: 'raid' | 'boarded_state';
  /** Casualties inflicted on marines by Point Defense and (boarded_state) by the boarded fight. */
  readonly casualties: CasualtyTable;
  /** raid only: any successful Point Defense Result also repels the party (PDRepel121); false = casualties only. */
  readonly pdRepels: boolean;
  /** raid only: the defender loses one Marine per successful set of the boarders' attack, or one per successful roll. */
  readonly defenderMarineLoss: 'per_set' | 'per_roll';
}

/** The one-shot Boarding Action (combat.md §12.1, defaults of §16 item 19 / 38). */
export const RAID_BOARDING: BoardingRules = { procedure: 'raid', casualties: MARINE_CASUALTIES, pdRepels: true, defenderMarineLoss: 'per_set' };

/** Boarders and the Boarded state (combat.md §12.2, game.md §7.4). */
export const BOARDED_STATE_BOARDING: BoardingRules = { procedure: 'boarded_state', casualties: MARINE_CASUALTIES, pdRepels: false, defenderMarineLoss: 'per_set' };

/** A model taking part in boarding: a battle model with its current Marines. */
export interface BoardingSide extends Participant {
  /** Current Marines (starts at unit.marines). */
  marines: number;
  /** The side that controls it now. */
  readonly side: 0 | 1;
}

/** The Boarded state of a ship (kept by the caller on the target). */
export interface BoardedState {
  /** Enemy marines aboard, pooled over every boarding model (> 0 while the state lasts). */
  readonly boarders: number;
  /** The side the Boarders belong to: the ship's owner if it is captured. */
  readonly boarderSide: 0 | 1;
}

/** May this model Initiate Boarding now? Marines ≥ 1, not destroyed, and not itself Boarded (GM-70). */
export function mayBoard(boarder: BoardingSide, boardedStateOfBoarder: BoardedState | null): boolean {
  return boarder.marines >= 1 && !boarder.state.destroyed && boardedStateOfBoarder === null;
}

/** May this model be boarded? Only capital ships that are still in play (game.md §7.2 row 1, §7.3). */
export function mayBeBoarded(target: Participant): boolean {
  return target.unit.isCapital && !target.state.destroyed;
}

/** Marines (out of `count`) that the outcome `code` kills by the casualty table. */
export function marineCasualties(code: number, table: CasualtyTable, count: number): number {
  let lost = 0;
  for (let mag = MAG_D; mag <= MAG_Q; mag++) {
    const loss = mag === MAG_D ? table.D : mag === MAG_T ? table.T : table.Q;
    for (let face = 1; face <= 6; face++) {
      if (magOf(code, face) !== mag) continue;
      if (loss < 0) return count;
      lost += loss;
    }
  }
  return Math.min(lost, count);
}

export interface BoardingResult {
  readonly committed: number;
  /** The defender's Point Defense outcome (0 = [N], also when it had no Defense). */
  readonly pdCode: number;
  /** Marines killed by Point Defense, and (raid) by the defender's Marines roll. */
  readonly pdCasualties: number;
  readonly marineRollCasualties: number;
  /** Marines alive after the defence: the attackers (raid) or the new Boarders (boarded_state). */
  readonly survivors: number;
  /** raid: the Point Defense drove the party off. */
  readonly repelled: boolean;
  /** raid: marines that went back to the boarder (already added to its Marines). */
  readonly returned: number;
  /** raid: the Escalated outcome of the boarders' attack (0 if none was made). */
  readonly attackCode: number;
  /** raid: Marines the defender lost to the attack (already taken off its Marines). */
  readonly defenderMarinesLost: number;
  /** Structure the target lost during this boarding. */
  readonly structureDamage: number;
  /** raid: the ship was Captured (Capture121). The caller hands it to the boarder's side. */
  readonly captured: boolean;
  /** The target's Boarded state afterwards (boarded_state), or the one passed in (raid). */
  readonly boarded: BoardedState | null;
}

function pool(hooks: ProcedureHooks, dice: number) {
  return resolvePool(hooks.rules.dice, { base: Math.min(dice, MAX_ROLLED_BASE_DICE) });
}

/** An Unopposed Roll of `dice` base dice; no dice, no roll ([N]). */
function roll(hooks: ProcedureHooks, dice: number): number {
  return dice > 0 ? hooks.roller.unopposed(pool(hooks, dice), hooks.rng) : 0;
}

/**
 * `boarder` commits `committed` marines against `target` (Initiate Boarding / Boarding Party).
 * Updates boarder.marines, target.marines and target.state in place; `boarded` is the
 * target's current Boarded state (null if none) and the new one comes back in the result.
 * The caller checks reach (within 1"), mayBoard and mayBeBoarded first.
 */
export function initiateBoarding(hooks: ProcedureHooks, br: BoardingRules, boarder: BoardingSide, target: BoardingSide, committed: number, boarded: BoardedState | null): BoardingResult {
  if (!Number.isInteger(committed) || committed < 1 || committed > boarder.marines) {
    throw new RangeError(`boarding: ${boarder.label} may commit 1..${boarder.marines} marines, not ${committed}`);
  }
  if (boarded && boarded.boarderSide !== boarder.side) throw new Error(`boarding: ${target.label} already holds Boarders of the other side`);
  boarder.marines -= committed;
  // Trace lines are built only where something records them (hooks.tracing).
  const tracing = hooks.tracing !== false;
  if (tracing) hooks.note(`${boarder.label} boards ${target.label} with ${committed} marine${committed === 1 ? '' : 's'}`);

  // Point Defense attack on the marines: Base Pool = current Defense, nothing else (PDAttackPool).
  const pdCode = roll(hooks, target.state.defense);
  const pdCasualties = marineCasualties(pdCode, br.casualties, committed);
  let alive = committed - pdCasualties;
  if (tracing) hooks.note(`${target.label} point defence (${target.state.defense} dice) ${outcomeName(pdCode)}: ${pdCasualties} marine${pdCasualties === 1 ? '' : 's'} lost, ${alive} left`);
  const structureBefore = target.state.structure;

  if (br.procedure === 'boarded_state') {
    let next = boarded;
    if (alive > 0) {
      next = { boarders: (boarded?.boarders ?? 0) + alive, boarderSide: boarder.side };
      if (tracing) hooks.note(`${target.label} is Boarded: ${next.boarders} Boarder${next.boarders === 1 ? '' : 's'} aboard`);
    } else if (tracing) hooks.note(`no marine reaches ${target.label}`);
    return { committed, pdCode, pdCasualties, marineRollCasualties: 0, survivors: alive, repelled: false, returned: 0, attackCode: 0, defenderMarinesLost: 0, structureDamage: 0, captured: false, boarded: next };
  }

  // raid
  const repelled = br.pdRepels && BEST_MAG[pdCode] >= MAG_D;
  let marineRollCasualties = 0;
  let attackCode = 0;
  let defenderMarinesLost = 0;
  let captured = false;
  if (repelled) {
    if (tracing) hooks.note(`the boarding of ${target.label} is repelled`);
  } else {
    // The defender's Marines roll: a [D+] kills one more boarder.
    if (alive > 0 && target.marines > 0) {
      const code = roll(hooks, target.marines);
      if (BEST_MAG[code] >= MAG_D) marineRollCasualties = 1;
      alive -= marineRollCasualties;
      if (tracing) hooks.note(`${target.label} marines (${target.marines} dice) ${outcomeName(code)}: ${marineRollCasualties} boarder${marineRollCasualties === 1 ? '' : 's'} lost, ${alive} left`);
    }
    if (alive > 0) {
      // The boarders' Normal Attack: Base Pool = their number, every Result Escalated.
      const rolled = roll(hooks, alive);
      attackCode = ESCALATE_ALL[rolled];
      applyResults(hooks.rules, target.state, attackCode, hooks.tally);
      const sets = RESULT_COUNT[attackCode];
      const wanted = br.defenderMarineLoss === 'per_set' ? sets : sets > 0 ? 1 : 0;
      defenderMarinesLost = Math.min(wanted, target.marines);
      target.marines -= defenderMarinesLost;
      if (tracing) hooks.note(`${alive} boarder${alive === 1 ? '' : 's'} attack ${target.label}: ${outcomeName(rolled)} escalated to ${outcomeName(attackCode)}; Structure ${target.state.structure}, ${defenderMarinesLost} defending marine${defenderMarinesLost === 1 ? '' : 's'} lost`);
      // Capture121: a ship left at 0 Structure (and not Destroyed) is taken.
      captured = target.state.structure === 0 && !target.state.destroyed;
      if (captured && tracing) hooks.note(`${target.label} is Captured by ${boarder.label}'s marines`);
    }
  }
  // Either way the surviving marines go home (the boarder loses at most the committed number).
  boarder.marines += alive;
  if (alive > 0 && tracing) hooks.note(`${alive} marine${alive === 1 ? '' : 's'} return to ${boarder.label}`);
  return {
    committed,
    pdCode,
    pdCasualties,
    marineRollCasualties,
    survivors: alive,
    repelled,
    returned: alive,
    attackCode,
    defenderMarinesLost,
    structureDamage: structureBefore - target.state.structure,
    captured,
    boarded,
  };
}

export interface BoardedFightResult {
  /** The outcomes of the Boarders' and the ship's Marines' rolls. */
  readonly boardersCode: number;
  readonly marinesCode: number;
  /** The ship was Captured: the caller hands it to `boarderSide`; its Marines are already the former Boarders. */
  readonly captured: boolean;
  /** The Boarded state is over (capture, Boarders wiped out, or both wiped out). */
  readonly ended: boolean;
  /** The ship's Marines afterwards (as also written to target.marines). */
  readonly newMarines: number;
  /** The target's Boarded state afterwards: null once it has ended. */
  readonly boarded: BoardedState | null;
}

/**
 * One round of fighting aboard a Boarded ship (GM-20; the caller calls it once per turn, at
 * the start of the ship's activation by default). Both rolls are made before any casualty
 * is taken (GM-88); the dice are drawn Boarders first, then the ship's Marines.
 */
export function boardedFight(hooks: ProcedureHooks, br: BoardingRules, target: BoardingSide, boarded: BoardedState): BoardedFightResult {
  const tracing = hooks.tracing !== false; // trace lines only where something records them
  const boardersCode = roll(hooks, boarded.boarders);
  const marinesCode = roll(hooks, target.marines);
  const marinesLost = marineCasualties(boardersCode, br.casualties, target.marines);
  const boardersLost = marineCasualties(marinesCode, br.casualties, boarded.boarders);
  const marines = target.marines - marinesLost;
  const boarders = boarded.boarders - boardersLost;
  if (tracing) hooks.note(
    `fight aboard ${target.label}: ${boarded.boarders} Boarder${boarded.boarders === 1 ? '' : 's'} ${outcomeName(boardersCode)}, ` +
      `${target.marines} Marine${target.marines === 1 ? '' : 's'} ${outcomeName(marinesCode)} → ${boarders} Boarders, ${marines} Marines`,
  );
  if (marines === 0 && boarders > 0) {
    // GM-75: the Boarders take over and become its Marines, no more than it started with.
    target.marines = Math.min(boarders, target.unit.marines);
    if (tracing) hooks.note(`${target.label} is Captured; its Marines are now ${target.marines}`);
    return { boardersCode, marinesCode, captured: true, ended: true, newMarines: target.marines, boarded: null };
  }
  target.marines = marines;
  if (boarders === 0) {
    if (tracing) hooks.note(`the Boarded state of ${target.label} ends`);
    return { boardersCode, marinesCode, captured: false, ended: true, newMarines: marines, boarded: null };
  }
  return { boardersCode, marinesCode, captured: false, ended: false, newMarines: marines, boarded: { boarders, boarderSide: boarded.boarderSide } };
}
