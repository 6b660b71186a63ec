// Which placeholder values an engagement read: card fields marked PLACEHOLDER and rules
// data jwsim invented. Collected while planning (never in a hot loop) and printed with
// every result that used them.
import type { CompiledRules } from '../rules/compile.js';
import type { UnitCard } from '../units/types.js';

export class PlaceholderUsage {
  private readonly used = new Set<string>();
  // What unit() and rule() have already looked at, so that asking again (battle planning asks
  // for the same few fields of the same cards plan after plan) costs one lookup instead of
  // building the entry's text and hashing it anew. `used` only grows, so a field looked at
  // once is recorded (or known to be no placeholder) for good.
  private readonly seenFields = new Map<UnitCard, Set<string>>();
  private readonly seenRules = new Set<string>();

  constructor(readonly rules: CompiledRules) {}

  /** Card fields of `unit` (paths like "skill", "weapons[0].ac", "armor.fore"). */
  unit(unit: UnitCard, ...fields: string[]): this {
    for (const f of fields) this.field(unit, f);
    return this;
  }

  /** unit() for one field (no array of arguments made). */
  field(unit: UnitCard, f: string): this {
    let seen = this.seenFields.get(unit);
    if (seen === undefined) this.seenFields.set(unit, (seen = new Set()));
    if (!seen.has(f)) {
      seen.add(f);
      if (unit.placeholders.has(f)) this.used.add(`${unit.id}.${f}`);
    }
    return this;
  }

  /** Rules data paths such as "combat.criticalTable". */
  rule(...paths: string[]): this {
    for (const p of paths) this.ruleOne(p);
    return this;
  }

  /** rule() for one path. */
  ruleOne(p: string): this {
    if (!this.seenRules.has(p)) {
      this.seenRules.add(p);
      const why = this.rules.placeholders[p];
      if (why !== undefined) this.used.add(`rules ${p}: ${why}`);
    }
    return this;
  }

  merge(other: PlaceholderUsage): this {
    for (const x of other.used) this.used.add(x);
    return this;
  }

  /** Entries of another usage's list() (e.g. one a worker thread sent back). */
  addAll(items: Iterable<string>): this {
    for (const x of items) this.used.add(x);
    return this;
  }

  /** Sorted: card values first, then rules data. */
  list(): string[] {
    return [...this.used].sort((a, b) => Number(a.startsWith('rules ')) - Number(b.startsWith('rules ')) || a.localeCompare(b));
  }
}

/** Every card field the damage rules read on a target. */
export function noteTargetDamageFields(usage: PlaceholderUsage, target: UnitCard): void {
  usage.unit(target, 'structure');
  if (target.isCapital) {
    usage.unit(target, 'defense', 'sensors', 'thrusters');
    usage.rule('combat.valueToRating', 'combat.criticalTable', 'combat.capitalT', 'combat.capitalQ');
    if (usage.rules.combat.capitalAtZero === 'catastrophic') usage.rule('combat.catastrophicTable');
  } else {
    usage.unit(target, 'crippled_at');
    usage.rule('combat.squadronDamage');
  }
}
