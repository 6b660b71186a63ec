// Every JSON Schema jwsim checks files against, by a name for humans: the published ones
// (index.ts, named by their file less ".schema.json") and those of jwsim's own output files.
// The build compiles each into a validator ahead of time (precompile.ts), so a command or
// worker that reads files does not compile schemas at start-up; a schema missing here is
// still checked, compiled on first use.
import { NIGHTLY_SCHEMA } from '../report/nightlyRecord.js';
import { MANIFEST_SCHEMA, RESULTS_SCHEMA } from '../report/runFolderSchema.js';
import { FLEET_FILE_SCHEMA } from '../scenarios/scenarioSchema.js';
import { PARTIAL_SCHEMA } from '../sim/partialCheck.js';
import { PUBLISHED_SCHEMAS } from './index.js';

export const SCHEMA_CATALOG: Record<string, object> = {
  ...Object.fromEntries(Object.entries(PUBLISHED_SCHEMAS).map(([file, schema]) => [file.replace(/\.schema\.json$/, ''), schema])),
  fleet: FLEET_FILE_SCHEMA,
  results: RESULTS_SCHEMA,
  manifest: MANIFEST_SCHEMA,
  partial: PARTIAL_SCHEMA,
  nightly: NIGHTLY_SCHEMA,
};
