// The one list of rules versions. CLI choices and per-version test expectations come from it.
import { UserError } from '../errors.js';
import type { RulesVersion } from './types.js';
import { V1_2_1 } from './v1_2_1.js';
import { V1_2_2 } from './v1_2_2.js';

export const RULES_VERSIONS = { '1.2.1': V1_2_1, '1.2.2': V1_2_2 } as const satisfies Record<string, RulesVersion>;
export type RulesVersionId = keyof typeof RULES_VERSIONS;
export const RULES_VERSION_IDS = Object.keys(RULES_VERSIONS) as RulesVersionId[];
/** The version used when none is named: the latest published one we model. */
export const DEFAULT_RULES_VERSION: RulesVersionId = '1.2.2';

export function isRulesVersionId(id: string): id is RulesVersionId {
  return Object.prototype.hasOwnProperty.call(RULES_VERSIONS, id);
}

/** Accepts "1.2.2" or "v1.2.2". */
export function getRulesVersion(id: string, where = '--rules'): RulesVersion {
  const bare = id.startsWith('v') ? id.slice(1) : id;
  if (!isRulesVersionId(bare)) {
    throw new UserError(`${where}: unknown rules version "${id}"; allowed: ${RULES_VERSION_IDS.join(', ')}`);
  }
  return RULES_VERSIONS[bare];
}
