// The files of a comparison: comparison.csv (one row per engagement x compared variant x
// metric), comparison.json, manifest.json and an index.html with the forest plot of shifts.
import { JWSIM_VERSION } from '../version.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { getRulesVersion } from '../rules/registry.js';
import type { Batch } from '../scenarios/batch.js';
import { COMPARE_BATTLE_CHUNK, drawRates, fdrFamily, type Difference } from '../sim/compare.js';
import { KEY_METRIC, versionComparison } from './charts.js';
import { page, type Section } from './html.js';
import { render } from './render.js';
import { fmt, overlayRef, writeAtomically } from './runOutput.js';

/** z of the intervals, as printed (3, 3.12, ...). */
export const fmtZ = (z: number): string => String(Number(z.toFixed(2)));

export const COMPARE_COLUMNS = ['experiment', 'engagement', 'kind', 'metric', 'from', 'to', 'value_from', 'value_to', 'difference', 'low', 'high', 'unpaired_low', 'unpaired_high', 'distinguishable', 'chunks', 'trials', 'seed', 'p_value', 'q_value'];

/** A p- or q-value as written: 4 significant digits (tiny values stay readable), empty where there is none. */
export const fmtP = (x: number | null): string => (x === null ? '' : String(Number(x.toPrecision(4))));

/** The shifts of an FDR family (fdrFamily) that keep the false discovery rate at 5% (q <= 0.05), and the family's size. */
export function fdrMoved(diffs: readonly Difference[], family: 'key' | 'unit'): { moved: number; family: number } {
  const members = diffs.filter((d) => d.q !== null && fdrFamily(d) === family);
  return { moved: members.filter((d) => (d.q as number) <= 0.05).length, family: members.length };
}

/** The line that explains the key metrics' q-values (printed output and report). */
export function fdrText(diffs: readonly Difference[]): string {
  const { moved, family } = fdrMoved(diffs, 'key');
  return `${moved} of the ${family} sampled key metrics moved at a 5% false discovery rate (Benjamini-Hochberg q <= 0.05 over their repeated p-values: among many engagements some intervals exclude 0 by chance, and q allows for that; q_value in comparison.csv)`;
}

export interface CompareFacts {
  threads: number;
  wallSeconds: number;
  commandLine: readonly string[];
  settings: Record<string, number>;
  dir: string;
}

/**
 * How much narrower the paired intervals are than two independent runs would give, over the
 * sampled key metrics: the share where pairing leaves no noise at all (the change is never
 * exercised), and the median width ratio paired / unpaired among the others.
 */
export function narrowing(diffs: readonly Difference[]): { count: number; zeroWidthShare: number; medianRatioOthers: number } {
  const key = diffs.filter((d) => d.trials !== null && d.metric === KEY_METRIC[d.cell.kind] && d.unpairedHigh > d.unpairedLow);
  const ratios = key
    .filter((d) => d.high > d.low)
    .map((d) => (d.high - d.low) / (d.unpairedHigh - d.unpairedLow))
    .sort((a, b) => a - b);
  return {
    count: key.length,
    zeroWidthShare: key.length ? (key.length - ratios.length) / key.length : NaN,
    medianRatioOthers: ratios.length ? ratios[Math.floor((ratios.length - 1) / 2)] : NaN,
  };
}

function placeholdersOf(diffs: readonly Difference[]): string[] {
  return [...new Set(diffs.flatMap((d) => d.placeholders))].sort();
}

/** The battles' own stopping and interval lines (settings.battle*, present when the batch has battles). */
function battleFacts(st: Record<string, number>): Array<[string, string]> {
  if (st.battleMinTrials === undefined) return [];
  return [
    ['battle stopping', `in chunks of ${COMPARE_BATTLE_CHUNK} trials (a mirrored trial is two games; game t of every variant on the same dice and policy streams): after ${st.battleMinTrials} trials, at |shift of the A win rate| > ${fmtZ(st.battleSequentialZ)} se or |shift| + ${fmtZ(st.battleSequentialZ)} se < ${st.battleSettle}; at most ${st.battleMaxTrials}`],
    ['battle intervals', `shift ± ${fmtZ(st.battleIntervalZ)} se: repeated 95% confidence intervals over the looks from ${st.battleMinTrials} to ${st.battleMaxTrials} trials`],
  ];
}

/** Whether the batch has sampled engagements other than battles (their stopping rule and z apply). */
export function hasSampledEngagements(cells: Batch['cells']): boolean {
  return cells.some((c) => c.kind !== 'battle' && !c.exact);
}

/**
 * The z of the intervals shown, for a line of text: "±2.55 se", or the battles' own when the
 * batch has only battles, or both when they differ as printed ("±2.55 se, battles ±2.25 se").
 */
export function intervalZText(st: Record<string, number>, cells: Batch['cells']): string {
  const engagements = hasSampledEngagements(cells);
  const battles = st.battleIntervalZ !== undefined && cells.some((c) => c.kind === 'battle');
  if (!battles) return `±${fmtZ(st.intervalZ)} se`;
  if (!engagements || fmtZ(st.battleIntervalZ) === fmtZ(st.intervalZ)) return `±${fmtZ(st.battleIntervalZ)} se`;
  return `±${fmtZ(st.intervalZ)} se, battles ±${fmtZ(st.battleIntervalZ)} se`;
}

export async function comparisonOutputs(batch: Batch, diffs: readonly Difference[], facts: CompareFacts): Promise<Array<[string, string | Uint8Array]>> {
  const name = (i: number) => batch.variants[i].name;
  const rows = diffs.map((d) => [
    d.cell.experiment,
    d.cell.id,
    d.cell.kind,
    d.metric,
    name(d.from),
    name(d.to),
    fmt(d.valueFrom),
    fmt(d.valueTo),
    fmt(d.difference),
    fmt(d.low),
    fmt(d.high),
    fmt(d.unpairedLow),
    fmt(d.unpairedHigh),
    d.distinguishable ? 'yes' : 'no',
    String(d.chunks),
    d.trials === null ? 'exact' : String(d.trials),
    batch.seed,
    fmtP(d.p),
    fmtP(d.q),
  ]);
  const csv = stringify([COMPARE_COLUMNS, ...rows]);
  const narrow = narrowing(diffs);
  const json = JSON.stringify(
    {
      format: 'jwsim-comparison/1',
      seed: batch.seed,
      variants: batch.variants.map((v) => ({ name: v.name, rules: v.rules, overlay: overlayRef(v.overlay) })),
      paired_vs_unpaired_width: narrow,
      differences: diffs.map((d) => ({
        experiment: d.cell.experiment,
        engagement: d.cell.id,
        kind: d.cell.kind,
        metric: d.metric,
        from: name(d.from),
        to: name(d.to),
        value_from: Number(fmt(d.valueFrom)),
        value_to: Number(fmt(d.valueTo)),
        difference: Number(fmt(d.difference)),
        low: Number(fmt(d.low)),
        high: Number(fmt(d.high)),
        unpaired_low: Number(fmt(d.unpairedLow)),
        unpaired_high: Number(fmt(d.unpairedHigh)),
        distinguishable: d.distinguishable,
        p_value: d.p === null ? null : Number(fmtP(d.p)),
        q_value: d.q === null ? null : Number(fmtP(d.q)),
        chunks: d.chunks,
        trials: d.trials,
      })),
    },
    null,
    2,
  ) + '\n';
  const sections: Section[] = [];
  const chartsDir = join(facts.dir, 'charts');
  const drawsOf = drawRates(diffs);
  mkdirSync(chartsDir, { recursive: true });
  for (let to = 1; to < batch.variants.length; to++) {
    const key = diffs.filter((d) => d.to === to && d.metric === KEY_METRIC[d.cell.kind]);
    // The largest shifts of each key metric (its own panel), 60 in all: ranked together, win
    // rates and Structure points would crowd each other out.
    const metrics = [...new Set(key.map((d) => d.metric))];
    const shown = metrics.flatMap((m) => key.filter((d) => d.metric === m).sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference)).slice(0, Math.ceil(60 / metrics.length)));
    const spec = versionComparison(
      shown.map((d) => ({ label: d.cell.id, metric: d.metric, difference: d.difference, low: d.low, high: d.high })),
      name(0),
      name(to),
    );
    if (!spec) continue;
    const id = `shifts-${name(to).replace(/[^A-Za-z0-9._-]/g, '_')}`;
    const { svg, png } = await render(spec);
    writeAtomically(chartsDir, [[`${id}.vl.json`, JSON.stringify(spec, null, 2) + '\n'], [`${id}.svg`, svg], [`${id}.png`, await png]]);
    sections.push({
      id,
      title: `${name(0)} vs ${name(to)}: the ${shown.length} largest shifts of ${key.length}`,
      intro: `Paired 95% intervals (${intervalZText(facts.settings, batch.cells)}: repeated intervals over the sequential looks) on common random numbers; red: the interval excludes zero. comparison.csv has every metric.`,
      svg,
      files: [`charts/${id}.vl.json`, `charts/${id}.svg`, `charts/${id}.png`],
      table: {
        // A duel's win rate can fall because wins became draws, not losses: the draw rates stand beside it.
        columns: ['engagement', 'metric', name(0), name(to), 'difference', 'paired low', 'paired high', 'unpaired low', 'unpaired high', 'moved', 'q (FDR)', `draws ${name(0)}`, `draws ${name(to)}`, 'trials'],
        rows: key.map((d) => {
          const drawn = drawsOf(d);
          return [d.cell.id, d.metric, fmt(d.valueFrom), fmt(d.valueTo), fmt(d.difference), fmt(d.low), fmt(d.high), fmt(d.unpairedLow), fmt(d.unpairedHigh), d.distinguishable ? 'yes' : 'no', d.q === null ? 'exact' : fmtP(d.q), drawn ? fmt(drawn.valueFrom) : '', drawn ? fmt(drawn.valueTo) : '', d.trials ?? 'exact'];
        }),
      },
    });
  }
  // Battles: how each unit type's damage per 100 TV and destroyed rate moved, per battle.
  for (let to = 1; to < batch.variants.length; to++) {
    const per100 = diffs.filter((d) => d.to === to && d.cell.kind === 'battle' && d.metric.startsWith('unit:') && d.metric.endsWith(':damage_per_100_tv'));
    if (!per100.length) continue;
    const destroyed = new Map(diffs.filter((d) => d.to === to && d.metric.endsWith(':destroyed_rate')).map((d) => [`${d.cell.id}\u0000${d.metric}`, d]));
    sections.push({
      id: `battle-units-${name(to).replace(/[^A-Za-z0-9._-]/g, '_')}`,
      title: `${name(0)} vs ${name(to)}: unit types in battles`,
      intro: `Each unit type's Structure dealt per 100 TV and destroyed rate, per appearance (both fleets pooled), in the same games under the two variants; paired 95% intervals (${intervalZText(facts.settings, batch.cells)}). A battle stops on its A win rate, so these figures carry no guarantee of precision, and each interval is 95% on its own: among many unit types a change does not touch, up to 1 in 20 may read moved by chance. The q columns allow for that: Benjamini-Hochberg over every unit figure that varied in the comparison; those with q <= 0.05 keep the false discovery rate at 5%. comparison.csv has the crippled, withdrawn and captured rates too.`,
      table: {
        columns: ['battle', 'unit', `per 100 TV ${name(0)}`, `per 100 TV ${name(to)}`, 'difference', 'paired low', 'paired high', 'moved', 'q', `destroyed ${name(0)}`, `destroyed ${name(to)}`, 'difference', 'paired low', 'paired high', 'moved', 'q'],
        rows: per100.map((d) => {
          const unit = d.metric.slice('unit:'.length, -':damage_per_100_tv'.length);
          const x = destroyed.get(`${d.cell.id}\u0000unit:${unit}:destroyed_rate`);
          const moved = (y: Difference) => (y.distinguishable ? 'yes' : 'no');
          // No q: the figure did not vary at all (the change never touched it).
          const q = (y: Difference) => (y.q === null ? '-' : fmtP(y.q));
          return [d.cell.id, unit, fmt(d.valueFrom), fmt(d.valueTo), fmt(d.difference), fmt(d.low), fmt(d.high), moved(d), q(d), ...(x ? [fmt(x.valueFrom), fmt(x.valueTo), fmt(x.difference), fmt(x.low), fmt(x.high), moved(x), q(x)] : ['', '', '', '', '', '', ''])];
        }),
      },
    });
  }
  const html = page({
    title: `jwsim comparison: ${batch.variants.map((v) => v.name).join(' vs ')}`,
    facts: [
      ['batch', `${batch.file} (sha256 ${batch.sha256.slice(0, 16)}...)`],
      ['seed', batch.seed],
      ...batch.variants.map((v): [string, string] => [`variant ${v.name}`, `rules v${v.rules}${v.overlay ? `; overlay ${v.overlay.file} (sha256 ${v.overlay.sha256.slice(0, 16)}...)` : ''}`]),
      [
        'paired vs unpaired intervals',
        narrow.count
          ? `${(100 * narrow.zeroWidthShare).toFixed(0)}% of ${narrow.count} sampled key metrics are exactly unchanged (the change is never exercised); for the others the paired interval is ${Number.isFinite(narrow.medianRatioOthers) ? narrow.medianRatioOthers.toFixed(2) : '-'} times as wide as two independent runs' (median)`
          : 'no sampled metric',
      ],
      ...(hasSampledEngagements(batch.cells)
        ? ([
            ['sequential stopping', `after ${facts.settings.minTrials} trials, at |shift| > ${fmtZ(facts.settings.sequentialZ)} se or |shift| + ${fmtZ(facts.settings.sequentialZ)} se < ${facts.settings.settle}; at most ${facts.settings.maxTrials} (the batch's trials and precision targets are not used)`],
            ['intervals', `shift ± ${fmtZ(facts.settings.intervalZ)} se, paired and unpaired alike: repeated 95% confidence intervals over the looks from ${facts.settings.minTrials} to ${facts.settings.maxTrials} trials, so an interval covers the true shift at least 95% of the time whichever look stopped its engagement (a plain ±1.96 se would cover less)`],
          ] as Array<[string, string]>)
        : []),
      ...battleFacts(facts.settings),
      ...(fdrMoved(diffs, 'key').family ? ([['false discovery rate', fdrText(diffs)]] as Array<[string, string]>) : []),
    ],
    warnings: [],
    placeholders: placeholdersOf(diffs),
    sections,
  });
  const manifest = JSON.stringify(
    {
      format: 'jwsim-comparison-manifest/1',
      jwsim: JWSIM_VERSION,
      command_line: facts.commandLine,
      batch: { path: batch.file, sha256: batch.sha256 },
      units: batch.unitFiles,
      seed: batch.seed,
      threads: facts.threads,
      wall_seconds: Number(facts.wallSeconds.toFixed(3)),
      settings: facts.settings,
      placeholders_used: placeholdersOf(diffs),
      variants: batch.variants.map((v) => ({ name: v.name, rules: v.rules, rules_changes: getRulesVersion(v.rules).changes.map((c) => c.summary), options: v.options, overlay: overlayRef(v.overlay) })),
    },
    null,
    2,
  ) + '\n';
  return [
    ['comparison.csv', csv],
    ['comparison.json', json],
    ['index.html', html],
    ['manifest.json', manifest],
  ];
}
