// Sample games in the report: per battle and variant the run's game 0 is drawn into
// replays/ (SVG and HTML), linked and shown as a thumbnail in the Battles section, identical
// when the report is rebuilt; a battle whose scenario file is gone gets a note instead.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/report.js';
import { replayBattle } from '../../src/report/replayLinks.js';
import { readRunFolder } from '../../src/report/runFolder.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../../src/report/runOutput.js';
import { loadBatch } from '../../src/scenarios/batch.js';
import { runBatch } from '../../src/sim/runner.js';
import { checkXml } from '../helpers/xml.js';

const BATTLES = fileURLToPath(new URL('../../scenarios/battles/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jwsim-replay-links-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));


/** Runs a one-battle batch (one game, not mirrored) on `scenario` into DIR and returns DIR. */
async function runInto(name: string, scenario: string): Promise<string> {
  const file = join(root, `${name}.json`);
  writeFileSync(file, JSON.stringify({ format: 'jwsim-batch/1', seed: 'replay-links', experiments: [{ id: 'std', kind: 'battle', scenario, trials: 1, mirror: false }] }));
  const batch = loadBatch(file);
  const { slots } = await runBatch(batch, { threads: 0, shard: null, checkpoint: null });
  const dir = join(root, name);
  mkdirSync(dir);
  writeAtomically(dir, [
    ['results.csv', resultsCsv(batch, slots)],
    ['results.json', resultsJson(batch, slots)],
    ['manifest.json', manifest(batch, slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
  ]);
  return dir;
}

const battlesSection = (html: string) => {
  const at = html.indexOf('<section id="battles">');
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};

const STEM = 'std_standard-engagement-v1.2.2';
let dir = '';
let html = '';

beforeAll(async () => {
  dir = await runInto('run', join(BATTLES, 'standard-engagement.json'));
  html = readFileSync(await renderReport(dir), 'utf8');
}, 60_000);

describe('sample games in the report', () => {
  it('writes replays/<engagement>-<variant>.svg and .html, well-formed', () => {
    expect(readdirSync(join(dir, 'replays')).sort()).toEqual([`${STEM}.html`, `${STEM}.svg`]);
    const svg = readFileSync(join(dir, 'replays', `${STEM}.svg`), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(checkXml(svg)).toEqual([]);
    expect(svg).toContain('standard-engagement: seed replay-links, game 0');
    const page = readFileSync(join(dir, 'replays', `${STEM}.html`), 'utf8');
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain(svg.trimEnd());
    expect(checkXml(page.replace('<!DOCTYPE html>', '').replace('<meta charset="utf-8">', ''))).toEqual([]);
  });

  it('the Battles section links the page and shows the SVG as a thumbnail', () => {
    const section = battlesSection(html);
    expect(section).toContain(`<div class="part" id="battle-replay-${STEM}"><h3>Sample game: std/standard-engagement, v1.2.2</h3>`);
    expect(section).toContain(`<a href="replays/${STEM}.html"><img src="replays/${STEM}.svg"`);
    expect(section).toMatch(/<img [^>]*width="360" height="\d+">/);
    expect(section).not.toContain('No sample game');
    // The sample game comes before the battle's unit types.
    expect(section.indexOf(`battle-replay-${STEM}`)).toBeLessThan(section.indexOf(`battle-units-${STEM}`));
  });

  it('draws the game the run counted: its winner is the one in results.json', () => {
    const run = readRunFolder(dir);
    const e = run.results.experiments[0];
    expect(e.games).toBe(1);
    const { result, notes } = replayBattle(run, e);
    expect(notes).toEqual([]);
    expect(e.metrics.a_win_rate.value).toBe(result.winner === 0 ? 1 : 0);
    expect(e.metrics.b_win_rate.value).toBe(result.winner === 1 ? 1 : 0);
    expect(e.metrics.mean_turns.value).toBe(result.turns);
    expect(e.metrics.mean_vp_a.value).toBe(result.vp[0]);
  });

  it('rebuilding the report gives byte-identical replay files and index.html', async () => {
    const before = [`${STEM}.svg`, `${STEM}.html`].map((f) => readFileSync(join(dir, 'replays', f)));
    const again = readFileSync(await renderReport(dir), 'utf8');
    expect(again).toBe(html);
    [`${STEM}.svg`, `${STEM}.html`].forEach((f, i) => expect(readFileSync(join(dir, 'replays', f)).equals(before[i]), f).toBe(true));
  }, 60_000);

  it('a scenario file deleted after the run: the report still builds and says so where the picture would be', async () => {
    // A copy of the standard engagement, its unit list made absolute so it can live anywhere.
    const copy = join(root, 'gone-scenario.json');
    const data = JSON.parse(readFileSync(join(BATTLES, 'standard-engagement.json'), 'utf8')) as { units: string[] };
    data.units = data.units.map((u) => join(BATTLES, u));
    writeFileSync(copy, JSON.stringify(data));
    const gone = await runInto('gone', copy);
    unlinkSync(copy);
    const page = readFileSync(await renderReport(gone), 'utf8');
    const section = battlesSection(page);
    expect(section).toContain('<div class="warning">No sample game: the scenario file');
    expect(section).toContain('is missing (moved or deleted since the run).</div>');
    expect(section).not.toContain('<img ');
    expect(existsSync(join(gone, 'replays'))).toBe(false);
    // The rest of the Battles section is still there.
    expect(section).toContain('<h3>Unit types: std/standard-engagement, v1.2.2</h3>');
  }, 60_000);

  it('a scenario file edited after the run: the game is drawn with a note that it may not be the run\'s', async () => {
    const copy = join(root, 'edited-scenario.json');
    const data = JSON.parse(readFileSync(join(BATTLES, 'standard-engagement.json'), 'utf8')) as { units: string[] };
    data.units = data.units.map((u) => join(BATTLES, u));
    writeFileSync(copy, JSON.stringify(data));
    const edited = await runInto('edited', copy);
    writeFileSync(copy, JSON.stringify(data, null, 2)); // same scenario, other bytes
    const section = battlesSection(readFileSync(await renderReport(edited), 'utf8'));
    expect(section).toContain(`<div class="warning">This picture may not be the run&#39;s game: ${copy} changed since the run.</div>`);
    expect(section).toContain(`<img src="replays/${STEM}.svg"`);
  }, 60_000);
});
