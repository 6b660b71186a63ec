// Compiles every schema of the catalog into one CommonJS module of validators beside
// src/io/json.ts in the build (dist/src/io/validators.cjs), keyed by schemaKey, so jwsim
// need not compile them at start-up. Run by `npm run build`, after tsc. The validators are
// ajv's own standalone code for the same options, so they report the same errors.
import { createRequire } from 'node:module';
import { renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvType } from 'ajv';
import { AJV_OPTIONS, PRECOMPILED_FILE, schemaKey } from '../io/json.js';
import { SCHEMA_CATALOG } from './catalog.js';

const require = createRequire(import.meta.url);
const { Ajv } = require('ajv') as typeof import('ajv');
const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: AjvType, validate: unknown) => string }).default;

const parts = ['"use strict";', '// Written by src/schemas/precompile.ts at build time; do not edit.'];
for (const [name, schema] of Object.entries(SCHEMA_CATALOG)) {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  // Each schema's module in a scope of its own: the generated names repeat across schemas.
  parts.push(`// ${name}`, `exports[${JSON.stringify(schemaKey(schema))}] = (function () {`, 'const module = { exports: {} };', code, 'return module.exports;', '})();');
}
// Written whole, then moved into place: a build cut short leaves the old file or none.
const out = fileURLToPath(new URL(`../io/${PRECOMPILED_FILE}`, import.meta.url));
writeFileSync(`${out}.tmp`, parts.join('\n') + '\n');
renameSync(`${out}.tmp`, out);
