// Numbers as text, shared by the terminal outputs (src/cli) and the HTML report (src/report).

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
