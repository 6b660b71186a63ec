// The report of a run folder: files, escaping, a clear error for unfinished folders, and a
// real browser opening index.html (Debian's chromium; .ci/run installs it when absent).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { renderReport } from '../../src/report/report.js';
import { manifest, resultsCsv, resultsJson, writeAtomically } from '../../src/report/runOutput.js';
import { loadBatch } from '../../src/scenarios/batch.js';
import { runBatch } from '../../src/sim/runner.js';

const SMALL = fileURLToPath(new URL('../fixtures/batches/small.json', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = mkdtempSync(join(tmpdir(), 'jwsim-report-'));
const run = join(root, 'run');
let index = '';

beforeAll(async () => {
  const batch = loadBatch(SMALL);
  const r = await runBatch(batch, { threads: 0, shard: null, checkpoint: null });
  writeAtomically(run, []);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(run, { recursive: true });
  writeAtomically(run, [
    ['results.csv', resultsCsv(batch, r.slots)],
    ['results.json', resultsJson(batch, r.slots)],
    ['manifest.json', manifest(batch, r.slots, { threads: 0, shard: null, wallSeconds: 1, commandLine: ['run'], resumed: false })],
  ]);
  index = await renderReport(run);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('jwsim report', () => {
  it('writes index.html and, per chart, the Vega-Lite spec, SVG and PNG', () => {
    expect(index).toBe(join(run, 'index.html'));
    const html = readFileSync(index, 'utf8');
    for (const id of ['matchups-v1.2.1', 'efficiency-v1.2.2', 'attacks-v1.2.2', 'time-to-kill-v1.2.1', 'compare-v1.2.2']) {
      for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(run, 'charts', `${id}.${ext}`)), `${id}.${ext}`).toBe(true);
      expect(html).toContain(`data-chart="${id}"`);
    }
    expect(html).toContain('placeholder values'); // the sample roster is mostly placeholders
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="https?:/); // nothing from the network
  });

  it('a folder without a manifest is a clear error', async () => {
    const dir = join(root, 'unfinished');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    writeFileSync(join(dir, 'checkpoint.jsonl'), '{}\n');
    await expect(renderReport(dir)).rejects.toThrow(UserError);
    await expect(renderReport(dir)).rejects.toThrow(/not a finished run folder \(no manifest\.json\).*--resume/);
    await expect(renderReport(join(root, 'nope'))).rejects.toThrow(/no such run folder/);
  });

  it('opens in headless Chromium: every chart rendered, no console errors, tables sort', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`).toBe(true);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(index).href);
      const charts = await page.$$eval('div.chart', (divs) =>
        divs.map((d) => {
          const svg = d.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          return { id: d.getAttribute('data-chart'), width: box?.width ?? 0, height: box?.height ?? 0, marks: svg?.querySelectorAll('path, rect, text').length ?? 0 };
        }),
      );
      expect(charts.length).toBeGreaterThanOrEqual(9);
      for (const c of charts) {
        expect(c.width, String(c.id)).toBeGreaterThan(50);
        expect(c.height, String(c.id)).toBeGreaterThan(50);
        expect(c.marks, String(c.id)).toBeGreaterThan(10);
      }
      // Click the "value" header of the engagements table twice: rows sort ascending, then descending.
      const values = () => page.$$eval('#results table tbody tr td:nth-child(4)', (tds) => tds.map((td) => Number(td.textContent)));
      await page.click('#results table th:nth-child(4)');
      const up = await values();
      expect(up).toEqual([...up].sort((a, b) => a - b));
      await page.click('#results table th:nth-child(4)');
      const down = await values();
      expect(down).toEqual([...down].sort((a, b) => b - a));
      expect(down.length).toBeGreaterThan(5);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
