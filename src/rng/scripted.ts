// A stream that plays back fixed die faces, for tests and for replaying a table-top roll.
// Reading past the script, or leaving faces unread, is an error: a test that scripts dice
// must consume exactly the dice it scripted.
import type { RandomStream } from './stream.js';

export class ScriptedDice implements RandomStream {
  private pos = 0;
  constructor(private readonly faces: readonly number[]) {
    for (const f of faces) {
      if (!Number.isInteger(f) || f < 1 || f > 6) throw new RangeError(`scripted die face must be 1..6, got ${f}`);
    }
  }
  d6(): number {
    if (this.pos >= this.faces.length) {
      throw new Error(`scripted dice exhausted: ${this.faces.length} faces scripted, a further die was rolled`);
    }
    return this.faces[this.pos++];
  }
  next(): number {
    // A die face f maps back to the middle of its sixth of [0,1), so d6-from-next agrees.
    return (this.d6() - 0.5) / 6;
  }
  get consumed(): number {
    return this.pos;
  }
  /** Throws unless every scripted face has been rolled. */
  assertConsumed(): void {
    if (this.pos !== this.faces.length) {
      throw new Error(`scripted dice not fully consumed: ${this.pos} of ${this.faces.length} faces rolled`);
    }
  }
}
