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
  /** The PNG, drawn by resvg on a thread of libuv's pool while the caller goes on. */
  png: Promise<Buffer>;
}

interface Libraries {
  vega: typeof Vega;
  compile: typeof import('vega-lite').compile;
  renderAsync: typeof import('@resvg/resvg-js').renderAsync;
}

let libraries: Promise<Libraries> | undefined;

/** vega, vega-lite's compile and resvg, loaded once. */
function load(): Promise<Libraries> {
  libraries ??= Promise.all([import('vega'), import('vega-lite'), import('@resvg/resvg-js')]).then(([vega, vl, resvg]) => ({ vega, compile: vl.compile, renderAsync: resvg.renderAsync }));
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
  // Most of a PNG's time is resvg loading the system fonts; off this thread, the next chart's
  // SVG is drawn meanwhile (the nightly report's nine PNGs: 1.2 s in turn, 0.6 s at once, 2 cores).
  const png = lib.renderAsync(svg, { background: 'white', font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).then((image) => image.asPng());
  png.catch(() => {}); // handled by whoever awaits it; a report that fails before then reports its own error
  return { svg, png };
}
