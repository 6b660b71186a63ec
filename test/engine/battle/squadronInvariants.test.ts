// Squadron invariants over a few hundred whole games with squadrons: the sample scenarios and an
// in-memory carrier scenario whose policies embark squadrons, both rules versions where the
// scenario allows them, several policy mixes, mirrored and not. Each game is checked at the end
// and, through the trace and a light wrapper around Battle.activate / Gunnery.fire, while it runs:
// Fuel within 0..printed, Embarked squadrons never attacked, Hangers never over capacity,
// captured ships scored for the captor, no attacks from Return to Base, no overlapping bases,
// and only Macro 0 weapons against Assaulting squadrons. Feature counts show the checks bite.
import { describe, expect, it } from 'vitest';
import type { GameResult, Trace, TraceActivation } from '../../../src/engine/battle/game.js';
import type { AttackRecord } from '../../../src/engine/battle/gunnery.js';
import type { BattleModel } from '../../../src/engine/battle/model.js';
import { separation } from '../../../src/engine/geometry.js';
import type { RulesVersionId } from '../../../src/rules/registry.js';
import type { PolicyName, Scenario } from '../../../src/scenarios/scenarioTypes.js';
import { battleStreams } from '../../../src/sim/battles.js';
import { Battle, emptyTrace, endState, expectedVp, handBattle, miniScenario, put, rules, sampleScenario, withPolicies, type SampleScenario } from '../../helpers/battle.js';

// ------------------------------------------------------------------ the games

type Source = { kind: 'file'; name: SampleScenario | 'scripted-screen' } | { kind: 'carriers'; escalating: boolean };

interface Config {
  label: string;
  source: Source;
  version: RulesVersionId;
  /** Policies (a, b); null: the scenario's own. */
  pair: [PolicyName, PolicyName] | null;
  /** Squadrons each fleet's policy asks to deploy Embarked (0: the policy's own choice). */
  embark: [number, number];
  games: number;
}

const cfg = (source: Source, version: RulesVersionId, pair: [PolicyName, PolicyName] | null, games: number, embark: [number, number] = [0, 0]): Config => ({
  label: `${source.kind === 'file' ? source.name : source.escalating ? 'carriers (corner, escalating)' : 'carriers (standard, fleet)'} v${version} ${pair ? pair.join(' vs ') : "file's policies"}${embark[0] || embark[1] ? ` embark ${embark.join('/')}` : ''}`,
  source,
  version,
  pair,
  embark,
  games,
});

const file = (name: SampleScenario | 'scripted-screen'): Source => ({ kind: 'file', name });
const CARRIERS: Source = { kind: 'carriers', escalating: false };
const CARRIERS_ESC: Source = { kind: 'carriers', escalating: true };

const CONFIGS: Config[] = [
  cfg(file('standard-engagement'), '1.2.2', null, 10),
  cfg(file('standard-engagement'), '1.2.2', ['random', 'random'], 12),
  cfg(file('standard-engagement'), '1.2.1', ['aggressive', 'random'], 10),
  cfg(file('standard-engagement'), '1.2.2', ['lookahead', 'aggressive'], 6),
  cfg(file('beacon-assault'), '1.2.2', null, 10),
  cfg(file('beacon-assault'), '1.2.2', ['random', 'aggressive'], 14),
  cfg(file('beacon-assault'), '1.2.1', null, 8),
  cfg(file('beacon-assault'), '1.2.1', ['random', 'random'], 12),
  cfg(file('corner-escalation'), '1.2.2', null, 10), // v1.2.1 rejects Escalating Deployment
  cfg(file('corner-escalation'), '1.2.2', ['random', 'aggressive'], 12),
  cfg(file('scripted-screen'), '1.2.2', null, 10),
  cfg(file('scripted-screen'), '1.2.1', null, 6),
  // Carriers with both fleets embarking; fleet B asks for more than its Hangers hold (2).
  cfg(CARRIERS, '1.2.2', null, 12, [2, 3]),
  cfg(CARRIERS, '1.2.2', ['random', 'random'], 16, [2, 3]),
  cfg(CARRIERS, '1.2.2', ['aggressive', 'random'], 12, [3, 2]),
  cfg(CARRIERS, '1.2.2', ['lookahead', 'random'], 6, [2, 2]),
  cfg(CARRIERS, '1.2.1', null, 10, [2, 3]),
  cfg(CARRIERS, '1.2.1', ['random', 'aggressive'], 14, [2, 2]),
  cfg(CARRIERS_ESC, '1.2.2', ['aggressive', 'random'], 12, [2, 2]),
];

/** Carriers: jovian.valiant Hangers 2, venus.shan-yu 1, unknown.crusader 1, unknown.poseidon 1. */
function carrierScenario(escalating: boolean): Scenario {
  return miniScenario({
    a: ['jovian.valiant', 'venus.shan-yu', 'jovian.alexander', 'jovian.pathfinder', 'jovian.pathfinder', 'venus.ryu', 'venus.ryu', 'unknown.wraith'],
    b: ['unknown.crusader', 'unknown.poseidon', 'unknown.lancer', 'unknown.lancer', 'unknown.hector', 'cega.wyvern', 'unknown.mackie'],
    zone: escalating ? 'corner' : 'standard',
    deployment: escalating ? 'escalating' : 'fleet',
    initiative: 'random',
  });
}

function scenarioOf(c: Config): Scenario {
  const base =
    c.source.kind === 'file'
      ? sampleScenario(c.source.name as SampleScenario, c.version) // the helper loads any file in scenarios/battles
      : carrierScenario(c.source.escalating);
  return c.pair ? withPolicies(base, c.pair[0], c.pair[1]) : base;
}

// ------------------------------------------------------------------ feature counts

const COUNTS = {
  games: 0,
  gamesWithSquadronAction: 0,
  dogfights: 0,
  passiveInterceptions: 0,
  activeInterceptions: 0,
  bombings: 0,
  bombingRuns: 0,
  assaults: 0,
  staysAssaulting: 0,
  stopsAssaulting: 0,
  attacksOnAssaulting: 0,
  attacksOnAssaultingByNotes: 0,
  engagePointDefence: 0,
  boardings: 0,
  captures: 0,
  capturedAtEnd: 0,
  embarkedDeployments: 0,
  launches: 0,
  failedLaunches: 0,
  landings: 0,
  embarkedLostWithCarrier: 0,
  rtbActivations: 0,
  boosts: 0,
  fuelNotesChecked: 0,
  embarkedAtEnd: 0,
  assaultingAtEnd: 0,
  /** Findings counted rather than asserted (see the report). */
  embarkedOnAbsentCarrier: 0,
  launchesFromAbsentCarrier: 0,
  embarkedAtEndOnAbsentCarrier: 0,
  /** Squadrons aboard a carrier captured earlier, destroyed later with no loss of the carrier (engine bug, see below). */
  silentEmbarkedLosses: 0,
  rtbDefenderAttacks: 0,
  assaulterNotTouchingShip: 0,
};
const gamesWith = new Map<string, number>();
function gameHad(feature: string): void {
  gamesWith.set(feature, (gamesWith.get(feature) ?? 0) + 1);
}

// ------------------------------------------------------------------ instrumentation

interface AttackInfo {
  /** The target was Assaulting when the attack was made. */
  targetAssaulting: boolean;
}

interface Probe {
  what: string;
  /** Per attack record, what held at the moment it was made. */
  info: WeakMap<AttackRecord, AttackInfo>;
  violations: string[];
  /** Embarked squadrons destroyed in an activation though their carrier was neither lost nor captured in it: [trace index, label]. */
  silentLosses: Array<[number, string]>;
}

interface Internals {
  activate(m: BattleModel): void;
  gunnery: { fire(...args: unknown[]): number };
  trace: Trace | null;
  policies: Array<{ holdBack(): { squadrons: number; untilTurn: number; embark?: number } }>;
}

/** Wraps activate and Gunnery.fire of one Battle to check state between activations and at each attack. */
function instrument(battle: Battle, embark: [number, number]): { probe: Probe } {
  const inner = battle as unknown as Internals;
  const probe: Probe = { what: '', info: new WeakMap(), violations: [], silentLosses: [] };
  for (const f of [0, 1] as const) {
    if (!embark[f]) continue;
    const pol = inner.policies[f];
    const own = pol.holdBack.bind(pol);
    pol.holdBack = () => ({ ...own(), embark: embark[f] });
  }
  const bad = (msg: string) => {
    if (probe.violations.length < 20) probe.violations.push(`${probe.what}: ${msg}`);
  };

  const fire = inner.gunnery.fire.bind(inner.gunnery);
  inner.gunnery.fire = (...args: unknown[]) => {
    const log = args[6] as AttackRecord[] | null;
    if (log) {
      const byLabel = new Map(battle.models.map((m) => [m.label, m] as const));
      args[6] = {
        push(r: AttackRecord) {
          const t = byLabel.get(r.target)!;
          if (t.where !== 'table') bad(`${r.attacker} attacks ${r.target} while it is ${t.where}`);
          probe.info.set(r, { targetAssaulting: t.assaulting !== null });
          return log.push(r);
        },
      };
    }
    return fire(...args);
  };

  const activate = inner.activate.bind(battle);
  inner.activate = (m: BattleModel) => {
    const rtbBefore = new Set(battle.models.filter((x) => x.rtb && x.where === 'table' && x !== m).map((x) => x.label));
    const selfRtb = m.rtb && m.where === 'table';
    const aboard = battle.models.filter((x) => x.where === 'embarked').map((x) => ({ x, c: x.carrier!, captured: x.carrier!.captured, carrierOff: x.carrier!.where !== 'table' }));
    activate(m);
    for (const { x, c, captured, carrierOff } of aboard) {
      if (x === m && x.where === 'table' && carrierOff) COUNTS.launchesFromAbsentCarrier++;
      if (x.where !== 'destroyed') continue;
      if (x === m && x.launched) continue; // launched this activation, then destroyed on the table
      const carrierLost = c.where === 'destroyed' || c.state.destroyed || (c.captured && !captured);
      if (!carrierLost) {
        COUNTS.silentEmbarkedLosses++;
        probe.silentLosses.push([(inner.trace?.activations.length ?? 0) - 1, x.label]);
      }
    }
    const rec = inner.trace?.activations.at(-1);
    if (rec && rec.model === m.label) {
      if (selfRtb && rec.action !== 'return_to_base') bad(`${m.label} was in Return to Base but its activation is ${rec.action}`);
      for (const a of rec.attacks) {
        if (selfRtb && a.attacker === m.label) bad(`${m.label} in Return to Base attacks ${a.target} (window ${a.window})`);
        // A squadron in Return to Base that is attacked in someone else's dogfight may shoot back; counted, not asserted.
        if (rtbBefore.has(a.attacker)) COUNTS.rtbDefenderAttacks++;
      }
      for (const n of rec.notes) {
        const i = /^(\S+ \S+) intercepts /.exec(n);
        if (i && rtbBefore.has(i[1])) bad(`${i[1]} intercepts while in Return to Base: ${n}`);
      }
    }
    checkLive(battle, bad);
  };
  return { probe };
}

/** State that must hold between any two activations. */
function checkLive(battle: Battle, bad: (msg: string) => void): void {
  const aboard = new Map<BattleModel, number>();
  for (const m of battle.models) {
    if (!m.unit.isCapital && (m.fuel < 0 || m.fuel > m.unit.fuel)) bad(`${m.label} Fuel ${m.fuel} outside 0..${m.unit.fuel}`);
    if (m.unit.isCapital && m.fuel !== 0) bad(`capital ship ${m.label} has Fuel ${m.fuel}`);
    if ((m.where === 'embarked') !== (m.carrier !== null)) bad(`${m.label} where ${m.where} but carrier ${m.carrier?.label ?? 'none'}`);
    if (m.where === 'embarked' && m.carrier) {
      aboard.set(m.carrier, (aboard.get(m.carrier) ?? 0) + 1);
      if (m.carrier.side !== m.side) bad(`${m.label} is aboard the enemy ship ${m.carrier.label}`);
      if (m.unit.isCapital) bad(`capital ship ${m.label} is Embarked`);
      if (m.carrier.where !== 'table') COUNTS.embarkedOnAbsentCarrier++;
    }
  }
  for (const [c, n] of aboard) if (n > c.unit.hangers) bad(`${c.label} carries ${n} squadrons with Hangers ${c.unit.hangers}`);
}

// ------------------------------------------------------------------ after-game checks


const LABEL = '[AB]\\d+ [\\w.-]+';
const RE = {
  embarkedDeploy: new RegExp(`^(${LABEL}) \\(Embarked on (${LABEL})\\)$`),
  lands: new RegExp(`^(${LABEL}) lands on (${LABEL})$`),
  launches: new RegExp(`^(${LABEL}) launches from (${LABEL})$`),
  cannotLaunch: new RegExp(`^(${LABEL}) cannot launch from `),
  withdrawsAboard: new RegExp(`^(${LABEL}) withdraws aboard (${LABEL})$`),
  captured: new RegExp(`^(${LABEL}) is captured by fleet [AB]$`),
  boards: new RegExp(`^(${LABEL}) boards (${LABEL})`),
  staysAssaulting: new RegExp(`^(${LABEL}) stays Assaulting (${LABEL})$`),
  stopsAssaulting: new RegExp(`^(${LABEL}) stops Assaulting (${LABEL})`),
  cannotStay: new RegExp(`^(${LABEL}) cannot stay on (${LABEL}): Return to Base$`),
  assaults: new RegExp(`^(${LABEL}) assaults (${LABEL})$`),
  bombs: new RegExp(`^(${LABEL}) bombs (${LABEL}) \\(Fuel (-?\\d+);`),
  run: new RegExp(`^(${LABEL}) run \\d+ \\((?:free|1 Fuel), Fuel left (-?\\d+)\\)$`),
  dogfight: new RegExp(`^dogfight: (${LABEL}) \\(Fuel (-?\\d+)\\) vs (${LABEL}) \\(Fuel (-?\\d+)\\)$`),
  roundFuel: new RegExp(`^round \\d+: (${LABEL}) .*Fuel (-?\\d+)->(-?\\d+)\\)`),
  passes: new RegExp(`^round \\d+: (${LABEL}) passes \\(Fuel (-?\\d+)\\)$`),
  survivesWith: new RegExp(`^(${LABEL}) survives the dogfight with (-?\\d+) Fuel`),
  intercepts: new RegExp(`^(${LABEL}) intercepts (${LABEL})$`),
  epd: new RegExp(`^(${LABEL}) engages point defence against`),
};

/** Fuel figures a note gives for named squadrons: [label, fuel] pairs. */
function fuelFigures(n: string): Array<[string, number]> {
  let m: RegExpExecArray | null;
  if ((m = RE.dogfight.exec(n))) return [[m[1], +m[2]], [m[3], +m[4]]];
  if ((m = RE.roundFuel.exec(n))) return [[m[1], +m[2]], [m[1], +m[3]]];
  if ((m = RE.passes.exec(n))) return [[m[1], +m[2]]];
  if ((m = RE.bombs.exec(n))) return [[m[1], +m[3]]];
  if ((m = RE.run.exec(n))) return [[m[1], +m[2]]];
  if ((m = RE.survivesWith.exec(n))) return [[m[1], +m[2]]];
  return [];
}

function checkGame(battle: Battle, scenario: Scenario, version: RulesVersionId, r: GameResult, trace: Trace, probe: Probe, what: string): void {
  const byLabel = new Map(battle.models.map((m) => [m.label, m] as const));
  const seen = new Set<string>();
  const had = (f: string) => seen.add(f);

  // ---- Walk the trace: deployments of a turn, then its activations.
  const embarkedOn = new Map<string, string>(); // squadron -> carrier, from the notes
  const assaultingOn = new Map<string, string>(); // squadron -> ship, from the notes
  const gone = new Set<string>();
  const onCarrier = (c: string) => [...embarkedOn].filter(([, k]) => k === c).map(([s]) => s);
  const checkCapacity = (c: string, where: string) => {
    const n = onCarrier(c).length;
    const cap = byLabel.get(c)!.unit.hangers;
    expect(n, `${what}: ${where}: ${c} holds ${n} squadrons with Hangers ${cap}`).toBeLessThanOrEqual(cap);
  };
  const loseCarrier = (c: string) => {
    for (const s of onCarrier(c)) {
      embarkedOn.delete(s);
      gone.add(s);
      COUNTS.embarkedLostWithCarrier++;
      had('embarked lost with carrier');
    }
  };
  let index = -1;
  const turns = Math.max(0, ...trace.deployments.map((d) => d.turn), ...trace.activations.map((a) => a.turn));
  for (let t = 1; t <= turns; t++) {
    for (const d of trace.deployments) {
      if (d.turn !== t) continue;
      const m = RE.embarkedDeploy.exec(d.model);
      if (!m) continue;
      const [, s, c] = m;
      expect(byLabel.get(s)!.unit.isCapital, `${what}: capital ship ${s} deployed Embarked`).toBe(false);
      expect(byLabel.get(c)!.fleet, `${what}: ${s} embarked on the enemy ${c}`).toBe(byLabel.get(s)!.fleet);
      embarkedOn.set(s, c);
      checkCapacity(c, `turn ${t} deployment`);
      COUNTS.embarkedDeployments++;
      had('embarked deployment');
    }
    for (const a of trace.activations) {
      if (a.turn !== t) continue;
      index = trace.activations.indexOf(a);
      walkActivation(a);
      // The engine bug below: drop squadrons it destroyed aboard a carrier captured earlier.
      for (const [i, s] of probe.silentLosses) if (i === index) embarkedOn.delete(s);
    }
  }

  function walkActivation(a: TraceActivation): void {
    const where = `turn ${a.turn} activation of ${a.model}`;
    const notes = a.notes;
    const launched = notes.some((n) => RE.launches.exec(n)?.[1] === a.model);
    // Labels whose Assaulting state may change in this activation (attacks and notes are not interleaved).
    const changing = new Set<string>();
    for (const n of notes) {
      let m: RegExpExecArray | null;
      if ((m = RE.staysAssaulting.exec(n) ?? RE.stopsAssaulting.exec(n) ?? RE.cannotStay.exec(n) ?? RE.assaults.exec(n))) changing.add(m[1]);
    }
    for (const x of a.attacks) if (x.targetAfter === 'destroyed') changing.add(x.target);

    // Embarked squadrons are never attacked (the activating one only after it launched).
    for (const x of a.attacks) {
      const aboard = embarkedOn.has(x.target) && !(x.target === a.model && launched);
      expect(aboard, `${what}: ${where}: ${x.attacker} attacks ${x.target} while it is Embarked on ${embarkedOn.get(x.target)}`).toBe(false);
      expect(embarkedOn.has(x.attacker) && !(x.attacker === a.model && launched), `${what}: ${where}: Embarked ${x.attacker} attacks`).toBe(false);
      expect(gone.has(x.target), `${what}: ${where}: ${x.target} attacked after it was lost`).toBe(false);
    }
    // Return to Base: no attacks of its own.
    if (a.action === 'return_to_base') {
      COUNTS.rtbActivations++;
      had('return to base');
      const own = a.attacks.filter((x) => x.attacker === a.model);
      expect(own.filter((x) => x.window === 0), `${what}: ${where}: window-0 attacks in Return to Base`).toHaveLength(0);
      expect(own, `${what}: ${where}: attacks in Return to Base`).toHaveLength(0);
    }
    if (a.action === 'boost') {
      COUNTS.boosts++;
      had('boost');
    }
    // Assaulting squadrons: only Macro 0 weapons.
    for (const x of a.attacks) {
      const att = byLabel.get(x.attacker)!;
      const lines = att.unit.weapons.filter((w) => w.name === x.weapon);
      expect(lines.length, `${what}: ${where}: ${x.attacker} has no weapon ${x.weapon}`).toBeGreaterThan(0);
      const macro0 = lines.some((w) => w.macro === 0);
      if (assaultingOn.has(x.target) && !changing.has(x.target)) {
        COUNTS.attacksOnAssaultingByNotes++;
        expect(macro0, `${what}: ${where}: ${x.attacker} fires ${x.weapon} (Macro ${lines.map((w) => w.macro).join('/')}) at Assaulting ${x.target}`).toBe(true);
      }
      const info = probe.info.get(x);
      expect(info, `${what}: ${where}: attack not seen by the probe`).toBeDefined();
      if (info?.targetAssaulting) {
        COUNTS.attacksOnAssaulting++;
        had('attack on an Assaulting squadron');
        expect(macro0, `${what}: ${where}: ${x.attacker} fires ${x.weapon} (Macro ${lines.map((w) => w.macro).join('/')}) at Assaulting ${x.target}`).toBe(true);
      }
    }

    // Notes, in order.
    let assaulted = false;
    for (const n of notes) {
      for (const [label, fuel] of fuelFigures(n)) {
        const m = byLabel.get(label)!;
        expect(m, `${what}: ${where}: unknown model in "${n}"`).toBeDefined();
        COUNTS.fuelNotesChecked++;
        expect(fuel, `${what}: ${where}: "${n}"`).toBeGreaterThanOrEqual(0);
        expect(fuel, `${what}: ${where}: "${n}" (printed Fuel ${m.unit.fuel})`).toBeLessThanOrEqual(m.unit.fuel);
      }
      if (/Fuel -\d/.test(n) || /->-\d/.test(n)) expect.fail(`${what}: ${where}: negative Fuel in "${n}"`);
      let m: RegExpExecArray | null;
      if ((m = RE.dogfight.exec(n))) {
        COUNTS.dogfights++;
        had('dogfight');
      } else if ((m = RE.intercepts.exec(n))) {
        COUNTS.passiveInterceptions++;
        had('passive interception');
      } else if ((m = RE.bombs.exec(n))) {
        COUNTS.bombings++;
        had('bombing');
      } else if ((m = RE.run.exec(n))) COUNTS.bombingRuns++;
      else if ((m = RE.epd.exec(n))) {
        COUNTS.engagePointDefence++;
        had('engage point defence');
      } else if ((m = RE.boards.exec(n))) {
        COUNTS.boardings++;
        had('boarding');
      } else if ((m = RE.captured.exec(n))) {
        COUNTS.captures++;
        had('capture');
        loseCarrier(m[1]);
      } else if ((m = RE.launches.exec(n))) {
        const [, s, c] = m;
        expect(s, `${what}: ${where}: ${s} launches in someone else's activation`).toBe(a.model);
        expect(embarkedOn.get(s), `${what}: ${where}: ${s} launches from ${c} but the notes have it aboard ${embarkedOn.get(s) ?? 'nothing'}`).toBe(c);
        embarkedOn.delete(s);
        COUNTS.launches++;
        had('launch');
      } else if ((m = RE.cannotLaunch.exec(n))) COUNTS.failedLaunches++;
      else if ((m = RE.withdrawsAboard.exec(n))) {
        expect(embarkedOn.get(m[1]), `${what}: ${where}: ${m[1]} withdraws aboard ${m[2]} but the notes have it aboard ${embarkedOn.get(m[1]) ?? 'nothing'}`).toBe(m[2]);
        embarkedOn.delete(m[1]);
      }
      else if ((m = RE.lands.exec(n))) {
        const [, s, c] = m;
        expect(s, `${what}: ${where}: ${s} lands in someone else's activation`).toBe(a.model);
        // A squadron lands on its Return to Base move: the RTB activation, or (v1.2.1, GM-17) the
        // RTB move that ends a Bombing Run or an Exo-Armor boarding.
        const rtbMoves = version === '1.2.1' ? ['return_to_base', 'bombing', 'board'] : ['return_to_base'];
        expect(rtbMoves, `${what}: ${where}: ${s} lands outside Return to Base (action ${a.action})`).toContain(a.action);
        expect(embarkedOn.has(s), `${what}: ${where}: ${s} lands while Embarked`).toBe(false);
        expect(launched, `${what}: ${where}: ${s} launches and lands in one activation`).toBe(false);
        embarkedOn.set(s, c);
        checkCapacity(c, where);
        COUNTS.landings++;
        had('landing');
      } else if ((m = RE.assaults.exec(n))) {
        if (m[1] === a.model) assaulted = true;
        COUNTS.assaults++;
        had('assault');
      } else if ((m = RE.staysAssaulting.exec(n))) {
        assaultingOn.set(m[1], m[2]);
        COUNTS.staysAssaulting++;
        had('stays Assaulting');
      } else if ((m = RE.stopsAssaulting.exec(n)) || (m = RE.cannotStay.exec(n))) {
        assaultingOn.delete(m[1]);
        COUNTS.stopsAssaulting++;
      }
    }
    if (a.action === 'intercept') {
      COUNTS.activeInterceptions++;
      had('active interception');
    }
    // An assault that did not end in "stays Assaulting" leaves the state (destroyed, driven off, Return to Base).
    if (assaulted && !notes.some((n) => RE.staysAssaulting.exec(n)?.[1] === a.model)) assaultingOn.delete(a.model);

    // Losses: a destroyed carrier takes its squadrons with it; a destroyed squadron is no longer Assaulting.
    const destroyed = a.attacks.filter((x) => x.targetAfter === 'destroyed').map((x) => x.target);
    if (a.ram) {
      if (a.ram.targetAfter === 'destroyed') destroyed.push(a.ram.target);
      if (a.ram.rammerAfter === 'destroyed') destroyed.push(a.model);
    }
    for (const d of destroyed) {
      assaultingOn.delete(d);
      loseCarrier(d);
    }
    if (a.action === 'withdraw' || notes.some((n) => n.startsWith('left the table: destroyed'))) {
      if (notes.some((n) => n.startsWith('left the table: destroyed'))) loseCarrier(a.model);
      assaultingOn.delete(a.model);
    }
    for (const s of [...assaultingOn.keys()]) {
      const sq = byLabel.get(s)!;
      if (sq.where === 'destroyed' && a.attacks.some((x) => x.target === s && x.targetAfter === 'destroyed')) assaultingOn.delete(s);
    }
  }

  // ---- End of game: the engine's state against the notes.
  for (const m of battle.models) {
    if (m.where === 'embarked') {
      COUNTS.embarkedAtEnd++;
      if (m.carrier && m.carrier.where !== 'table') COUNTS.embarkedAtEndOnAbsentCarrier++;
      had('embarked at the end');
      expect(embarkedOn.get(m.label), `${what}: ${m.label} Embarked on ${m.carrier?.label} at the end, notes say ${embarkedOn.get(m.label) ?? 'not aboard'}`).toBe(m.carrier?.label);
    } else if (m.where !== 'destroyed') {
      expect(embarkedOn.has(m.label), `${what}: notes have ${m.label} aboard ${embarkedOn.get(m.label)} but it is ${m.where}`).toBe(false);
    }
    const live = m.where === 'table' && !m.state.destroyed;
    if (live && m.assaulting) {
      COUNTS.assaultingAtEnd++;
      had('assaulting at the end');
    }
    if (live) expect(assaultingOn.get(m.label) ?? null, `${what}: ${m.label} Assaulting per the notes vs the engine`).toBe(m.assaulting?.label ?? null);
  }

  // Fuel of every model at the end.
  for (const m of battle.models) {
    expect(m.fuel, `${what}: ${m.label} Fuel`).toBeGreaterThanOrEqual(0);
    expect(m.fuel, `${what}: ${m.label} Fuel`).toBeLessThanOrEqual(m.unit.isCapital ? 0 : m.unit.fuel);
  }
  // Hangers at the end.
  for (const c of battle.models) {
    if (!c.unit.isCapital) continue;
    const n = battle.models.filter((x) => x.carrier === c && x.where === 'embarked').length;
    expect(n, `${what}: ${c.label} carries ${n} with Hangers ${c.unit.hangers}`).toBeLessThanOrEqual(c.unit.hangers);
  }
  // No two bases on the table overlap; an Assaulting squadron touches its ship.
  const onTable = battle.models.filter((m) => m.where === 'table');
  for (let i = 0; i < onTable.length; i++) {
    for (let j = i + 1; j < onTable.length; j++) {
      const a = onTable[i], b = onTable[j];
      expect.soft(separation(a.base, b.base), `${what}: ${a.label} overlaps ${b.label}${a.assaulting === b || b.assaulting === a ? ' (Assaulting)' : ''}`).toBeGreaterThan(-0.001);
    }
  }
  for (const m of onTable) {
    if (!m.assaulting || m.assaulting.where !== 'table') continue;
    if (separation(m.base, m.assaulting.base) > 0.01) COUNTS.assaulterNotTouchingShip++;
  }

  // Captured ships score x1.5 for the captor and nothing for the owner; VP from the fates.
  for (const m of battle.models) {
    if (endState(m) === 'captured') {
      COUNTS.capturedAtEnd++;
      had('captured at the end');
      expect(battle.fate(m)).toBe('captured');
    }
  }
  expect(r.vp, `${what}: VP`).toEqual(expectedVp(battle, version));
  const surv: [number, number] = [0, 0];
  for (const m of battle.models) if (['intact', 'reserve'].includes(endState(m))) surv[m.fleet] += m.unit.tv;
  expect(r.survivingTv, `${what}: surviving TV`).toEqual(surv);

  // Violations seen while the game ran.
  expect(probe.violations, `${what}: live checks`).toEqual([]);

  COUNTS.games++;
  if (['dogfight', 'bombing', 'assault', 'landing', 'launch', 'engage point defence'].some((f) => seen.has(f))) COUNTS.gamesWithSquadronAction++;
  for (const f of seen) gameHad(f);
  void scenario;
}

// ------------------------------------------------------------------ the tests

describe('squadron invariants over whole games', () => {
  it.each(CONFIGS.map((c) => ({ ...c, name: c.label })))('$name: $games games', (c) => {
    const scenario = scenarioOf(c);
    const battle = new Battle(rules(c.version), scenario);
    const { probe } = instrument(battle, c.embark);
    const streams = battleStreams('squadron-invariants', c.label);
    for (let g = 0; g < c.games; g++) {
      const mirrored = g % 2 === 1;
      const what = `${c.label} game ${g}${mirrored ? ' (mirrored)' : ''}`;
      probe.what = what;
      probe.violations.length = 0;
      probe.silentLosses.length = 0;
      const trace = emptyTrace();
      const res = battle.play(streams.dice.at(g), streams.policy.at(g), mirrored, trace);
      checkGame(battle, scenario, c.version, res, trace, probe, what);
    }
  });

  it('the checks were not vacuous: each squadron feature occurred', () => {
    expect(COUNTS.games).toBe(CONFIGS.reduce((n, c) => n + c.games, 0));
    for (const k of [
      'dogfights', 'passiveInterceptions', 'activeInterceptions', 'bombings', 'bombingRuns', 'assaults', 'staysAssaulting', 'stopsAssaulting',
      'attacksOnAssaulting', 'attacksOnAssaultingByNotes', 'engagePointDefence', 'boardings', 'captures', 'capturedAtEnd', 'embarkedDeployments',
      'launches', 'landings', 'embarkedLostWithCarrier', 'rtbActivations', 'boosts', 'fuelNotesChecked', 'embarkedAtEnd', 'assaultingAtEnd',
    ] as const) expect(COUNTS[k], k).toBeGreaterThan(0);
    // An Assaulting squadron on a ship still on the table touches it at the end of every game.
    expect(COUNTS.assaulterNotTouchingShip).toBe(0);
    // Squadrons aboard are lost only with their carrier; none launch from a carrier that left;
    // a squadron in Return to Base makes no attacks, not even when intercepted (GM-77).
    expect(COUNTS.silentEmbarkedLosses).toBe(0);
    expect(COUNTS.launchesFromAbsentCarrier).toBe(0);
    expect(COUNTS.rtbDefenderAttacks).toBe(0);
  });
});

// Found by the games above: afterDamage used to destroy everything aboard a captured carrier each
// time it ran, so a squadron of the captor that later landed on it was lost at the next attack.
// Only squadrons aboard at the moment of capture are lost (GM-76).
describe('squadrons landing on a captured carrier', () => {
  it('are not destroyed by later damage bookkeeping on the carrier', () => {
    const battle = new Battle(rules('1.2.2'), miniScenario({ a: ['jovian.valiant', 'unknown.tengu'], b: ['unknown.crusader', 'jovian.pathfinder'] }));
    const inner = handBattle(battle) as ReturnType<typeof handBattle> & { afterDamage(m: BattleModel): boolean };
    const [carrier, , , squadron] = battle.models;
    put(carrier, 24, 24, 0);
    put(battle.models[1], 24, 4, 0);
    put(battle.models[2], 10, 44, 180);
    // Fleet B has captured the Valiant earlier; its squadron has since landed on it.
    carrier.captured = true;
    carrier.side = 1;
    squadron.where = 'embarked';
    squadron.carrier = carrier;
    inner.afterDamage(carrier); // e.g. the carrier is shot at and survives
    expect(squadron.where).toBe('embarked');
    expect(squadron.state.destroyed).toBe(false);
  });
});
