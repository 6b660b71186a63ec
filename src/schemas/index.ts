// Every JSON Schema jwsim publishes, by file name under scenarios/schemas/.
import { OVERLAY_SCHEMA } from '../rules/overlaySchema.js';
import { BATCH_SCHEMA } from '../scenarios/batchSchema.js';
import { SCENARIO_SCHEMA } from '../scenarios/scenarioSchema.js';
import { UNITS_SCHEMA } from '../units/schema.js';

export const PUBLISHED_SCHEMAS: Record<string, object> = {
  'units.schema.json': UNITS_SCHEMA,
  'overlay.schema.json': OVERLAY_SCHEMA,
  'batch.schema.json': BATCH_SCHEMA,
  'scenario.schema.json': SCENARIO_SCHEMA,
};
