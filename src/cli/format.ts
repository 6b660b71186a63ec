// Plain-text tables for terminal output.

/** A percentage with two decimals, e.g. "44.44%". */
export function pct(p: number): string {
  return `${(p * 100).toFixed(2)}%`;
}

/** x.toFixed(digits), without the sign of a value that rounds to zero ("-0.0" reads as a loss). */
export function fixed(x: number, digits: number): string {
  const t = x.toFixed(digits);
  return /^-0\.?0*$/.test(t) ? t.slice(1) : t;
}

/** A change as a whole signed percentage, e.g. "+12%", "-3%"; a change that rounds to nothing is "0%" (never "-0%"). */
export function signedPercent(change: number): string {
  const t = fixed(100 * change, 0);
  return `${t === '0' || t.startsWith('-') ? '' : '+'}${t}%`;
}

/** Left-aligned first column, right-aligned others, two spaces between columns. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}
