// Ctrl-C or SIGTERM on a command that keeps no partial results (battle, costs, compare): one line on
// stderr saying nothing was written, exit 130, nothing on stdout. (jwsim run saves its chunks:
// test/cli/run.test.ts.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unmakeFolder } from '../../src/io/folders.js';
import { after, jwsimInterrupted } from '../helpers/cli.js';
import { describe, expect, it } from 'vitest';

const SCENARIO = fileURLToPath(new URL('../../scenarios/battles/standard-engagement.json', import.meta.url));

/** Runs jwsim, stopped by `signal` 3 s in: past start-up and into the work (each command here would run for minutes). */
const interrupted = (signal: NodeJS.Signals, args: string[]) => jwsimInterrupted(signal, after(3000), ...args);

describe('an interrupted command that keeps no partial results', () => {
  it('battle: Ctrl-C (SIGINT)', async () => {
    const r = await interrupted('SIGINT', ['battle', '--scenario', SCENARIO, '--trials', '1000000', '--threads', '1']);
    expect(r).toEqual({ code: 130, stdout: '', stderr: 'jwsim: interrupted (SIGINT); nothing was written: this command keeps no partial results, so run it again to get them\n' });
  }, 20_000);

  it('costs: SIGTERM', async () => {
    const r = await interrupted('SIGTERM', ['costs', '--trials', '10000000', '--threads', '1']);
    expect(r).toEqual({ code: 130, stdout: '', stderr: 'jwsim: interrupted (SIGTERM); nothing was written: this command keeps no partial results, so run it again to get them\n' });
  }, 20_000);
});

describe('compare: an interrupt or a failure leaves no output folder behind', () => {
  const root = mkdtempSync(join(tmpdir(), 'jwsim-interrupt-'));

  it('Ctrl-C during the comparison', async () => {
    const out = join(root, 'cmp');
    const r = await interrupted('SIGINT', ['compare', fileURLToPath(new URL('../../scenarios/nightly.json', import.meta.url)), '--out', out, '--threads', '1', '--min-trials', '10000000', '--max-trials', '10000000']);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/^jwsim: interrupted \(SIGINT\); nothing was written/);
    expect(existsSync(out)).toBe(false);
  }, 20_000);

  it('unmakeFolder removes a folder it made, and only the contents of one that was there', () => {
    const made = join(root, 'made');
    mkdirSync(join(made, 'charts'), { recursive: true });
    writeFileSync(join(made, 'charts', 'a.svg'), '<svg/>');
    unmakeFolder(made, false);
    expect(existsSync(made)).toBe(false);
    const given = join(root, 'given');
    mkdirSync(join(given, 'charts'), { recursive: true });
    writeFileSync(join(given, 'x.json'), '{}');
    unmakeFolder(given, true);
    expect(readdirSync(given)).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});
