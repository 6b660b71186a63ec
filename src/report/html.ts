// The self-contained index.html of a run folder: inline SVG charts and tables, a little
// inline script to sort tables, nothing loaded from the network. Every string from user
// files is escaped.

export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface Section {
  id: string;
  title: string;
  intro?: string;
  /** Inline SVG (produced by vega from escaped data) and links to the chart files. */
  svg?: string;
  files?: string[];
  table?: { columns: string[]; rows: Array<Array<string | number>> };
  /** A picture file shown as a thumbnail that links to a page (battles: a sample game), with a caption. */
  figure?: { src: string; href: string; alt: string; width: number; height: number; caption: string };
  /** Remarks shown as warnings right after the intro (for instance why a picture is missing). */
  notes?: string[];
  /** Subsections, each under its own h3 after the section's own chart and table. */
  parts?: Section[];
}

export interface Page {
  title: string;
  facts: Array<[string, string]>;
  warnings: string[];
  placeholders: string[];
  sections: Section[];
}

const STYLE = `body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px;margin-top:20px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 6px;text-align:right}
th{background:#f3f3f3;cursor:pointer;user-select:none}td:first-child,th:first-child{text-align:left}
.facts td{text-align:left}.warning{background:#fff4e5;border:1px solid #f0a030;padding:8px 12px;margin:12px 0}
.warning summary{font-weight:bold;cursor:pointer}.chart{overflow-x:auto;margin:8px 0}.files{font-size:12px;color:#555}
figure.replay{margin:8px 0}figure.replay img{border:1px solid #ccc;max-width:100%;height:auto}figure.replay figcaption{font-size:12px;color:#555}`;

/** Thumbnail width of a figure, in pixels. */
const THUMB_WIDTH = 360;

function figureHtml(f: NonNullable<Section['figure']>): string {
  const w = Math.min(THUMB_WIDTH, f.width);
  const h = Math.round((f.height * w) / f.width);
  return `<figure class="replay"><a href="${esc(f.href)}"><img src="${esc(f.src)}" alt="${esc(f.alt)}" width="${w}" height="${h}"></a><figcaption>${esc(f.caption)} <a href="${esc(f.href)}">${esc(f.href)}</a> · <a href="${esc(f.src)}">${esc(f.src)}</a></figcaption></figure>`;
}

const SORT_SCRIPT = `document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){
var i=th.cellIndex,tb=th.closest('table').tBodies[0],rows=Array.prototype.slice.call(tb.rows),asc=th.dataset.asc!=='1';
rows.sort(function(a,b){var x=a.cells[i].textContent,y=b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return asc?c:-c;});
rows.forEach(function(r){tb.appendChild(r);});th.dataset.asc=asc?'1':'0';});});`;

function table(t: NonNullable<Section['table']>, cls = 'sortable'): string {
  const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = t.rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table class="${cls}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function sectionHtml(s: Section, tag: 'section' | 'div', heading: 'h2' | 'h3'): string {
  return [
    `<${tag}${tag === 'div' ? ' class="part"' : ''} id="${esc(s.id)}"><${heading}>${esc(s.title)}</${heading}>`,
    s.intro ? `<p>${esc(s.intro)}</p>` : '',
    ...(s.notes ?? []).map((n) => `<div class="warning">${esc(n)}</div>`),
    s.figure ? figureHtml(s.figure) : '',
    s.svg ? `<div class="chart" data-chart="${esc(s.id)}">${s.svg}</div>` : '',
    s.files?.length ? `<p class="files">${s.files.map((f) => `<a href="${esc(f)}">${esc(f)}</a>`).join(' · ')}</p>` : '',
    s.table ? table(s.table) : '',
    ...(s.parts ?? []).map((x) => sectionHtml(x, 'div', 'h3')),
    `</${tag}>`,
  ].join('\n');
}

export function page(p: Page): string {
  const facts = `<table class="facts"><tbody>${p.facts.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>`;
  const warnings = p.warnings.map((w) => `<div class="warning">${esc(w)}</div>`).join('\n');
  const placeholders = p.placeholders.length
    ? `<details class="warning" id="placeholders"><summary>This report uses ${p.placeholders.length} placeholder values (invented where the published rules or cards give none): results are illustrative until they are replaced.</summary><ul>${p.placeholders.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></details>`
    : '';
  const sections = p.sections.map((s) => sectionHtml(s, 'section', 'h2')).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(p.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body>
<h1>${esc(p.title)}</h1>
${facts}
${placeholders}
${warnings}
${sections}
<script>${SORT_SCRIPT}</script>
</body></html>
`;
}
