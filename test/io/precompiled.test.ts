// The validators the build compiles ahead of time (src/schemas/precompile.ts) must be those of
// today's schemas and must report exactly what a validator compiled at run time reports.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AJV_OPTIONS, PRECOMPILED_FILE, readJsonFile, schemaKey } from '../../src/io/json.js';
import { projectRoot } from '../../src/paths.js';
import { SCHEMA_CATALOG } from '../../src/schemas/catalog.js';

const root = projectRoot();
const builtFile = join(root, 'dist', 'src', 'io', PRECOMPILED_FILE);
const scenarios = join(root, 'scenarios');
const jsonIn = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));

/** A small run and one shard of it, for run-folder files (results, manifest, partial). */
const runs = mkdtempSync(join(tmpdir(), 'jwsim-precompiled-'));
beforeAll(() => {
  const small = join(root, 'test', 'fixtures', 'batches', 'small.json');
  for (const [out, extra] of [['run', []], ['shard', ['--shard', '1/2']]] as const) {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'jwsim.js'), 'run', small, '--out', join(runs, out), '--no-report', ...extra], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }
});
afterAll(() => rmSync(runs, { recursive: true, force: true }));

/** Sample files of each kind (nightly: generated documents only). */
const SAMPLES: Record<string, string[]> = {
  units: [join(scenarios, 'units', 'sample-roster.json')],
  overlay: jsonIn(join(scenarios, 'overlays')),
  batch: [join(scenarios, 'nightly.json'), join(scenarios, 'battles.json')],
  scenario: jsonIn(join(scenarios, 'battles')),
  fleet: jsonIn(join(scenarios, 'battles', 'fleets')),
  results: [join(runs, 'run', 'results.json')],
  manifest: [join(runs, 'run', 'manifest.json'), join(runs, 'shard', 'manifest.json')],
  partial: [join(runs, 'shard', 'partial.json')],
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

  it('the built jwsim finds them (so commands skip compiling)', async () => {
    const dist = (f: string) => pathToFileURL(join(root, 'dist', 'src', f)).href;
    const json = (await import(dist('io/json.js'))) as typeof import('../../src/io/json.js');
    const catalog = (await import(dist('schemas/catalog.js'))) as typeof import('../../src/schemas/catalog.js');
    for (const [name, schema] of Object.entries(catalog.SCHEMA_CATALOG)) expect(typeof json.builtValidator(schema), name).toBe('function');
    // A schema the build never saw is compiled on first use.
    expect(json.builtValidator({ type: 'object', title: 'not in the catalog' })).toBeUndefined();
    expect(json.schemaProblems({ type: 'object', title: 'not in the catalog' }, 3, 'x.json')).toEqual(['x.json: (top level): 3 must be object']);
  });

  it('a validators file that will not load counts as absent: schemas are compiled on first use', () => {
    const copy = join(runs, 'broken-build');
    cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'dist', 'src', 'io', PRECOMPILED_FILE), 'exports["x"] = (function () { throw new Error("cut short"); })(\n');
    const script = `import { schemaProblems } from ${JSON.stringify(pathToFileURL(join(copy, 'dist', 'src', 'io', 'json.js')).href)};
      import { SCHEMA_CATALOG } from ${JSON.stringify(pathToFileURL(join(copy, 'dist', 'src', 'schemas', 'catalog.js')).href)};
      console.log(JSON.stringify(schemaProblems(SCHEMA_CATALOG.units, { format: 'jwsim-units/1' }, 'u.json')));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const problems = JSON.parse(r.stdout) as string[];
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('u.json: '))).toBe(true);
  });

  it.each(Object.keys(SCHEMA_CATALOG))('%s: the same errors as a validator compiled at run time', (name) => {
    const schema = SCHEMA_CATALOG[name];
    const built = (createRequire(import.meta.url)(builtFile) as Record<string, ValidateFunction>)[schemaKey(schema)];
    const fresh = new Ajv(AJV_OPTIONS).compile(schema);
    const docs: unknown[] = [{}, [], null, 'text', { format: 'jwsim-none/1' }];
    // The test unit files that parse (some break the schema on purpose).
    if (name === 'units') for (const file of jsonIn(join(root, 'test', 'fixtures', 'units')).filter((f) => !f.endsWith('malformed.json'))) docs.push(readJsonFile(file));
    const generated = docs.length;
    let broken = 0;
    let invalid = 0;
    for (const file of SAMPLES[name] ?? []) {
      const doc = readJsonFile(file);
      expect(fresh(doc), `${file} should be valid`).toBe(true);
      const copies = mutations(doc, 150);
      broken += copies.length;
      docs.push(doc, ...copies);
    }
    for (const [n, doc] of docs.entries()) {
      const a = built(doc);
      const b = fresh(doc);
      expect(a).toBe(b);
      expect(built.errors ?? null).toEqual(fresh.errors ?? null);
      if (!b && n >= generated) invalid++;
    }
    // Many broken copies must break the schema, or the comparison of errors says little (the
    // rest change a free-form field, e.g. in a manifest).
    if (SAMPLES[name]) expect(invalid).toBeGreaterThan(broken / 4);
  });
});
