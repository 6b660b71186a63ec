// How engagement results are printed: the same figures as JSON fields and as a table.
import type { DamageSummary } from '../engine/stats.js';
import type { UnitCard } from '../units/types.js';
import { formatTable, pct } from './format.js';

/** JSON fields of a damage summary; damage per 100 TV uses the attacker's TV. */
export function damageJson(s: DamageSummary, attackerTv: number) {
  return {
    p_destroyed: s.pDestroyed,
    p_crippled: s.pCrippled,
    mean_structure_damage: s.meanStructureDamage,
    mean_rating_damage: s.meanRatingDamage,
    mean_criticals: s.meanCriticals,
    damage_per_100_tv: (100 * s.meanStructureDamage) / attackerTv,
    structure_damage_distribution: s.structureDamage,
    ...(s.se ? { se: { p_destroyed: s.se.pDestroyed, p_crippled: s.se.pCrippled, mean_structure_damage: s.se.meanStructureDamage } } : {}),
  };
}

export function unitJson(u: UnitCard) {
  return { id: u.id, name: u.name, type: u.type, tv: u.tv, structure: u.structure };
}

const num = (x: number) => x.toFixed(3);

/** Table rows of a damage summary, with standard errors when sampled. */
export function damageTable(s: DamageSummary, attackerTv: number): string[] {
  const se = s.se;
  const pm = (v: string, e: number | undefined, f: (x: number) => string) => (e === undefined ? v : `${v} ± ${f(e)}`);
  const rows = [
    ['P(destroyed)', pm(pct(s.pDestroyed), se?.pDestroyed, pct)],
    ['P(crippled, not destroyed)', pm(pct(s.pCrippled), se?.pCrippled, pct)],
    ['mean Structure damage', pm(num(s.meanStructureDamage), se?.meanStructureDamage, num)],
    ['mean Defense damage', num(s.meanRatingDamage.defense)],
    ['mean Sensors damage', num(s.meanRatingDamage.sensors)],
    ['mean Thrusters damage', num(s.meanRatingDamage.thrusters)],
    ['mean criticals', num(s.meanCriticals)],
    ['Structure damage per 100 TV', num((100 * s.meanStructureDamage) / attackerTv)],
  ];
  const dist = s.structureDamage.map((p, k) => `${k}: ${pct(p)}`).join('  ');
  return [...formatTable(['figure', 'value'], rows), '', `Structure lost: ${dist}`];
}
