// jwsim units: list the roster, or check unit files.
import { Command } from 'commander';
import { UserError } from '../errors.js';
import { loadRoster } from '../units/load.js';
import { TRAITS } from '../units/catalogue.js';
import type { Roster, UnitCard } from '../units/types.js';
import { addJsonOption, addUnitsOption, loadUnits } from './engagementArgs.js';
import { formatTable } from './format.js';

interface UnitsOpts {
  units?: string[];
  check?: string[];
  json: boolean;
}

export function unitsCommand(): Command {
  const cmd = new Command('units').description('List the unit roster (placeholder values marked *), or validate unit files with --check.');
  addUnitsOption(cmd);
  cmd.option('--check <files...>', 'validate these unit files and print every problem; exit 0 when all are valid, 2 otherwise');
  addJsonOption(cmd);
  return cmd.action((opts: UnitsOpts) => {
    process.stdout.write(runUnits(opts));
  });
}

/** A rating with * when it is a placeholder. */
function mark(u: UnitCard, field: string, value: number | string): string {
  return `${value}${u.placeholders.has(field) ? '*' : ''}`;
}

function weaponText(u: UnitCard): string {
  return u.weapons
    .map((w) => {
      const r = (f: 'ac' | 'as', v: number | null) => (v === null ? '-' : mark(u, `weapons[${w.index}].${f}`, v));
      const arcs = u.isCapital ? ` ${w.arcs.join('')}` : '';
      return `${w.count > 1 ? `${w.count}x ` : ''}${w.name} ${r('ac', w.ac)}/${r('as', w.as)}${w.macro ? ` M${mark(u, `weapons[${w.index}].macro`, w.macro)}` : ''}${arcs}`;
    })
    .join('; ');
}

function unitJson(u: UnitCard) {
  return {
    id: u.id,
    name: u.name,
    faction: u.faction,
    type: u.type,
    tv: u.tv,
    unit_cap: u.unitCap,
    skill: u.skill,
    speed: u.speed,
    ...(u.isCapital
      ? { turns: u.turns, thrusters: u.thrusters, armor: { fore: u.armor.fore, port_starboard: u.armor.portStarboard, aft: u.armor.aft }, marines: u.marines, hangers: u.hangers, base: u.base && { width_in: u.base.widthIn, length_in: u.base.lengthIn } }
      : { fuel: u.fuel, crippled_at: u.crippledAt }),
    fire_control: u.fireControl,
    sensors: u.sensors,
    defense: u.defense,
    structure: u.structure,
    traits: Object.fromEntries(u.traits),
    traits_without_modelled_effect: [...u.traits.keys()].filter((t) => TRAITS[t].modelled === null),
    weapons: u.weapons.map((w) => ({ name: w.name, class: w.cls, count: w.count, ac: w.ac, as: w.as, macro: w.macro, arcs: w.arcs, traits: Object.fromEntries(w.traits) })),
    placeholders: [...u.placeholders],
    file: u.file,
  };
}

export function runUnits(opts: UnitsOpts): string {
  if (opts.check) {
    if (opts.units) throw new UserError('--units: has no effect with --check, which checks the files it names; give them all to --check');
    let roster: Roster;
    try {
      roster = loadRoster(opts.check); // throws with every problem listed
    } catch (err) {
      // With --json a script gets an answer on stdout either way; the problems also go to stderr, exit 2.
      if (opts.json && err instanceof UserError) process.stdout.write(JSON.stringify({ valid: false, files: opts.check, error: err.message, problems: err.details.length ? err.details : [err.message] }, null, 2) + '\n');
      throw err;
    }
    return opts.json ? JSON.stringify({ valid: true, files: opts.check, units: roster.units.size }, null, 2) + '\n' : `${opts.check.join(', ')}: valid, ${roster.units.size} units\n`;
  }
  const roster = loadUnits(opts);
  const units = [...roster.units.values()];
  if (opts.json) return JSON.stringify({ files: roster.files, units: units.map(unitJson) }, null, 2) + '\n';
  const rows = units.map((u) => [
    u.id,
    u.name,
    u.faction,
    u.type,
    mark(u, 'tv', u.tv),
    mark(u, 'skill', u.skill),
    mark(u, 'speed', u.speed),
    mark(u, 'fire_control', u.fireControl),
    mark(u, 'sensors', u.sensors),
    mark(u, 'defense', u.defense),
    mark(u, 'structure', u.structure),
    u.isCapital ? `${mark(u, 'armor.fore', u.armor.fore)}/${mark(u, 'armor.port_starboard', u.armor.portStarboard)}/${mark(u, 'armor.aft', u.armor.aft)}` : '-',
    [...u.traits.keys()].join(', ') || '-',
    weaponText(u),
  ]);
  const withPlaceholders = units.filter((u) => u.placeholders.size > 0).length;
  return (
    [
      `${units.length} units from ${roster.files.join(', ')}`,
      '',
      ...formatTable(['id', 'name', 'faction', 'type', 'TV', 'Sk', 'Spd', 'FC', 'Sen', 'Def', 'Str', 'Armor F/PS/A', 'traits', 'weapons (AC/AS, Macro, arcs)'], rows),
      '',
      `* placeholder value (invented by jwsim, not from a published card): ${withPlaceholders} of ${units.length} units use some.`,
    ].join('\n') + '\n'
  );
}
