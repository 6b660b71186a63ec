// Runs the built jwsim command (npm test builds first) and captures what it prints.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/jwsim.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function jwsim(...args: string[]): CliResult {
  return jwsimWithEnv({}, ...args);
}

/** jwsim with these environment variables set as well. */
export function jwsimWithEnv(env: Record<string, string>, ...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts jwsim, sends `signal` once `ready()` holds (asked every 50 ms, for at most 10 s), and
 * returns its exit code and what it printed.
 */
export async function jwsimInterrupted(signal: NodeJS.Signals, ready: () => boolean, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 50));
  child.kill(signal);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { code, stdout, stderr };
}

/** For jwsimInterrupted: the run folder's checkpoint holds at least `lines` finished chunks. */
export const checkpointHas = (out: string, lines = 3) => () => {
  const file = join(out, 'checkpoint.jsonl');
  return existsSync(file) && readFileSync(file, 'utf8').trim().split('\n').length >= lines;
};

/** For jwsimInterrupted: `ms` milliseconds have passed since this was called. */
export const after = (ms: number) => {
  const t = Date.now();
  return () => Date.now() - t >= ms;
};

