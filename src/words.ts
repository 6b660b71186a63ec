// Words in messages and notes: lists ("a, b and c", "a, b or c") and how near a mistyped name is to a known one.

/** `items` joined with commas and `conjunction` before the last: "a, b and c"; one item alone; '' for none. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/** Edit distance (Levenshtein) between two short strings, for "did you mean". */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}
