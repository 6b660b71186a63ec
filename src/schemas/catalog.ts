// Every JSON Schema jwsim checks files against, by a name for humans. The build compiles each
// into a validator ahead of time (precompile.ts), so a command or worker that reads files does
// not compile schemas at start-up; a schema missing here is still checked, compiled on first use.
import { NIGHTLY_SCHEMA } from '../report/nightlyRecord.js';
import { MANIFEST_SCHEMA, RESULTS_SCHEMA } from '../report/runFolderSchema.js';
import { OVERLAY_SCHEMA } from '../rules/overlaySchema.js';
import { BATCH_SCHEMA } from '../scenarios/batchSchema.js';
import { FLEET_FILE_SCHEMA, SCENARIO_SCHEMA } from '../scenarios/scenarioSchema.js';
import { PARTIAL_SCHEMA } from '../sim/partialCheck.js';
import { UNITS_SCHEMA } from '../units/schema.js';

export const SCHEMA_CATALOG: Record<string, object> = {
  units: UNITS_SCHEMA,
  overlay: OVERLAY_SCHEMA,
  batch: BATCH_SCHEMA,
  scenario: SCENARIO_SCHEMA,
  fleet: FLEET_FILE_SCHEMA,
  results: RESULTS_SCHEMA,
  manifest: MANIFEST_SCHEMA,
  partial: PARTIAL_SCHEMA,
  nightly: NIGHTLY_SCHEMA,
};
