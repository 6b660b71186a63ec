// Schema problems as designers read them: one line per problem, naming the field and what is allowed.
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../src/io/json.js';
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
});

describe('findJsonError', () => {
  it('refuses a key given twice in one object, at its second place; the same key in two objects is fine', () => {
    expect(findJsonError('{"a": 1, "b": {"a": 2}, "a": 3}')).toEqual({ offset: 24, reason: 'the key "a" appears twice in one object' });
    expect(findJsonError('{"a": {"x": 1}, "b": {"x": 2}}')).toBeNull();
    // Escapes name the same key.
    expect(findJsonError('{"a": 1, "\\u0061": 2}')?.reason).toBe('the key "a" appears twice in one object');
  });
});
