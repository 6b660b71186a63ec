// Lists said in words, for messages and notes: "a, b and c", "a, b or c".

/** `items` joined with commas and `conjunction` before the last: "a, b and c"; one item alone; '' for none. */
export function listInWords(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
