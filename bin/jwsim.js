#!/usr/bin/env node
// Entry point of the jwsim command. The TypeScript sources are compiled to dist/ by
// `npm install` (the prepare script) or `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('jwsim: error: jwsim is not built yet; run "npm install" or "npm run build" in the jwsim folder\n');
  process.exit(2);
}
// Output piped into a command that stops reading early (`jwsim ... | head`): stop quietly.
// Any other failure to write stdout (a full disk, /dev/full): say so once, exit 74.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (stream === process.stdout) process.stderr.write(`jwsim: error: the output could not be written: ${err?.message ?? err}\n`);
    process.exit(74);
  });
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
