// Rules v1.2.2: v1.2.1 plus an explicit list of changes.
import { deriveVersion } from './derive.js';
import type { RulesData } from './types.js';
import { V1_2_1 } from './v1_2_1.js';

function withoutMarks(d: RulesData, ...paths: string[]): RulesData['placeholders'] {
  return Object.fromEntries(Object.entries(d.placeholders).filter(([k]) => !paths.includes(k)));
}

export const V1_2_2 = deriveVersion(V1_2_1, {
  id: '1.2.2',
  title: 'Jovian Wars rules v1.2.2',
  changes: [
    {
      summary: 'Squadron actions: a failed Break Off may end the dogfight in Return to Base, and survivors without Fuel return to base; either Heavy squadron may Stay on Target; bombing faces PD every run and ignores Armor, with no Heavy die on the post-interception Skill Test; Exo-Armor may Assault; capital ships may Engage Point Defense; boarders stay aboard (Boarded state) and capture when the Marines are gone.',
      source: 'v1.2.2 /actions (dogfight, bombing, assault), /states (Assaulting, Boarded), /boarding',
      apply: (d) => ({
        ...d,
        game: {
          ...d.game,
          // game.md §7.5 (v1.2.2 column, SRC): Stay on Target needs the Heavy trait, with no
          // "active squadron only" limit as in v1.2.1.
          dogfight: { breakOffTest: 'skill', breakOffFailAllowsRtb: true, breakerMayAttackAgain: true, afterwards: 'rtb_if_no_fuel', stayOnTarget: 'either' },
          // game.md §7.6 / TV-15: the +1d6 Heavy die on the post-interception Skill Test is v1.2.1's
          // only (the v1.2.2 example passes its test with no such die).
          strike: { interceptOrPd: 'pd_each_run', bombingIgnoresArmor: true, returnToBase: 'state', heavySkillDice: 0 },
          assault: true,
          engagePointDefence: true,
          boarding: { procedure: 'boarded_state', casualties: { D: 1, T: 2, Q: -1 }, pdRepels: false, defenderMarineLoss: 'per_set' },
          exoBoarding: false, // squadrons do not board in v1.2.2: Exo-Armor Assault instead (combat.md §12.2)
        },
      }),
    },
    {
      summary: 'Capital ships move Speed - Thrusters to Speed + Thrusters and turn up to min(Turns, Thrusters) times; squadrons no longer keep 1" spacing.',
      source: 'v1.2.2 /movement (and RC1 changelog)',
      apply: (d) => ({ ...d, game: { ...d.game, capitalMove: 'thrusters_band', squadronCapitalSpacing: 0, squadronEnemySpacing: 0 } }),
    },
    {
      summary: 'Actions: Evade needs no Skill Test and Sluggish models may not Evade; Concentrated Fire tests Skill and gives +1 Flex even on [N]; Station Keep targets give attackers +1 Flex (GM-63); only squadrons Boost (GM-09).',
      source: 'v1.2.2 /actions (index), /gameplay; v1.2.3 cheat sheet for Station Keep',
      apply: (d) => ({ ...d, game: { ...d.game, evadeTest: false, sluggishMayNotEvade: true, concentratedFireDice: 'skill', concentratedFireFlex: true, stationKeepFlex: 1, capitalBoost: false } }),
    },
    {
      summary: 'Scenarios: Fleet Deployment alternates one model at a time, Escalating Deployment exists, and VP are the surviving own models with multipliers (Withdrawn 0.5, Crippled 0, Destroyed 0).',
      source: 'v1.2.2 /scenarios (seed 000)',
      apply: (d) => ({ ...d, game: { ...d.game, fleetDeployBlocks: false, escalatingDeployment: true, scoring: 'own_survivors', immediateEndWithoutCapitals: false } }),
    },
    {
      summary: 'Results are named by Magnitude and Value; each set of a roll is a separate Result.',
      source: 'v1.2.2 /dice',
      apply: (d) => ({ ...d, dice: { ...d.dice, successTerm: 'Magnitude' } }),
    },
    {
      summary: 'A reroll may replace any outcome when a rule allows it and the roller wants it (v1.2.1: only [N]).',
      source: 'v1.2.2 /dice/rolls (Unopposed Roll, step 6)',
      apply: (d) => ({ ...d, dice: { ...d.dice, rerollOnlyNoResult: false } }),
    },
    {
      summary: 'The Beam Projector "may re-roll attacks" with no restriction stated: its reroll applies in every Attack Window (v1.2.1: not in Dogfights or Bombing Runs).',
      source: 'v1.2.2 /attack/weapons (Beam Projector)',
      apply: (d) => ({ ...d, combat: { ...d.combat, beamRerollOwnActivationOnly: false } }),
    },
    {
      summary: 'Opposed Roll is a generic mechanic: Secondary [D] diminishes one Result, [T] two, [Q+] negates all.',
      source: 'v1.2.2 /dice/rolls (Opposed Roll)',
      apply: (d) => ({ ...d, dice: { ...d.dice, opposedSource: 'v1.2.2 /dice/rolls Opposed Roll' } }),
    },
    {
      summary: 'Capital ships carry Armor per arc (Fore, P/S, Aft), subtracted from the Macro Pool of attacks into that arc; the v1.2.1 Belt:X trait is gone.',
      source: 'v1.2.2 /attack (Armor)',
      apply: (d) => ({ ...d, combat: { ...d.combat, armorByArc: true, beltTrait: false } }),
    },
    {
      summary: 'Barrier defends the Barrier model and friends within 3" against Mass Driver, Kinetic Cannon and missile attacks with the Barrier model\'s Defense, and no other model may assist that roll.',
      source: 'v1.2.2 /traits (Barrier)',
      apply: (d) => ({ ...d, combat: { ...d.combat, barrierCoversKinetic: true, barrierWithSupport: false } }),
    },
    {
      summary: 'Positional bonuses are Flex dice: +1 Flex within Short Range; the side and rear rows (not retrieved) taken as +1 and +2 Flex; all three in the Activation window only, while Bombing attacks get +1 Flex (row not retrieved) and nothing else.',
      source: 'v1.2.2 /attack (attack bonus table, first row only)',
      apply: (d) => ({
        ...d,
        combat: { ...d.combat, shortRangeBonus: { base: 0, flex: 1, macro: 0 }, sideBonus: { base: 0, flex: 1, macro: 0 }, rearBonus: { base: 0, flex: 2, macro: 0 }, bombingBonus: { base: 0, flex: 1, macro: 0 }, positionalInBombing: false },
        placeholders: {
          ...withoutMarks(d, 'combat.sideBonus', 'combat.rearBonus'),
          'combat.sideBonus': 'Table122: v1.2.2 side-arc row not retrieved; +1 Flex assumed (combat.md §5.3)',
          'combat.rearBonus': 'Table122: v1.2.2 aft-arc row not retrieved; +2 Flex assumed (combat.md §5.3)',
          'combat.bombingBonus': 'Table122: v1.2.2 Bombing row not retrieved; +1 Flex and no arc or short-range bonus assumed (combat.md §5.3)',
          'combat.missileSupport': 'Assist122: v1.2.2 size of the help nearby models give missile defence not retrieved; +1 die per model as in v1.2.1 (combat.md §8.2)',
        },
      }),
    },
    {
      summary: 'Capital-ship [D] damage maps Value 1-2 to Defense, 3-4 to Sensors, 5-6 to Thrusters (printed).',
      source: 'v1.2.2 /attack/damage',
      apply: (d) => ({ ...d, placeholders: withoutMarks(d, 'combat.valueToRating') }),
    },
    {
      summary: 'A capital ship reduced to 0 Structure rolls on the Catastrophic Damage Table (v1.2.1: it is Crippled).',
      source: 'v1.2.2 /attack/damage',
      apply: (d) => ({ ...d, combat: { ...d.combat, capitalAtZero: 'catastrophic' } }),
    },
    {
      summary: 'Squadrons have Structure instead of Damage and no Crippled state (INTERPRETATION Crippled122Sq).',
      source: 'v1.2.2 /attack/damage (squadron table)',
      apply: (d) => ({ ...d, combat: { ...d.combat, squadronCrippling: false } }),
    },
  ],
});
