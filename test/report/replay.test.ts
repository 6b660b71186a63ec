// The --replay picture of one battle: well-formed SVG, one track per model, one line per
// attack, an X per destroyed model, escaped text, identical output for the same trace; and
// the CLI option (format from the extension, bad extension refused before anything is written).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameResult, Trace } from '../../src/engine/battle/game.js';
import { renderReplayHtml, renderReplaySvg, replayFormat, replayModels, type ReplayInput } from '../../src/report/replay.js';
import { compileRules } from '../../src/rules/compile.js';
import { DEFAULT_INTERPRETATIONS } from '../../src/rules/interpretations.js';
import { getRulesVersion } from '../../src/rules/registry.js';
import { loadScenario } from '../../src/scenarios/scenario.js';
import { traceGame } from '../../src/sim/battles.js';
import { jwsim } from '../helpers/cli.js';
import { checkXml } from '../helpers/xml.js';

const STANDARD = 'scenarios/battles/standard-engagement.json';


const count = (s: string, needle: string) => s.split(needle).length - 1;

function standardGame(): { input: ReplayInput; trace: Trace; result: GameResult } {
  const rules = compileRules(getRulesVersion('1.2.2'), DEFAULT_INTERPRETATIONS);
  const scenario = loadScenario(STANDARD, { rulesVersion: '1.2.2', allowInvalidFleets: false });
  const g = traceGame(rules, scenario, 'replay', 0, false);
  return { input: { scenario, seed: 'replay', game: 0, models: replayModels(g.battle), trace: g.trace, result: g.result, fates: g.fates }, trace: g.trace, result: g.result };
}

describe('renderReplaySvg', () => {
  const { input, trace } = standardGame();
  const svg = renderReplaySvg(input);

  it('a narrow table does not clip the text above and below it: the canvas is as wide as its longest line needs', () => {
    const narrow = { ...input, scenario: { ...input.scenario, table: { width: 20, height: 54 } } };
    const out = renderReplaySvg(narrow);
    const width = Number(/^<svg [^>]*width="([\d.]+)"/.exec(out)![1]);
    expect(20 * 12 + 2 * 90).toBeLessThan(500); // what the table alone would give
    const legend = /<g class="legend"[^>]*>\n<text[^>]*>([^<]*)<\/text>/.exec(out)![1];
    expect(width).toBeGreaterThanOrEqual(90 + legend.replace(/&[a-z#0-9]+;/g, 'x').length * 5.6);
    // A wide table keeps its own width.
    const wide = renderReplaySvg({ ...input, scenario: { ...input.scenario, table: { width: 96, height: 48 } } });
    expect(Number(/^<svg [^>]*width="([\d.]+)"/.exec(wide)![1])).toBe(96 * 12 + 2 * 90);
  });

  it('is well-formed XML with a single <svg> root', () => {
    expect(checkXml(svg)).toEqual([]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/<script|href=|url\(|@import/);
  });

  it('has one track per deployed model, one line per attack and an X per destroyed model', () => {
    const deployed = new Set(trace.deployments.filter((d) => Number.isFinite(d.x)).map((d) => d.model));
    expect(deployed.size).toBe(input.models.length); // every model of this scenario reaches the table
    expect(count(svg, '<path ')).toBe(input.models.length);
    expect(count(svg, '<path class="track ')).toBe(input.models.length);
    const attacks = trace.activations.reduce((s, a) => s + a.attacks.length, 0);
    expect(attacks).toBeGreaterThan(0);
    expect(count(svg, '<line class="attack ')).toBe(attacks);
    const destroyed = input.fates.filter((f) => f.fate === 'destroyed').length;
    expect(destroyed).toBeGreaterThan(0);
    expect(count(svg, '<g class="x-mark"')).toBe(destroyed);
    const withdrawn = input.fates.filter((f) => f.fate === 'withdrawn').length;
    expect(count(svg, '<g class="withdrawn"')).toBe(withdrawn);
    const onTable = input.fates.filter((f) => f.fate === 'intact' || f.fate === 'crippled').length;
    expect(count(svg, 'class="base ')).toBe(onTable);
  });

  it('shows the scenario, seed, game, scores and end reason', () => {
    const r = input.result;
    expect(svg).toContain('standard-engagement: seed replay, game 0');
    expect(svg).toContain(`OP A ${r.op[0]} : B ${r.op[1]}`);
    expect(svg).toContain(`VP A ${r.vp[0]} : B ${r.vp[1]}`);
    // This game ends early; the reason names the turn.
    expect(r.endedEarly).toBe(true);
    expect(svg).toContain(`ended early: ${r.endReason}`);
    expect(r.endReason).toContain(`(turn ${r.turns})`);
    expect(svg).toContain('y = 0 is the bottom edge');
  });

  it('is identical on a second render and for a second traced run of the same game', () => {
    expect(renderReplaySvg(input)).toBe(svg);
    expect(renderReplaySvg(standardGame().input)).toBe(svg);
  });

  it('the HTML page holds the same SVG and a row per model', () => {
    const html = renderReplayHtml(input);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(svg.trimEnd());
    expect(count(html, '<tr class="fleet-')).toBe(input.fates.length);
    expect(html).not.toMatch(/<script|<link|src=/);
  });
});

describe('escaping', () => {
  const nasty = 'A1 <b>&"evil\'</b>';
  const trace: Trace = {
    initiative: 'A (<fleet> & co)',
    beacons: [{ side: 'B', x: 10, y: 30 }],
    deployments: [
      { turn: 1, model: nasty, x: 5, y: 2, heading: 0 },
      { turn: 1, model: 'B1 x.y', x: 5, y: 20, heading: 180 },
    ],
    activations: [
      {
        turn: 1,
        model: nasty,
        action: 'none',
        before: { x: 5, y: 2, heading: 0 },
        after: { x: 5, y: 8, heading: 0 },
        fired: 'after-move',
        attacks: [{ attacker: nasty, window: 0, weapon: 'gun <&>', target: 'B1 x.y', range: 11, band: 'short', aspect: 'front', results: '[D+]', structureDamage: 6, targetAfter: 'destroyed' }],
        notes: [],
      },
    ],
    endPhases: [],
  };
  const result: GameResult = { op: [0, 0], vp: [3, 0], survivingTv: [3, 0], winner: 0, turns: 1, activations: 1, initiative: 0, endReason: 'a <reason> & more', endedEarly: true };
  const input: ReplayInput = {
    scenario: {
      id: 'id<&>',
      table: { width: 24, height: 24 },
      zone: 'beacon',
      stripDepth: 6,
      objectives: [{ id: 'obj"<&>', x: 12, y: 12, radius: 3, points: 1, fromTurn: 1 }],
      sides: [{ name: 'Side <A>' }, { name: "B's & <b>" }],
    },
    seed: 's<&>',
    game: 0,
    models: [
      { label: nasty, fleet: 0, shape: 'rect', length: 2, width: 1.5 },
      { label: 'B1 x.y', fleet: 1, shape: 'hex', length: 1, width: 1 },
    ],
    trace,
    result,
    fates: [
      { model: nasty, fleet: 'a', tv: 3, fate: 'intact', structure: 4, damage_dealt: 6 },
      { model: 'B1 x.y', fleet: 'b', tv: 2, fate: 'destroyed', structure: 0, damage_dealt: 0 },
    ],
  };

  it('escapes labels, names and ids from user files in SVG and HTML', () => {
    const svg = renderReplaySvg(input);
    expect(checkXml(svg)).toEqual([]);
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<&>');
    expect(svg).toContain('A1 &lt;b&gt;&amp;&quot;evil&#39;&lt;/b&gt;');
    expect(svg).toContain('id&lt;&amp;&gt;');
    expect(svg).toContain('gun &lt;&amp;&gt;');
    expect(count(svg, '<line class="attack kill"')).toBe(1);
    expect(count(svg, '<g class="x-mark"')).toBe(1);
    expect(count(svg, '<circle class="zone beacon fleet-b"')).toBe(1);
    const html = renderReplayHtml(input);
    expect(html).not.toContain('<b>');
    expect(checkXml(html.replace('<!DOCTYPE html>', '').replace('<meta charset="utf-8">', ''))).toEqual([]);
  });

  it('the checker itself catches broken markup', () => {
    expect(checkXml('<svg><g></svg>')).not.toEqual([]);
    expect(checkXml('<svg><text>a < b</text></svg>')).not.toEqual([]);
    expect(checkXml('<svg><text>a & b</text></svg>')).not.toEqual([]);
    expect(checkXml('<svg><text x="1">a &amp; b</text></svg>')).toEqual([]);
  });
});

describe('jwsim battle --replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jwsim-replay-'));

  it('picks the format from the extension', () => {
    expect(replayFormat('a/b.SVG')).toBe('svg');
    expect(replayFormat('x.html')).toBe('html');
    expect(replayFormat('x.png')).toBeNull();
    expect(replayFormat('svg')).toBeNull();
  });

  it('writes an SVG, and with --trace the same game', () => {
    const svg = join(dir, 'game.svg');
    const trace = join(dir, 'game.json');
    const r = jwsim('battle', '--scenario', STANDARD, '--seed', '4', '--game', '2', '--replay', svg, '--trace', trace);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`replay written to ${svg}`);
    expect(r.stdout).toContain(`trace written to ${trace}`);
    const text = readFileSync(svg, 'utf8');
    expect(checkXml(text)).toEqual([]);
    expect(text).toContain('standard-engagement: seed 4, game 2');
    const t = JSON.parse(readFileSync(trace, 'utf8'));
    const attacks = t.activations.reduce((s: number, a: { attacks: unknown[] }) => s + a.attacks.length, 0);
    expect(count(text, '<line class="attack ')).toBe(attacks);
    expect(text).toContain(`OP A ${t.result.op[0]} : B ${t.result.op[1]}`);
  }, 30_000);

  it('writes an HTML page', () => {
    const html = join(dir, 'game.html');
    const r = jwsim('battle', '--scenario', STANDARD, '--seed', '4', '--replay', html);
    expect(r.status).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(text).toContain('<table class="fates">');
  }, 30_000);

  it('refuses other extensions before writing anything, and names an unwritable path', () => {
    const png = join(dir, 'game.png');
    const trace = join(dir, 'not-written.json');
    const r = jwsim('battle', '--scenario', STANDARD, '--replay', png, '--trace', trace);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--replay');
    expect(r.stderr).toContain('.svg');
    expect(r.stderr).toContain('.html');
    expect(r.stdout).toBe('');
    expect(existsSync(png)).toBe(false);
    expect(existsSync(trace)).toBe(false);

    const bad = jwsim('battle', '--scenario', STANDARD, '--replay', join(dir, 'no', 'such', 'dir', 'game.svg'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--replay');
    expect(bad.stdout).toBe('');
  }, 30_000);
});
