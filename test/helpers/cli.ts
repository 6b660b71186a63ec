// Runs the built jwsim command (npm test builds first) and captures what it prints.
import { spawnSync } from 'node:child_process';
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
