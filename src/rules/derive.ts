// Deriving a rules version from another with a required, non-empty list of changes.
import type { RulesChange, RulesVersion } from './types.js';

export interface VersionDelta {
  id: string;
  title: string;
  /** At least one change: a version identical to its parent is not a version. */
  changes: readonly [RulesChange, ...RulesChange[]];
}

export function deriveVersion(parent: RulesVersion, delta: VersionDelta): RulesVersion {
  const data = delta.changes.reduce((d, change) => change.apply(d), parent.data);
  return { id: delta.id, title: delta.title, parent: parent.id, changes: delta.changes, data };
}
