// The validators the build compiles ahead of time (src/schemas/precompile.ts) must be those of
// today's schemas and must report exactly what a validator compiled at run time reports.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, PRECOMPILED_FILE, readJsonFile, schemaKey } from '../../src/io/json.js';
import { projectRoot } from '../../src/paths.js';
import { SCHEMA_CATALOG } from '../../src/schemas/catalog.js';

const root = projectRoot();
const builtFile = join(root, 'dist', 'src', 'io', PRECOMPILED_FILE);
const scenarios = join(root, 'scenarios');
const jsonIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));

/** Sample files of each kind the repository holds (kinds without samples get generated documents only). */
const SAMPLES: Record<string, string[]> = {
  units: [join(scenarios, 'units', 'sample-roster.json')],
  overlay: jsonIn(join(scenarios, 'overlays')),
  batch: [join(scenarios, 'nightly.json'), join(scenarios, 'battles.json')],
  scenario: jsonIn(join(scenarios, 'battles')),
  fleet: jsonIn(join(scenarios, 'battles', 'fleets')),
};

/** Copies of `doc` with one value replaced by a value of the wrong kind, at up to `max` places spread over the document. */
function mutations(doc: unknown, max: number): unknown[] {
  const paths: Array<Array<string | number>> = [];
  const walk = (v: unknown, path: Array<string | number>) => {
    paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(doc, []);
  const step = Math.max(1, Math.floor(paths.length / max));
  const out: unknown[] = [];
  for (let i = 0; i < paths.length; i += step) {
    const copy = structuredClone(doc) as Record<string | number, unknown>;
    const path = paths[i];
    if (path.length === 0) continue;
    let at: Record<string | number, unknown> = copy;
    for (const p of path.slice(0, -1)) at = at[p] as Record<string | number, unknown>;
    const last = path[path.length - 1];
    const old = at[last];
    at[last] = typeof old === 'number' ? 'x' : typeof old === 'string' ? 12345 : typeof old === 'boolean' ? null : Array.isArray(old) ? { a: 1 } : old === null ? [] : 7;
    out.push(copy);
  }
  return out;
}

describe('validators compiled at build time', () => {
  it('the build holds one for every schema of the catalog, as the schema is now', () => {
    expect(existsSync(builtFile), `${builtFile} is missing: run npm run build`).toBe(true);
    const built = createRequire(import.meta.url)(builtFile) as Record<string, ValidateFunction>;
    for (const [name, schema] of Object.entries(SCHEMA_CATALOG)) expect(typeof built[schemaKey(schema)], name).toBe('function');
  });

  it.each(Object.keys(SCHEMA_CATALOG))('%s: the same errors as a validator compiled at run time', (name) => {
    const schema = SCHEMA_CATALOG[name];
    const built = (createRequire(import.meta.url)(builtFile) as Record<string, ValidateFunction>)[schemaKey(schema)];
    const fresh = new Ajv(AJV_OPTIONS).compile(schema);
    const docs: unknown[] = [{}, [], null, 'text', { format: 'jwsim-none/1' }];
    for (const file of SAMPLES[name] ?? []) {
      const doc = readJsonFile(file);
      expect(fresh(doc), `${file} should be valid`).toBe(true);
      docs.push(doc, ...mutations(doc, 150));
    }
    // The test unit files that parse (some break the schema on purpose).
    if (name === 'units') for (const file of jsonIn(join(root, 'test', 'fixtures', 'units')).filter((f) => !f.endsWith('malformed.json'))) docs.push(readJsonFile(file));
    let invalid = 0;
    for (const doc of docs) {
      const a = built(doc);
      const b = fresh(doc);
      expect(a).toBe(b);
      expect(built.errors ?? null).toEqual(fresh.errors ?? null);
      if (!b) invalid++;
    }
    expect(invalid).toBeGreaterThanOrEqual(4);
  });
});
