// README.md's table of interpretation options lists every option with its default, its
// alternatives and every rules gap it settles, as src/rules/interpretations.ts has them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INTERPRETATIONS } from '../../src/rules/interpretations.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** The table's rows: option name -> its cells. */
function rows(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of README.split('\n')) {
    const m = /^\| `([a-z0-9_]+)` \|(.*)\|$/.exec(line);
    if (m) out.set(m[1], m[2].split(' | ').map((c) => c.trim()));
  }
  return out;
}

/** The gap ids a row's text names; "AMB-04/11" stands for AMB-04 and AMB-11. */
function idsIn(text: string): Set<string> {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\(([^()]*)\)\s*(?:;|$)/g)) {
    for (const part of m[1].split(',').map((x) => x.trim())) {
      const short = /^([A-Z]+-)(\d+(?:\/\d+)+)$/.exec(part);
      if (short) for (const n of short[2].split('/')) ids.add(short[1] + n);
      else ids.add(part);
    }
  }
  return ids;
}

describe('the interpretation options table in README.md', () => {
  const table = rows();
  it('has a row for every option and no other', () => {
    expect([...table.keys()].sort()).toEqual(INTERPRETATIONS.map((o) => o.name).sort());
  });
  for (const o of INTERPRETATIONS) {
    it(`${o.name}: default, alternatives and the gaps it settles`, () => {
      const [def, alternatives, settles] = table.get(o.name) ?? [];
      expect(def).toBe(o.default);
      expect(alternatives.split(', ').sort()).toEqual(o.values.filter((v) => v !== o.default).sort());
      expect([...idsIn(settles)].sort()).toEqual([...o.ids].sort());
    });
  }
});
