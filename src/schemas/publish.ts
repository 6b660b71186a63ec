// Writes the published JSON Schemas (scenarios/schemas/) from their definitions in src, so
// editors validate and complete user files. `npm run schemas`; a test checks they are current.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../paths.js';
import { PUBLISHED_SCHEMAS } from './index.js';

for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
  const file = join(projectRoot(), 'scenarios', 'schemas', name);
  writeFileSync(file, JSON.stringify(schema, null, 2) + '\n');
  console.log(`wrote ${file}`);
}
