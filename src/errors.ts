// Errors caused by what a user gave us (a file, a flag). The CLI prints the message and
// the details, never a stack trace, and exits with code 2.
export class UserError extends Error {
  constructor(
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}
