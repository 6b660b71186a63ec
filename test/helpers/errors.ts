// Catching the UserError a call is expected to throw, so a test can assert on its message.
import { UserError } from '../../src/errors.js';

/** The UserError `fn` throws (fails the test when it throws nothing or something else). */
export function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError, nothing was thrown');
}
