// Output piped into a reader that stops early (`jwsim rules --json | head -c 10`): jwsim stops
// quietly with its own exit status instead of dying on EPIPE with a stack trace. Output that
// cannot be written at all (a full disk) is one line and exit code 74.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/jwsim.js', import.meta.url));

describe('jwsim with a closed output pipe', () => {
  it('exits 0 without a stack trace when its reader has gone', async () => {
    const child = spawn(process.execPath, [BIN, 'rules', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader goes away before jwsim writes anything
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(status).toBe(0);
  });

  it.skipIf(!existsSync('/dev/full'))('a full disk under stdout: one line, exit 74, no stack trace', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'rules', '--json'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(74);
      expect(r.stderr).toBe('jwsim: error: the output could not be written: ENOSPC: no space left on device, write\n');
    } finally {
      closeSync(full);
    }
  });
});
