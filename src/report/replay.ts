// A picture of one traced battle (jwsim battle --replay): the table seen from above, with the
// deployment zones, objective markers, every model's track, the attacks as lines and the bases
// where the game left them. Pure functions from a trace to text: the same trace always gives
// the same SVG, character for character, and nothing in it loads from outside the file.
//
// Frame: table inches scaled to pixels, with y flipped so y = 0 (the edge of the Initiative
// fleet's strip) is at the bottom, as on a player's plan of the table.
import type { Battle, GameResult, Trace } from '../engine/battle/game.js';
import { loadVertices, type BaseShape } from '../engine/geometry.js';
import type { Scenario } from '../scenarios/scenarioTypes.js';
import { esc } from './html.js';

/** What the picture needs of one model: identity, fleet and base size. */
export interface ReplayModel {
  readonly label: string;
  /** 0 = the scenario's side a ('A' labels), 1 = side b. */
  readonly fleet: 0 | 1;
  readonly shape: BaseShape;
  readonly length: number;
  readonly width: number;
  /** Where it stands at the end of the game, when still on the table (picks up overlap pushes the trace does not record). */
  readonly final?: { readonly x: number; readonly y: number; readonly heading: number } | null;
}

/** One row of traceGame's fates. */
export interface ReplayFate {
  readonly model: string;
  readonly fleet: string;
  readonly tv: number;
  readonly fate: string;
  readonly structure: number;
  readonly damage_dealt: number;
}

export interface ReplayInput {
  readonly scenario: Pick<Scenario, 'id' | 'table' | 'zone' | 'stripDepth' | 'objectives'> & { readonly sides: readonly [{ readonly name: string }, { readonly name: string }] };
  readonly seed: string;
  readonly game: number;
  readonly models: readonly ReplayModel[];
  readonly trace: Trace;
  readonly result: GameResult;
  readonly fates: readonly ReplayFate[];
}

export type ReplayFormat = 'svg' | 'html';
export const REPLAY_EXTENSIONS = ['.svg', '.html'] as const;

/** The format a --replay file name asks for, from its extension; null when it is neither. */
export function replayFormat(file: string): ReplayFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.svg')) return 'svg';
  if (lower.endsWith('.html')) return 'html';
  return null;
}

/** The model list of a battle that has just played the traced game (final poses included). */
export function replayModels(battle: Battle): ReplayModel[] {
  return battle.models.map((m) => ({
    label: m.label,
    fleet: m.fleet,
    shape: m.base.shape,
    length: m.base.length,
    width: m.base.width,
    final: m.where === 'table' ? { x: m.base.x, y: m.base.y, heading: m.base.heading } : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Layout and style

/** Pixels per inch. */
const PX = 12;
const MARGIN_X = 90;
const LEGEND_NOTE = 'Lines: model tracks (numbers: turn). Shapes: final bases (dashed: crippled). X: destroyed. Square on an edge: withdrawn.';
const TOP = 86;
const BOTTOM = 96;
const FLEET_COLOUR = ['#2563c9', '#c9362b'] as const;
const ZONE_FILL = ['#2563c9', '#c9362b'] as const;
const ATTACK_COLOUR = { miss: '#8a8a8a', damage: '#e08a00', kill: '#d01010' } as const;
const FONT = 'font-family="sans-serif"';

/** Numbers as short, stable text: two decimals at most, no trailing zeros, no "-0". */
function n(v: number): string {
  const r = Math.round(v * 100) / 100;
  return String(r === 0 ? 0 : r);
}

interface Pose {
  x: number;
  y: number;
  heading: number;
}

const finite = (p: { x: number; y: number; heading: number }) => Number.isFinite(p.x) && Number.isFinite(p.y);

type AttackKind = keyof typeof ATTACK_COLOUR;

interface AttackLine {
  from: Pose;
  to: Pose;
  kind: AttackKind;
  fleet: 0 | 1;
  title: string;
}

interface RamLine {
  from: Pose;
  to: Pose;
  title: string;
}

/** Walks deployments and activations in game order and collects tracks, attacks and last positions. */
function walk(input: ReplayInput) {
  const byLabel = new Map(input.models.map((m) => [m.label, m]));
  const tracks = new Map<string, Array<{ pose: Pose; turn: number }>>();
  const at = new Map<string, Pose>();
  const stateOf = new Map<string, string>();
  const attacks: AttackLine[] = [];
  const rams: RamLine[] = [];
  const { deployments, activations } = input.trace;
  const place = (label: string, pose: Pose, turn: number) => {
    at.set(label, pose);
    let t = tracks.get(label);
    if (!t) tracks.set(label, (t = []));
    t.push({ pose, turn });
  };
  let d = 0;
  const deployUpTo = (turn: number) => {
    for (; d < deployments.length && deployments[d].turn <= turn; d++) {
      const e = deployments[d];
      // Reserve notes ("A4 x: no legal spot ...") carry NaN positions and a longer text.
      if (finite(e) && byLabel.has(e.model)) place(e.model, { x: e.x, y: e.y, heading: e.heading }, e.turn);
    }
  };
  for (const a of activations) {
    deployUpTo(a.turn);
    for (const k of a.attacks) {
      // In dogfights and bombing runs the opponent attacks inside the same activation.
      const attacker = k.attacker ?? a.model;
      const fleet = byLabel.get(attacker)?.fleet ?? (attacker.startsWith('B') ? 1 : 0);
      const from = attacker !== a.model ? (at.get(attacker) ?? a.after) : a.fired === 'before-move' && !k.window ? a.before : a.after;
      const to = at.get(k.target);
      const prev = stateOf.get(k.target);
      const kind: AttackKind = (k.targetAfter === 'crippled' || k.targetAfter === 'destroyed') && prev !== k.targetAfter ? 'kill' : k.structureDamage > 0 ? 'damage' : 'miss';
      stateOf.set(k.target, k.targetAfter);
      if (!to) continue; // cannot happen in an engine trace: targets are on the table
      const title = `turn ${a.turn}: ${attacker}, ${k.weapon} at ${k.target} (${k.range}" ${k.band}, ${k.aspect}): ${k.results}, ${k.structureDamage} damage, ${k.targetAfter}`;
      attacks.push({ from: { ...from }, to: { ...to }, kind, fleet, title });
    }
    if (a.ram) {
      const to = at.get(a.ram.target);
      if (to) rams.push({ from: { ...a.after }, to: { ...to }, title: `turn ${a.turn}: ${a.model} rams ${a.ram.target}: ${a.ram.result}; rammer ${a.ram.rammerAfter}, target ${a.ram.targetAfter}` });
      stateOf.set(a.ram.target, a.ram.targetAfter);
      stateOf.set(a.model, a.ram.rammerAfter);
    }
    if (finite(a.after)) place(a.model, { ...a.after }, a.turn);
  }
  deployUpTo(Number.POSITIVE_INFINITY);
  // Overlap placements (GM-64/65) move models outside their own activations: end each track
  // at the final pose when the battle supplied one that differs from the last traced point.
  for (const m of input.models) {
    const t = tracks.get(m.label);
    const f = m.final;
    if (!t || !f || !Number.isFinite(f.x) || !Number.isFinite(f.y)) continue;
    const last = t[t.length - 1].pose;
    if (Math.abs(last.x - f.x) > 0.005 || Math.abs(last.y - f.y) > 0.005 || Math.abs(last.heading - f.heading) > 0.05) {
      const p = { x: f.x, y: f.y, heading: f.heading };
      t.push({ pose: p, turn: t[t.length - 1].turn });
      at.set(m.label, p);
    }
  }
  return { tracks, at, attacks, rams };
}

/** "A3" from "A3 jovian.alexander". */
const shortLabel = (label: string) => label.split(' ')[0];

function winnerText(input: ReplayInput): string {
  const w = input.result.winner;
  return w === 2 ? 'draw' : `${w === 0 ? 'A' : 'B'} (${input.scenario.sides[w].name}) wins`;
}

// ---------------------------------------------------------------------------------------------
// SVG

/** The picture of one traced game as a self-contained SVG document (no XML declaration). */
export function renderReplaySvg(input: ReplayInput): string {
  const W = input.scenario.table.width;
  const H = input.scenario.table.height;
  const tableW = W * PX;
  const tableH = H * PX;
  const r = input.result;
  const title = `${input.scenario.id}: seed ${input.seed}, game ${input.game}: ${winnerText(input)}`;
  const score = `OP A ${r.op[0]} : B ${r.op[1]}; VP A ${r.vp[0]} : B ${r.vp[1]}; ${r.activations} activations; ${r.endedEarly ? `ended early: ${r.endReason}` : r.endReason}`;
  const fleets = `A: ${input.scenario.sides[0].name}    B: ${input.scenario.sides[1].name}    Initiative: ${input.trace.initiative}`;
  const legend = `Table ${W}" x ${H}", ${PX} px per inch, grid every 6"; y = 0 is the bottom edge (the Initiative fleet's side); heading 0 points up, clockwise.`;
  // A narrow table must not clip the lines above and below it: the canvas is at least as wide as
  // the longest of them (widths estimated per character at each line's font size).
  const textWidth = Math.max(title.length * 8.5, score.length * 6.2, fleets.length * 6.2, (legend.length + 4) * 5.6, LEGEND_NOTE.length * 5.6);
  const width = Math.max(tableW + 2 * MARGIN_X, MARGIN_X + textWidth + 20);
  const height = TOP + tableH + BOTTOM;
  const X = (x: number) => n(MARGIN_X + x * PX);
  const Y = (y: number) => n(TOP + (H - y) * PX);
  const { tracks, at, attacks, rams } = walk(input);
  const fateOf = new Map(input.fates.map((f) => [f.model, f.fate]));
  const out: string[] = [];

  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" ${FONT} font-size="11">`);
  out.push(`<title>${esc(`jwsim replay: ${input.scenario.id}, seed ${input.seed}, game ${input.game}`)}</title>`);
  out.push(`<rect class="background" x="0" y="0" width="${n(width)}" height="${n(height)}" fill="#ffffff"/>`);

  // Title and score line.
  out.push(`<text class="title" x="${n(MARGIN_X)}" y="20" font-size="15" font-weight="bold">${esc(title)}</text>`);
  out.push(
    `<text class="score" x="${n(MARGIN_X)}" y="38">${esc(score)}</text>`,
  );
  out.push(`<text class="fleets" x="${n(MARGIN_X)}" y="54"><tspan fill="${FLEET_COLOUR[0]}">${esc(`A: ${input.scenario.sides[0].name}`)}</tspan><tspan dx="16" fill="${FLEET_COLOUR[1]}">${esc(`B: ${input.scenario.sides[1].name}`)}</tspan><tspan dx="16">${esc(`Initiative: ${input.trace.initiative}`)}</tspan></text>`);

  // The table, with a 6" grid.
  out.push(`<g class="table">`);
  out.push(`<rect x="${X(0)}" y="${Y(H)}" width="${n(tableW)}" height="${n(tableH)}" fill="#f7f7f2" stroke="#333" stroke-width="1"/>`);
  for (let x = 6; x < W; x += 6) out.push(`<line x1="${X(x)}" y1="${Y(0)}" x2="${X(x)}" y2="${Y(H)}" stroke="#e3e3dc" stroke-width="0.5"/>`);
  for (let y = 6; y < H; y += 6) out.push(`<line x1="${X(0)}" y1="${Y(y)}" x2="${X(W)}" y2="${Y(y)}" stroke="#e3e3dc" stroke-width="0.5"/>`);
  out.push(`</g>`);

  // Deployment zones: zone 0 goes to the fleet holding Initiative.
  const init = r.initiative;
  const other = (1 - init) as 0 | 1;
  out.push(`<g class="zones" fill-opacity="0.12">`);
  const zoneRect = (fleet: 0 | 1, x0: number, y0: number, x1: number, y1: number) =>
    out.push(`<rect class="zone fleet-${fleet === 0 ? 'a' : 'b'}" x="${X(x0)}" y="${Y(y1)}" width="${n((x1 - x0) * PX)}" height="${n((y1 - y0) * PX)}" fill="${ZONE_FILL[fleet]}"/>`);
  if (input.scenario.zone === 'standard') {
    const depth = Math.min(input.scenario.stripDepth, H);
    zoneRect(init, 0, 0, W, depth);
    zoneRect(other, 0, H - depth, W, H);
  } else if (input.scenario.zone === 'corner') {
    zoneRect(init, 0, 0, W / 2, H / 2);
    zoneRect(other, W / 2, H / 2, W, H);
  } else {
    for (const b of input.trace.beacons) {
      const f = b.side === 'B' ? 1 : 0;
      out.push(`<circle class="zone beacon fleet-${f === 0 ? 'a' : 'b'}" cx="${X(b.x)}" cy="${Y(b.y)}" r="${n(3 * PX)}" fill="${ZONE_FILL[f]}"/>`);
    }
  }
  out.push(`</g>`);
  if (input.scenario.zone === 'beacon') {
    out.push(`<g class="beacons">`);
    for (const b of input.trace.beacons) {
      const f = b.side === 'B' ? 1 : 0;
      out.push(`<circle cx="${X(b.x)}" cy="${Y(b.y)}" r="2.5" fill="${FLEET_COLOUR[f]}"><title>${esc(`beacon of ${b.side} at (${b.x}, ${b.y})`)}</title></circle>`);
    }
    out.push(`</g>`);
  }

  // Objective markers with their holding radius.
  if (input.scenario.objectives.length) {
    out.push(`<g class="objectives">`);
    for (const o of input.scenario.objectives) {
      out.push(`<circle cx="${X(o.x)}" cy="${Y(o.y)}" r="${n(o.radius * PX)}" fill="#f2c94c" fill-opacity="0.15" stroke="#a07800" stroke-dasharray="4 3"/>`);
      out.push(`<circle cx="${X(o.x)}" cy="${Y(o.y)}" r="3" fill="#a07800"><title>${esc(`objective ${o.id}: ${o.points} OP per End Phase from turn ${o.fromTurn}, radius ${o.radius}"`)}</title></circle>`);
      out.push(`<text x="${n(MARGIN_X + o.x * PX + 5)}" y="${n(TOP + (H - o.y) * PX - 5)}" font-size="9" fill="#7a5c00">${esc(o.id)}</text>`);
    }
    out.push(`</g>`);
  }

  // Tracks: one path per deployed model, deployment point then each activation's end.
  out.push(`<g class="tracks" fill="none" stroke-width="1.2" stroke-opacity="0.75">`);
  for (const m of input.models) {
    const t = tracks.get(m.label);
    if (!t) continue;
    const d = t.map((p, i) => `${i === 0 ? 'M' : 'L'}${X(p.pose.x)} ${Y(p.pose.y)}`).join(' ');
    out.push(`<path class="track fleet-${m.fleet === 0 ? 'a' : 'b'}" d="${d}" stroke="${FLEET_COLOUR[m.fleet]}"><title>${esc(m.label)}</title></path>`);
  }
  out.push(`</g>`);
  out.push(`<g class="waypoints" font-size="7" stroke="none">`);
  for (const m of input.models) {
    const t = tracks.get(m.label);
    if (!t) continue;
    for (const p of t) {
      out.push(`<circle cx="${X(p.pose.x)}" cy="${Y(p.pose.y)}" r="1.6" fill="${FLEET_COLOUR[m.fleet]}"/>`);
      out.push(`<text x="${n(MARGIN_X + p.pose.x * PX + 2.5)}" y="${n(TOP + (H - p.pose.y) * PX - 2.5)}" fill="${FLEET_COLOUR[m.fleet]}" fill-opacity="0.8">${p.turn}</text>`);
    }
  }
  out.push(`</g>`);

  // Attacks, from where the attacker fired to where the target stood then.
  out.push(`<g class="attacks" stroke-width="0.8">`);
  for (const a of attacks) {
    out.push(`<line class="attack ${a.kind}" x1="${X(a.from.x)}" y1="${Y(a.from.y)}" x2="${X(a.to.x)}" y2="${Y(a.to.y)}" stroke="${ATTACK_COLOUR[a.kind]}" stroke-opacity="${a.kind === 'miss' ? '0.5' : '0.85'}"><title>${esc(a.title)}</title></line>`);
  }
  for (const a of rams) {
    out.push(`<line class="ram" x1="${X(a.from.x)}" y1="${Y(a.from.y)}" x2="${X(a.to.x)}" y2="${Y(a.to.y)}" stroke="#6b2fa0" stroke-width="2" stroke-dasharray="3 2"><title>${esc(a.title)}</title></line>`);
  }
  out.push(`</g>`);

  // Final bases of the models still on the table, and marks for the destroyed and withdrawn.
  const verts = new Float64Array(12);
  out.push(`<g class="bases">`);
  for (const m of input.models) {
    const fate = fateOf.get(m.label) ?? 'intact';
    const p = at.get(m.label);
    if (!p || fate === 'destroyed' || fate === 'withdrawn' || fate === 'reserve') continue;
    const colour = FLEET_COLOUR[m.fleet];
    const base = { shape: m.shape, x: p.x, y: p.y, heading: p.heading, length: m.length, width: m.width };
    const k = loadVertices(base, verts);
    const dash = fate === 'crippled' ? ' stroke-dasharray="2 1.5"' : '';
    const tip = `<title>${esc(`${m.label}: ${fate} at (${n(p.x)}, ${n(p.y)}), heading ${n(p.heading)}`)}</title>`;
    if (k > 0) {
      const pts: string[] = [];
      for (let i = 0; i < k; i++) pts.push(`${X(verts[2 * i])},${Y(verts[2 * i + 1])}`);
      out.push(`<polygon class="base ${fate}" points="${pts.join(' ')}" fill="${colour}" fill-opacity="0.35" stroke="${colour}" stroke-width="1"${dash}>${tip}</polygon>`);
    } else {
      out.push(`<circle class="base ${fate}" cx="${X(p.x)}" cy="${Y(p.y)}" r="${n((m.width / 2) * PX)}" fill="${colour}" fill-opacity="0.35" stroke="${colour}"${dash}>${tip}</circle>`);
    }
    if (m.shape === 'rect') {
      // A tick from the centre to the bow shows the heading (0 = up the page, clockwise).
      const rad = (p.heading * Math.PI) / 180;
      const bx = p.x + (Math.sin(rad) * m.length) / 2, by = p.y + (Math.cos(rad) * m.length) / 2;
      out.push(`<line class="heading" x1="${X(p.x)}" y1="${Y(p.y)}" x2="${X(bx)}" y2="${Y(by)}" stroke="${colour}" stroke-width="1.2"/>`);
    }
    out.push(`<text class="label" x="${n(MARGIN_X + p.x * PX + 6)}" y="${n(TOP + (H - p.y) * PX + 10)}" font-size="8" fill="${colour}">${esc(shortLabel(m.label))}</text>`);
  }
  out.push(`</g>`);

  out.push(`<g class="losses">`);
  for (const m of input.models) {
    const fate = fateOf.get(m.label);
    const p = at.get(m.label);
    if (!p) continue;
    const colour = FLEET_COLOUR[m.fleet];
    if (fate === 'destroyed') {
      const cx = MARGIN_X + p.x * PX, cy = TOP + (H - p.y) * PX, s = 5;
      out.push(
        `<g class="x-mark" stroke="${colour}" stroke-width="2"><title>${esc(`${m.label}: destroyed`)}</title><line x1="${n(cx - s)}" y1="${n(cy - s)}" x2="${n(cx + s)}" y2="${n(cy + s)}"/><line x1="${n(cx - s)}" y1="${n(cy + s)}" x2="${n(cx + s)}" y2="${n(cy - s)}"/></g>`,
      );
      out.push(`<text class="label" x="${n(cx + 6)}" y="${n(cy + 10)}" font-size="8" fill="${colour}">${esc(shortLabel(m.label))}</text>`);
    } else if (fate === 'withdrawn') {
      // Mark the point on the nearest table edge, with the label just outside the table.
      const x = Math.min(Math.max(p.x, 0), W), y = Math.min(Math.max(p.y, 0), H);
      const edges = [
        { d: y, tx: x, ty: -1.3, anchor: 'middle' },
        { d: H - y, tx: x, ty: H + 0.6, anchor: 'middle' },
        { d: x, tx: -0.5, ty: y, anchor: 'end' },
        { d: W - x, tx: W + 0.5, ty: y, anchor: 'start' },
      ];
      const e = edges.reduce((best, c) => (c.d < best.d ? c : best));
      const ex = e === edges[2] ? 0 : e === edges[3] ? W : x;
      const ey = e === edges[0] ? 0 : e === edges[1] ? H : y;
      out.push(`<g class="withdrawn"><title>${esc(`${m.label}: withdrawn`)}</title><rect x="${n(MARGIN_X + ex * PX - 4)}" y="${n(TOP + (H - ey) * PX - 4)}" width="8" height="8" fill="#ffffff" stroke="${colour}" stroke-width="1.5"/>`);
      out.push(`<text x="${n(MARGIN_X + e.tx * PX)}" y="${n(TOP + (H - e.ty) * PX)}" font-size="8" text-anchor="${e.anchor}" fill="${colour}">${esc(`${shortLabel(m.label)} withdrawn`)}</text></g>`);
    }
  }
  out.push(`</g>`);

  // Legend under the table.
  const ly = TOP + tableH + 24;
  const lx = MARGIN_X;
  out.push(`<g class="legend" font-size="10">`);
  out.push(`<text x="${n(lx)}" y="${n(ly)}">${esc(legend)}</text>`);
  const key: Array<[string, string]> = [
    [ATTACK_COLOUR.miss, 'attack, no damage'],
    [ATTACK_COLOUR.damage, 'attack, damage'],
    [ATTACK_COLOUR.kill, 'attack cripples or destroys'],
  ];
  let kx = lx;
  for (const [c, t] of key) {
    out.push(`<line x1="${n(kx)}" y1="${n(ly + 16)}" x2="${n(kx + 18)}" y2="${n(ly + 16)}" stroke="${c}" stroke-width="2"/><text x="${n(kx + 22)}" y="${n(ly + 20)}">${esc(t)}</text>`);
    kx += 40 + t.length * 5.5;
  }
  out.push(`<text x="${n(lx)}" y="${n(ly + 38)}">${esc(LEGEND_NOTE)}</text>`);
  out.push(`</g>`);
  out.push(`</svg>`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// HTML

const STYLE = `body{font-family:sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;font-size:12px;margin:12px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child,td:nth-child(2){text-align:left}
.fleet-a{color:#2563c9}.fleet-b{color:#c9362b}`;

/** A minimal page: the same SVG inline and a table of every model's fate. */
export function renderReplayHtml(input: ReplayInput): string {
  const title = `jwsim replay: ${input.scenario.id}, seed ${input.seed}, game ${input.game}`;
  const rows = input.fates.map(
    (f) =>
      `<tr class="fleet-${f.fleet === 'b' ? 'b' : 'a'}"><td>${esc(f.model)}</td><td>${esc(f.fate)}</td><td>${esc(f.tv)}</td><td>${esc(f.structure)}</td><td>${esc(f.damage_dealt)}</td></tr>`,
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${esc(title)}</h1>`,
    renderReplaySvg(input).trimEnd(),
    '<h2>Fates</h2>',
    '<table class="fates">',
    '<thead><tr><th>model</th><th>fate</th><th>TV</th><th>structure</th><th>damage dealt</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
