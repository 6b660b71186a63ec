// Ctrl-C and SIGTERM. A command that keeps its finished work (jwsim run, with its checkpoint)
// listens for them itself while it runs; any other command, or any phase after that, is
// stopped here: what it had begun to write is removed, one line says what is left, and jwsim
// exits with 130 (README: exit codes).

const undo = new Set<() => void>();
let note = 'nothing was written: this command keeps no partial results, so run it again to get them';

/** What the interrupt message says from now on (a command past the point where it wrote its results). */
export function interruptNote(text: string): void {
  note = text;
}

/** Runs `fn` if jwsim is interrupted before the returned function is called (e.g. removing a half-built folder). */
export function undoOnInterrupt(fn: () => void): () => void {
  undo.add(fn);
  return () => undo.delete(fn);
}

let installed = false;

/** Installs the notice once per process. */
export function installInterruptNotice(): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) > 1) return; // the command's own handler saves and reports
      for (const fn of undo) {
        try {
          fn();
        } catch {
          // best effort: leaving is what matters now
        }
      }
      process.stderr.write(`jwsim: interrupted (${signal}); ${note}\n`);
      process.exit(130);
    });
  }
}
