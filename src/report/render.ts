// Rendering Vega-Lite specs headlessly: vega-lite compiles to Vega, a vega View draws SVG,
// and resvg turns the SVG into PNG (its binary ships in its npm package).
//
// The three libraries are loaded on first use, not when this module is imported: vega alone
// takes about 0.3 s to load (hundreds of modules), and every jwsim command imports this module
// through the report code, while only report writing draws charts.
import type * as Vega from 'vega';
import type { VegaLiteSpec } from './charts.js';

export interface Rendered {
  svg: string;
  png: Buffer;
}

interface Libraries {
  vega: typeof Vega;
  compile: typeof import('vega-lite').compile;
  Resvg: typeof import('@resvg/resvg-js').Resvg;
}

let libraries: Promise<Libraries> | undefined;

/** vega, vega-lite's compile and resvg, loaded once. */
function load(): Promise<Libraries> {
  libraries ??= Promise.all([import('vega'), import('vega-lite'), import('@resvg/resvg-js')]).then(([vega, vl, resvg]) => ({ vega, compile: vl.compile, Resvg: resvg.Resvg }));
  return libraries;
}

function compileWith(lib: Libraries, spec: VegaLiteSpec): Vega.Spec {
  // Errors still throw; vega-lite's warnings (sizing notes on faceted charts) would only clutter a command's stderr.
  return lib.compile(spec as unknown as Parameters<Libraries['compile']>[0], { logger: lib.vega.logger(lib.vega.Error) }).spec as Vega.Spec;
}

/** Compiles a Vega-Lite spec to Vega; rejects on an invalid spec. */
export async function toVega(spec: VegaLiteSpec): Promise<Vega.Spec> {
  return compileWith(await load(), spec);
}

export async function render(spec: VegaLiteSpec): Promise<Rendered> {
  const lib = await load();
  const view = new lib.vega.View(lib.vega.parse(compileWith(lib, spec)), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  const png = new lib.Resvg(svg, { background: 'white', font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
  return { svg, png };
}
