// Plain-text tables for terminal output.

/** A percentage with two decimals, e.g. "44.44%". */
export function pct(p: number): string {
  return `${(p * 100).toFixed(2)}%`;
}

/** Left-aligned first column, right-aligned others, two spaces between columns. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}
