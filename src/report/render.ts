// Rendering Vega-Lite specs headlessly: vega-lite compiles to Vega, a vega View draws SVG,
// and resvg turns the SVG into PNG (its binary ships in its npm package).
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { VegaLiteSpec } from './charts.js';

export interface Rendered {
  svg: string;
  png: Buffer;
}

/** Compiles a Vega-Lite spec to Vega; throws on an invalid spec. */
export function toVega(spec: VegaLiteSpec): vega.Spec {
  // Errors still throw; vega-lite's warnings (sizing notes on faceted charts) would only clutter a command's stderr.
  return compile(spec as unknown as Parameters<typeof compile>[0], { logger: vega.logger(vega.Error) }).spec as vega.Spec;
}

export async function render(spec: VegaLiteSpec): Promise<Rendered> {
  const view = new vega.View(vega.parse(toVega(spec)), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  const png = new Resvg(svg, { background: 'white', font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  return { svg, png };
}
