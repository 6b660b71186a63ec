// Schema problems as designers read them: one line per problem, naming the field and what is allowed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, failOnProblems, patternInWords, readJsonFile, schemaProblems } from '../../src/io/json.js';
import { UserError } from '../../src/errors.js';
import { findJsonError } from '../../src/io/jsonSyntax.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    op_at_least: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    params: { type: 'object', propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]*$' }, additionalProperties: { type: 'number' } },
  },
};

describe('schemaProblems', () => {
  it('an anyOf says once what each branch wants', () => {
    expect(schemaProblems(schema, { op_at_least: '3' }, 'f.json')).toEqual(['f.json: op_at_least: "3" must be integer or null']);
    // The branch of the value's own kind says what is wrong with it.
    expect(schemaProblems(schema, { op_at_least: 0 }, 'f.json')).toEqual(['f.json: op_at_least: 0 must be >= 1']);
    const list = { type: 'object', properties: { units: { anyOf: [{ const: 'all' }, { type: 'array', uniqueItems: true, items: { type: 'string' } }] } } };
    expect(schemaProblems(list, { units: ['a', 'a'] }, 'f.json')).toEqual(['f.json: units: items 1 and 0 are the same']);
    expect(schemaProblems(list, { units: 3 }, 'f.json')).toEqual(['f.json: units: 3 must be "all" or array']);
    expect(schemaProblems(schema, { op_at_least: null }, 'f.json')).toEqual([]);
  });

  it('a bad field name is named once', () => {
    expect(schemaProblems(schema, { params: { '1abc': 1 } }, 'f.json')).toEqual(['f.json: params: the field name "1abc" is not allowed']);
  });

  it('a number too large for a double is named as such, not as null', () => {
    const data = JSON.parse('{"op_at_least": 1e400, "params": {"x": -1e999}}');
    expect(schemaProblems(schema, data, 'f.json')).toEqual(['f.json: op_at_least: the number is too large (beyond the range of a double)', 'f.json: params.x: the number is too large (beyond the range of a double)']);
  });

  it('an unknown field lists the fields allowed there, and names a near one', () => {
    expect(schemaProblems(schema, { op_at_lest: 3 }, 'f.json')).toEqual(['f.json: (top level): unknown field "op_at_lest" (did you mean "op_at_least"?); allowed here: op_at_least, params']);
    expect(schemaProblems(schema, { Params: {} }, 'f.json')).toEqual(['f.json: (top level): unknown field "Params" (did you mean "params"?); allowed here: op_at_least, params']);
    // Nothing near: the list alone. Short names are not "near" a name they would have to become wholly.
    expect(schemaProblems(schema, { colour: 1, p: 2 }, 'f.json')).toEqual(['f.json: (top level): unknown field "colour"; allowed here: op_at_least, params', 'f.json: (top level): unknown field "p"; allowed here: op_at_least, params']);
    // Inside a conditional branch: the branch's own fields.
    const kinds = {
      type: 'object',
      properties: { kind: { enum: ['a', 'b'] } },
      allOf: [{ if: { properties: { kind: { const: 'a' } } }, then: { additionalProperties: false, properties: { kind: {}, range: {}, trials: {} } } }],
    };
    expect(schemaProblems(kinds, { kind: 'a', rnage: 3 }, 'f.json')).toEqual(['f.json: (top level): unknown field "rnage" (did you mean "range"?); allowed here: kind, range, trials']);
    // A field that no schema object lists (additionalProperties without properties): the plain message.
    expect(schemaProblems({ type: 'object', additionalProperties: false }, { x: 1 }, 'f.json')).toEqual(['f.json: (top level): unknown field "x"']);
  });

  it('thousands of problems: each distinct line once, in order', () => {
    const many = { type: 'array', items: schema };
    const data = Array.from({ length: 3000 }, () => ({ op_at_least: 'x', params: { '1a': 1 } }));
    const out = schemaProblems(many, data, 'f.json');
    expect(out.length).toBe(6000);
    expect(out.slice(0, 2)).toEqual(['f.json: [0].op_at_least: "x" must be integer or null', 'f.json: [0].params: the field name "1a" is not allowed']);
    expect(new Set(out).size).toBe(out.length);
  });
});

describe('patternInWords: the id patterns of the schemas in words', () => {
  it('says the length, the characters allowed and the first character', () => {
    expect(patternInWords('^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$')).toBe("must be 1 to 64 characters (letters, digits, '.', '_' or '-'), starting with a letter or a digit");
    expect(patternInWords('^[A-Za-z][A-Za-z0-9_]{0,63}$')).toBe("must be 1 to 64 characters (letters, digits or '_'), starting with a letter");
    expect(patternInWords('^[a-z0-9][a-z0-9._-]{0,63}$')).toBe("must be 1 to 64 characters (lower-case letters, digits, '.', '_' or '-'), starting with a lower-case letter or a digit");
    expect(patternInWords('^[A-Za-z0-9._-]{1,64}$')).toBe("must be 1 to 64 characters (letters, digits, '.', '_' or '-')");
    expect(patternInWords('^x+$')).toBeNull();
  });
  it('a schema problem uses the words', () => {
    const problems = schemaProblems({ type: 'object', properties: { id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' } } }, { id: 'my scenario' }, 'f.json');
    expect(problems).toEqual([`f.json: id: "my scenario" must be 1 to 64 characters (letters, digits, '.', '_' or '-'), starting with a letter or a digit`]);
  });
});

describe('failOnProblems', () => {
  it('lists at most the first 100 problems and says how many there are', () => {
    const problems = Array.from({ length: 250 }, (_, i) => `p${i}`);
    try {
      failOnProblems('f.json', problems);
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      expect((e as UserError).message).toBe('f.json: 250 problems (the first 100 below)');
      expect((e as UserError).details).toEqual(problems.slice(0, 100));
    }
    expect(() => failOnProblems('f.json', ['only'])).toThrow(/^only$/);
    expect(() => failOnProblems('f.json', [])).not.toThrow();
  });
});

describe('readJsonFile', () => {
  it('stops reading a device that never ends (stat gives it size 0)', () => {
    expect(() => readJsonFile('/dev/zero')).toThrow(`/dev/zero: more than ${MAX_INPUT_BYTES} bytes; at most ${MAX_INPUT_BYTES} are accepted`);
  });

  it('gives the values JSON.parse gives, strings that are special as property names included', () => {
    // readJsonFile hands each string back through a property name (internStrings): names that
    // mean something to objects, array indices and the empty string must come back unchanged.
    const text = JSON.stringify({ a: '__proto__', b: ['0', '12', '', 'constructor', 'toString', 'hasOwnProperty', 'x\u00e9\ud83d\ude80', ' 1'], c: JSON.parse('{"__proto__": "y"}'), d: [1.5, true, null] });
    const dir = mkdtempSync(join(tmpdir(), 'jwsim-json-'));
    try {
      const file = join(dir, 'strings.json');
      writeFileSync(file, text);
      const got = readJsonFile(file);
      expect(got).toEqual(JSON.parse(text));
      expect(JSON.stringify(got)).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('findJsonError', () => {
  it('refuses a key given twice in one object, at its second place; the same key in two objects is fine', () => {
    expect(findJsonError('{"a": 1, "b": {"a": 2}, "a": 3}')).toEqual({ offset: 24, reason: 'the key "a" appears twice in one object' });
    expect(findJsonError('{"a": {"x": 1}, "b": {"x": 2}}')).toBeNull();
    // Escapes name the same key.
    expect(findJsonError('{"a": 1, "\\u0061": 2}')?.reason).toBe('the key "a" appears twice in one object');
  });
});

describe('enum messages', () => {
  const options = { type: 'object', properties: { mode: { enum: ['LEVEL', 'COUNT'] }, aspect: { enum: ['front', 'side', 'rear'] } } };
  it('name the allowed values, and the right spelling when only the case is wrong', () => {
    expect(schemaProblems(options, { mode: 'count' }, 'o.json')).toEqual(['o.json: mode: "count" is not one of LEVEL, COUNT (the case matters in files: write "COUNT")']);
    expect(schemaProblems(options, { aspect: 'Side' }, 'o.json')).toEqual(['o.json: aspect: "Side" is not one of front, side, rear (the case matters in files: write "side")']);
    expect(schemaProblems(options, { mode: 'sum' }, 'o.json')).toEqual(['o.json: mode: "sum" is not one of LEVEL, COUNT']);
  });
});
