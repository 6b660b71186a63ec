// scenarios/battles/README.md lists every policy parameter (name, default, range, meaning):
// the tables must say what PARAMS says, so the docs cannot drift from the code.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PARAMS } from '../../src/policies/index.js';

const README = readFileSync(fileURLToPath(new URL('../../scenarios/battles/README.md', import.meta.url)), 'utf8');

/** The rows of the table under "#### `policy`": parameter name to its cells. */
function table(policy: string): Map<string, string[]> {
  const start = README.indexOf(`#### \`${policy}\``);
  expect(start, `a table for ${policy}`).toBeGreaterThan(0);
  const rows = new Map<string, string[]>();
  for (const line of README.slice(start).split('\n').slice(1)) {
    if (line.startsWith('####') || line.startsWith('## ')) break;
    const m = /^\| `([a-z_]+)` \| (.*) \|$/.exec(line);
    if (m) rows.set(m[1], m[2].split(' | '));
  }
  return rows;
}

describe('policy parameter tables in scenarios/battles/README.md', () => {
  for (const [policy, specs] of Object.entries(PARAMS)) {
    it(`${policy}: every parameter with its default, range and meaning, and no other`, () => {
      const rows = table(policy);
      expect([...rows.keys()]).toEqual(Object.keys(specs));
      for (const [name, s] of Object.entries(specs)) {
        const allowed = s.integer ? (s.min === 0 && s.max === 1 ? '0 or 1' : `whole ${s.min}..${s.max}`) : `${s.min}..${s.max}`;
        expect(rows.get(name), name).toEqual([String(s.default), allowed, s.summary]);
      }
    });
  }
});
