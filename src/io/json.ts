// Reading user JSON files and turning schema violations into messages a designer can act
// on: file, JSON path, what is wrong, what is allowed. Nothing from a file is evaluated.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from 'ajv';
import { UserError } from '../errors.js';
import { findJsonError, lineColumn } from './jsonSyntax.js';
import { editDistance, listInWords } from '../words.js';

/** Files larger than this are refused before parsing (no user file needs more). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Parses a JSON file; a missing, unreadable, oversized or malformed file is a UserError. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > MAX_INPUT_BYTES) throw new UserError(`${file}: file is ${size} bytes; at most ${MAX_INPUT_BYTES} are accepted`);
    text = readBounded(file);
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read file${code === 'ENOENT' ? ' (no such file)' : code === 'EISDIR' ? ' (it is a folder)' : code ? ` (${code})` : ''}`);
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Our own scan first: it locates errors (Node's messages vary) and bounds the nesting depth.
  const syntax = findJsonError(body);
  if (syntax) {
    const { line, column } = lineColumn(body, syntax.offset);
    throw new UserError(`${file}: not valid JSON at line ${line}, column ${column}: ${syntax.reason}`);
  }
  try {
    return JSON.parse(body, internStrings);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * JSON.parse's reviver for readJsonFile: each string value comes back as the engine's single
 * stored copy of that text (a property name's), so that comparisons of such strings with
 * string literals (a weapon's class, a unit's type, a deployment zone) are compiled as
 * pointer comparisons instead of calls that compare the characters.
 */
function internStrings(_key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  internBox[value] = 0;
  const k = Object.keys(internBox)[0];
  delete internBox[value];
  return k;
}
/** internStrings' one-key scratch object; without a prototype, so that "__proto__" is a key like any other. */
const internBox: Record<string, number> = Object.create(null) as Record<string, number>;

/**
 * The file's text, read at most MAX_INPUT_BYTES + 1 bytes far: a device or pipe (whose size
 * `stat` gives as 0, /dev/zero say) cannot make jwsim read without end.
 */
function readBounded(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, MAX_INPUT_BYTES + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > MAX_INPUT_BYTES) throw new UserError(`${file}: more than ${MAX_INPUT_BYTES} bytes; at most ${MAX_INPUT_BYTES} are accepted`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** How every schema is compiled, at build time (src/schemas/precompile.ts) or on first use. */
export const AJV_OPTIONS = { allErrors: true, strict: false, useDefaults: false } as const;

let ajvVersion: string | undefined;

/**
 * A schema's identity for the validators compiled at build time: a hash of its JSON, the
 * compile options and the installed ajv's version, so a validator built with other options
 * or another ajv never matches.
 */
export function schemaKey(schema: object): string {
  ajvVersion ??= (createRequire(import.meta.url)('ajv/package.json') as { version: string }).version;
  return createHash('sha256').update(JSON.stringify([ajvVersion, AJV_OPTIONS, schema])).digest('hex').slice(0, 16);
}

/** File the build writes beside this module (validators by schemaKey); absent when running the sources. */
export const PRECOMPILED_FILE = 'validators.cjs';
let precompiled: Record<string, ValidateFunction> | null | undefined;

/**
 * The build's validator for `schema`, or undefined. Compiling a schema costs ~0.1 s, paid
 * by every command and every worker that reads a file; the build's copy costs a hash. A
 * schema changed since the build has another key, and a file that will not load (a build
 * cut short) counts as absent: either way the schema is compiled here as before.
 */
export function builtValidator(schema: object): ValidateFunction | undefined {
  if (precompiled === undefined) {
    precompiled = null;
    if (existsSync(new URL(PRECOMPILED_FILE, import.meta.url))) {
      try {
        precompiled = createRequire(import.meta.url)(`./${PRECOMPILED_FILE}`) as Record<string, ValidateFunction>;
      } catch {
        // compiled on first use instead
      }
    }
  }
  const v = precompiled?.[schemaKey(schema)];
  return typeof v === 'function' ? v : undefined;
}

// Loaded on first use, and only for a schema the build did not compile.
let ajv: AjvType | null = null;
function validator(): AjvType {
  if (!ajv) {
    const { Ajv } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
    ajv = new Ajv(AJV_OPTIONS);
  }
  return ajv;
}
const compiled = new WeakMap<object, ValidateFunction>();

/** "/units/3/arcs/1" -> "units[3].arcs[1]" */
export function jsonPath(instancePath: string): string {
  if (!instancePath) return '(top level)';
  return instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function show(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** The value an error is about. */
function valueAt(e: ErrorObject, data: unknown): unknown {
  return e.instancePath.split('/').slice(1).reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), data);
}

function describe(e: ErrorObject, data: unknown, schema: object): string | null {
  const value = valueAt(e, data);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'if':
      return null; // the failing branch reports the real problem
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const list = `${show(value)} is not one of ${allowed.map((v) => (typeof v === 'string' ? v : show(v))).join(', ')}`;
      // The command line takes option values in any case (--rule x=count); a file must match the schema.
      const spelled = typeof value === 'string' ? allowed.find((v) => typeof v === 'string' && v.toLowerCase() === value.toLowerCase()) : undefined;
      return spelled === undefined ? list : `${list} (the case matters in files: write ${show(spelled)})`;
    }
    case 'const':
      return `${show(value)} must be ${show(p.allowedValue)}`;
    case 'required':
      return `missing required field "${p.missingProperty}"`;
    case 'additionalProperties':
      return unknownField(String(p.additionalProperty), schema, e.schemaPath);
    case 'type':
      return `${show(value)} must be ${String(p.type).replace(',', ' or ')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${show(value)} ${e.message}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `${show(value)} must have at least ${p.limit} characters`;
    case 'pattern':
      return `${show(value)} ${patternInWords(String(p.pattern)) ?? `does not match the pattern ${p.pattern}`}`;
    case 'uniqueItems':
      return `items ${p.j} and ${p.i} are the same`;
    case 'maxItems':
    case 'minItems':
      // The list itself is not repeated: it can be long.
      return `has ${Array.isArray(value) ? value.length : '?'} items; allowed: ${e.keyword === 'maxItems' ? 'at most' : 'at least'} ${String(p.limit)}`;
    case 'propertyNames':
      return `the field name ${show(p.propertyName)} is not allowed`;
    default:
      return `${show(value)} ${e.message ?? 'is not allowed'}`;
  }
}

/**
 * "unknown field" with the fields allowed at that place (the `properties` of the schema object
 * that holds the failing additionalProperties), and the nearest of them when the name looks
 * like a misspelling of one (a different case, or at most two edits away).
 */
function unknownField(name: string, schema: object, schemaPath: string): string {
  const parent = schemaPath
    .replace(/^#\//, '')
    .split('/')
    .slice(0, -1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), schema);
  const props = parent && typeof parent === 'object' ? (parent as { properties?: unknown }).properties : undefined;
  const allowed = props && typeof props === 'object' ? Object.keys(props) : [];
  if (!allowed.length) return `unknown field "${name}"`;
  let near: string | undefined = allowed.find((a) => a.toLowerCase() === name.toLowerCase());
  if (!near) {
    let best = 3;
    for (const a of allowed) {
      const d = editDistance(name.toLowerCase(), a.toLowerCase());
      if (d < best && d < a.length) [best, near] = [d, a];
    }
  }
  return `unknown field "${name}"${near ? ` (did you mean "${near}"?)` : ''}; allowed here: ${allowed.join(', ')}`;
}

/**
 * Numbers JSON.parse turned into Infinity (a literal such as 1e400): a schema's number type
 * lets them through and its messages would print them as null.
 */
export function nonFinite(data: unknown, file: string, at = ''): string[] {
  if (typeof data === 'number') return Number.isFinite(data) ? [] : [`${file}: ${jsonPath(at)}: the number is too large (beyond the range of a double)`];
  if (!data || typeof data !== 'object') return [];
  const entries = Array.isArray(data) ? data.map((v, i) => [String(i), v] as const) : Object.entries(data);
  return entries.flatMap(([k, v]) => nonFinite(v, file, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

/** What each kind of jwsim file is, by the word of its format ("jwsim-WORD/N"), for naming a file given in the wrong place. */
const FILE_KINDS: Readonly<Record<string, string>> = {
  batch: 'a batch file',
  scenario: 'a battle scenario',
  units: 'a unit card file',
  overlay: 'a rules overlay',
  results: "a run folder's results.json",
  manifest: "a run folder's manifest.json",
  partial: "a shard's partial.json",
  comparison: "jwsim compare's comparison.json",
};

/**
 * One line when `data` is some other kind of jwsim file than the schema's (its "format" names
 * another kind): the schema's many problems would bury the real one.
 */
function otherKindOfFile(schema: object, data: unknown, file: string): string | null {
  const wanted = (schema as { properties?: { format?: { const?: unknown } } }).properties?.format?.const;
  const given = data && typeof data === 'object' ? (data as { format?: unknown }).format : undefined;
  const kindOf = (f: unknown) => (typeof f === 'string' ? /^jwsim-([a-z]+)\/\d+$/.exec(f)?.[1] : undefined);
  const w = kindOf(wanted), g = kindOf(given);
  if (!w || !g || w === g || !FILE_KINDS[g] || !FILE_KINDS[w]) return null;
  return `${file}: format: "${given as string}" makes this ${FILE_KINDS[g]}, but ${FILE_KINDS[w]} ("${wanted as string}") is wanted here`;
}

/** Every schema problem of `data` as "FILE: PATH: message" lines (empty when valid); numbers too large for a double come first, alone, then a file of another kind. */
export function schemaProblems(schema: object, data: unknown, file: string): string[] {
  const infinite = nonFinite(data, file);
  if (infinite.length) return infinite;
  const mixedUp = otherKindOfFile(schema, data, file);
  if (mixedUp) return [mixedUp];
  let validate = compiled.get(schema);
  if (!validate) {
    validate = builtValidator(schema) ?? validator().compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(data)) return [];
  const out = new Set<string>();
  const errors = validate.errors ?? [];
  // Errors at one JSON path, so the scans below stay linear in a file with many problems.
  const atPath = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = atPath.get(e.instancePath);
    if (list) list.push(e);
    else atPath.set(e.instancePath, [e]);
  }
  const within = (a: ErrorObject) => atPath.get(a.instancePath)!.filter((e) => e !== a && e.schemaPath.startsWith(a.schemaPath + '/'));
  // An anyOf that failed reports every branch; say it once ("must be integer or null"). A bad
  // field name is reported by propertyNames; the pattern inside it would repeat it.
  const folded = new Set<ErrorObject>();
  const merged = new Map<ErrorObject, string>();
  for (const a of errors) {
    if (a.keyword === 'propertyNames') {
      for (const e of within(a)) folded.add(e);
      continue;
    }
    if (a.keyword !== 'anyOf') continue;
    const inside = within(a);
    if (!inside.length) continue;
    for (const e of inside) folded.add(e);
    // Branches of the value's own kind say what is wrong with it; if none is of its kind, say
    // which kinds are allowed.
    const branchOf = (e: ErrorObject) => e.schemaPath.slice(a.schemaPath.length + 1).split('/')[0];
    const wrongKind = new Set(inside.filter((e) => e.keyword === 'type' || e.keyword === 'const').map(branchOf));
    const relevant = inside.filter((e) => !wrongKind.has(branchOf(e))).map((e) => describe(e, data, schema)).filter((m): m is string => m !== null);
    const kinds = inside.map((e) => (e.keyword === 'type' ? String((e.params as { type: string }).type).replace(',', ' or ') : e.keyword === 'const' ? show((e.params as { allowedValue: unknown }).allowedValue) : null)).filter((k): k is string => k !== null);
    merged.set(a, relevant.length ? relevant.join('; ') : `${show(valueAt(a, data))} must be ${kinds.join(' or ')}`);
  }
  for (const e of errors) {
    if (folded.has(e)) continue;
    const msg = merged.get(e) ?? describe(e, data, schema);
    if (msg === null) continue;
    out.add(`${file}: ${jsonPath(e.instancePath)}: ${msg}`);
  }
  return [...out];
}

/** A JSON object (not an array, not null), for reading a file that failed its schema check. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws one UserError listing the problems, if there are any: at most the first `shown`. */
export function failOnProblems(what: string, problems: readonly string[], shown = 100): void {
  if (problems.length === 1) throw new UserError(problems[0]);
  if (problems.length > shown) throw new UserError(`${what}: ${problems.length} problems (the first ${shown} below)`, problems.slice(0, shown));
  if (problems.length) throw new UserError(`${what}: ${problems.length} problems`, problems);
}

/**
 * A character class of a schema pattern in words: "A-Za-z0-9._-" gives "letters, digits, '.',
 * '_' or '-'"; `one`: for a single character ("a letter or a digit").
 */
function classInWords(cls: string, one = false): string {
  const words: string[] = [];
  let rest = cls;
  const take = (ranges: string[], many: string, single: string) => {
    if (!ranges.every((r) => rest.includes(r))) return;
    for (const r of ranges) rest = rest.replace(r, '');
    words.push(one ? single : many);
  };
  take(['A-Z', 'a-z'], 'letters', 'a letter');
  take(['a-z'], 'lower-case letters', 'a lower-case letter');
  take(['A-Z'], 'capital letters', 'a capital letter');
  take(['0-9'], 'digits', 'a digit');
  for (const ch of rest) words.push(`'${ch}'`);
  return listInWords(words, 'or');
}

/** The identifier patterns the schemas use, said in words ("must be 1 to 64 ..."); null for any other pattern. */
export function patternInWords(pattern: string): string | null {
  const led = /^\^\[([^\]]+)\]\[([^\]]+)\]\{0,(\d+)\}\$$/.exec(pattern);
  if (led) return `must be 1 to ${Number(led[3]) + 1} characters (${classInWords(led[2])}), starting with ${classInWords(led[1], true)}`;
  const plain = /^\^\[([^\]]+)\]\{1,(\d+)\}\$$/.exec(pattern);
  if (plain) return `must be 1 to ${plain[2]} characters (${classInWords(plain[1])})`;
  return null;
}
