// Finding where a JSON text stops being valid, with a one-line reason: JSON.parse's own
// messages differ between Node versions and sometimes give no position at all.

export interface JsonSyntaxError {
  offset: number;
  reason: string;
}

/** Deeper nesting than this is refused (no jwsim file needs more than a handful of levels). */
export const MAX_DEPTH = 200;

/** The first syntax error of `text`, or null when it is valid JSON. */
export function findJsonError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (reason: string): never => {
    throw { offset: i, reason } satisfies JsonSyntaxError;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe(text[i])}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('control character inside a string');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('bad escape in a string');
      }
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`unexpected ${describe(text[i])}`);
    i += m![0].length;
  };
  let depth = 0;
  const value = (): void => {
    ws();
    const c = text[i];
    if ((c === '{' || c === '[') && ++depth > MAX_DEPTH) fail(`nested more than ${MAX_DEPTH} levels deep`);
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void (i++, depth--);
      const keys = new Set<string>();
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'trailing comma before }' : `expected a "key" but found ${describe(text[i])}`);
        const start = i;
        string();
        // A repeated key would silently lose all but its last value.
        const key = JSON.parse(text.slice(start, i)) as string;
        if (keys.has(key)) {
          i = start;
          fail(`the key "${key}" appears twice in one object`);
        }
        keys.add(key);
        ws();
        if (text[i] !== ':') fail(`expected ':' after a key but found ${describe(text[i])}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void (i++, depth--);
        else fail(`expected ',' or '}' but found ${describe(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void (i++, depth--);
      for (;;) {
        ws();
        if (text[i] === ']') fail('trailing comma before ]');
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void (i++, depth--);
        else fail(`expected ',' or ']' but found ${describe(text[i])}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(text[i])} after the end of the JSON value`);
    return null;
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'offset' in e) return e as JsonSyntaxError;
    throw e;
  }
}

function describe(c: string | undefined): string {
  if (c === undefined) return 'end of file';
  if (c === '\n') return 'line break';
  return `'${c}'`;
}

/** Line and column (1-based) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
