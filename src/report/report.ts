// The report of a run folder: charts (Vega-Lite specs, SVG, PNG under charts/) and a
// self-contained index.html. `jwsim run` writes it at the end; `jwsim report DIR` redoes it,
// with a nightly run's gate and trends where the folder holds them (nightly.json).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Z95 } from '../stats/intervals.js';
import { interruptNote, undoOnInterrupt } from '../io/interrupt.js';
import { KEY_METRIC, attackProfile, battleUnitDamage, efficiencyTrends, matchupMatrix, pointsEfficiency, timeToKill, versionComparison, type Shift, type VegaLiteSpec } from './charts.js';
import { readNightlyRecord, type NightlyExtras } from './nightlyRecord.js';
import { byExcess, thresholdOf } from './gate.js';
import { acrossRosters, battleEfficiency, modelFitNote, unitEfficiency, type UnitEfficiency } from './efficiency.js';
import { signedPercent } from '../numbers.js';
import { page, type Section } from './html.js';
import { render } from './render.js';
import { readRunFolder, type Engagement, type RunFolder } from './runFolder.js';
import { REPLAY_GAME, writeReplays, type ReplayLink } from './replayLinks.js';
import { UserError } from '../errors.js';

const f3 = (x: number) => x.toFixed(3);
/** A name safe in file names and element ids. */
const slug = (x: string) => x.replace(/[^A-Za-z0-9._-]/g, '_');
const se = (m: { low: number; high: number }) => (m.high - m.low) / (2 * Z95);

/** Shifts from variant `from` to `to`: every unit's score vs field, and every non-duel engagement's key metric. */
export function shifts(run: RunFolder['results'], eff: Map<string, UnitEfficiency[]>, from: string, to: string): Shift[] {
  const out: Shift[] = [];
  const a = new Map(eff.get(from)!.map((u) => [u.id, u]));
  for (const u of eff.get(to)!) {
    const p = a.get(u.id);
    if (!p) continue;
    const d = u.score.value - p.score.value;
    const h = Z95 * Math.hypot(se(u.score), se(p.score));
    out.push({ label: `${u.name}: score vs field`, metric: 'score vs field', difference: d, low: d - h, high: d + h });
  }
  const byKey = new Map(run.experiments.filter((e) => e.variant === from).map((e) => [e.engagement, e]));
  for (const e of run.experiments.filter((x) => x.variant === to && x.kind !== 'duel')) {
    const p = byKey.get(e.engagement);
    if (!p) continue;
    const m = KEY_METRIC[e.kind];
    const d = e.metrics[m].value - p.metrics[m].value;
    const h = Z95 * Math.hypot(se(e.metrics[m]), se(p.metrics[m]));
    out.push({ label: `${e.engagement}`, metric: m, difference: d, low: d - h, high: d + h });
  }
  return out;
}

/**
 * Per battle experiment and variant: its sample game (`replays`, in the same order), then the
 * unit types' figures (results.json `units`) as a table and a chart of damage per 100 TV.
 * Results written before battles reported unit types have none, and get no unit part.
 */
async function battleUnitParts(battles: readonly Engagement[], drawn: (id: string, spec: VegaLiteSpec | null) => Promise<Pick<Section, 'svg' | 'files'> | null>, replays: readonly ReplayLink[]): Promise<Section[]> {
  const parts: Section[] = [];
  for (const [i, e] of battles.entries()) {
    parts.push(replayPart(e, replays[i]));
    if (!e.units?.length) continue;
    const id = `battle-units-${slug(e.engagement)}-${slug(e.variant)}`;
    const d = await drawn(id, battleUnitDamage(e));
    parts.push({
      id,
      title: `Unit types: ${e.engagement}, ${e.variant}`,
      intro: `Over ${e.games ?? e.trials ?? 0} games, every model of a type in every game is one appearance (both sides pooled). Rates are shares of appearances; damage is Structure taken off the enemy, mean per appearance, and per 100 TV of the type (battle-based points efficiency: see the README). Intervals take the trial (a game, or a mirrored pair) as the sampling unit, since models of one type in the same game, and a type's figures in the two games of a pair, are not independent.`,
      ...(d ?? {}),
      table: {
        columns: ['unit', 'id', 'TV', 'models per game', 'sides', 'appearances', 'destroyed', 'crippled', 'withdrawn', 'captured', 'Structure dealt', 'per 100 TV', '95% low', '95% high'],
        rows: [...e.units]
          .sort((a, b) => b.damage_per_100_tv.value - a.damage_per_100_tv.value)
          .map((u) => [u.name, u.id, u.tv, u.models_per_game, u.sides.join('+'), u.appearances, f3(u.destroyed_rate), f3(u.crippled_rate), f3(u.withdrawn_rate), f3(u.captured_rate ?? 0), f3(u.damage_dealt), f3(u.damage_per_100_tv.value), f3(u.damage_per_100_tv.low), f3(u.damage_per_100_tv.high)]),
      },
    });
  }
  return parts;
}

/** A battle's sample game: a thumbnail linking to its replay page, or the note saying why there is none. */
function replayPart(e: Engagement, link: ReplayLink): Section {
  const base = { id: `battle-replay-${slug(e.engagement)}-${slug(e.variant)}`, title: `Sample game: ${e.engagement}, ${e.variant}` };
  if (!link.drawn) return { ...base, notes: [link.note] };
  return {
    ...base,
    notes: [...link.notes],
    figure: { src: link.svg, href: link.html, alt: `Replay of game ${REPLAY_GAME} of ${e.engagement} (${e.variant})`, width: link.width, height: link.height, caption: link.caption },
  };
}

/** What a report puts in its run folder: the page, and the folders of its chart and replay files. */
const REPORT_FOLDERS = ['charts', 'replays'] as const;
const REPORT_PAGE = 'index.html';

/** A file-system failure while writing the report (disk full, no permission): the user's to fix, not a bug. */
function writeFailure(dir: string, err: unknown, doing: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (err instanceof UserError || typeof code !== 'string' || code.startsWith('ERR_')) return err;
  return new UserError(`${dir}: cannot ${doing} (${code}); nothing of the report was changed`);
}

/** The report's files go where folders and files of the same names are of the right kind (or absent). */
function checkReportTargets(dir: string): void {
  const kind = (path: string) => {
    try {
      return statSync(path, { throwIfNoEntry: false });
    } catch (err) {
      throw writeFailure(dir, err, `check ${path}`);
    }
  };
  const page = kind(join(dir, REPORT_PAGE));
  if (page?.isDirectory()) throw new UserError(`${join(dir, REPORT_PAGE)}: is a folder; the report writes its page there: move or remove that folder, then run jwsim report again`);
  for (const name of REPORT_FOLDERS) {
    const st = kind(join(dir, name));
    if (st && !st.isDirectory()) throw new UserError(`${join(dir, name)}: is a file, not a folder; the report writes its ${name === 'charts' ? 'chart' : 'replay'} files there: move or remove that file, then run jwsim report again`);
  }
}

/**
 * Puts a report built in `stage` in place: the run folder's charts/ and replays/ are replaced
 * as a whole (stale files of an earlier report go), then index.html. On a failure every move
 * is undone, so the folder holds the earlier report (or none), never half of this one.
 */
function publishReport(stage: string, dir: string): void {
  const undo: Array<[from: string, to: string]> = [];
  try {
    for (const name of REPORT_FOLDERS) {
      const target = join(dir, name);
      const fresh = join(stage, name);
      if (existsSync(target)) {
        const old = join(stage, `old-${name}`);
        renameSync(target, old);
        undo.push([old, target]);
      }
      if (existsSync(fresh)) {
        renameSync(fresh, target);
        undo.push([target, fresh]);
      }
    }
    renameSync(join(stage, REPORT_PAGE), join(dir, REPORT_PAGE));
  } catch (err) {
    for (const [from, to] of undo.reverse()) {
      try {
        renameSync(from, to);
      } catch {
        // best effort: the original error is the one to report
      }
    }
    throw writeFailure(dir, err, 'put the report in place');
  }
}

export async function renderReport(dir: string): Promise<string> {
  // Everything that can be wrong with the inputs is checked before anything is written.
  const run = readRunFolder(dir);
  // A nightly run's folder keeps its gate and trends (nightly.json): its report shows them again.
  const nightly = readNightlyRecord(dir) ?? undefined;
  checkReportTargets(dir);
  // The report is built in a hidden folder inside the run folder (same file system, so the
  // final moves are renames) and moved into place only when every file of it is written.
  let stage: string;
  try {
    stage = mkdtempSync(join(dir, '.report-'));
  } catch (err) {
    throw writeFailure(dir, err, 'write the report here');
  }
  const dropStage = () => rmSync(stage, { recursive: true, force: true });
  const forget = undoOnInterrupt(dropStage); // Ctrl-C while charts render: no hidden folder left
  try {
    await buildReport(run, stage, nightly);
    publishReport(stage, dir);
  } catch (err) {
    throw writeFailure(dir, err, 'write the report');
  } finally {
    forget();
    try {
      dropStage();
    } catch {
      // a leftover hidden folder is harmless; the report itself is complete or absent
    }
  }
  interruptNote(`nothing is lost: ${dir} is complete`); // an interrupt while jwsim shuts down
  return join(dir, REPORT_PAGE);
}

/** Renders the report of `run` into `out` (index.html, charts/, replays/). */
async function buildReport(run: RunFolder, out: string, nightly?: NightlyExtras): Promise<void> {
  const { dir, results, manifest } = run;
  const chartsDir = join(out, 'charts');
  const sections: Section[] = [];
  /** PNGs still being drawn (render), each written when done; all awaited before the page. */
  const pngs: Array<Promise<void>> = [];
  /** Renders a spec and writes charts/ID.{vl.json,svg}, and ID.png once resvg has drawn it; null for no chart. */
  const drawn = async (id: string, spec: VegaLiteSpec | null): Promise<Pick<Section, 'svg' | 'files'> | null> => {
    if (!spec) return null;
    const { svg, png } = await render(spec);
    mkdirSync(chartsDir, { recursive: true });
    writeFileSync(join(chartsDir, `${id}.vl.json`), JSON.stringify(spec, null, 2) + '\n');
    writeFileSync(join(chartsDir, `${id}.svg`), svg);
    const written = png.then((buf) => writeFileSync(join(chartsDir, `${id}.png`), buf));
    written.catch(() => {}); // rethrown where all are awaited
    pngs.push(written);
    return { svg, files: [`charts/${id}.vl.json`, `charts/${id}.svg`, `charts/${id}.png`] };
  };
  const chart = async (id: string, title: string, intro: string, spec: VegaLiteSpec | null, tableRows?: Section['table']) => {
    const d = await drawn(id, spec);
    if (d) sections.push({ id, title, intro, ...d, table: tableRows });
  };
  const eff = new Map<string, UnitEfficiency[]>();
  for (const v of results.variants) {
    const units = unitEfficiency(results, v.name);
    eff.set(v.name, units);
    const vslug = slug(v.name);
    await chart(`matchups-${vslug}`, `Duel matrix, ${v.name}`, 'The row unit\'s score against the column unit: its wins plus half its draws (many duels end in draws); hover a cell for wins, draws, losses, the interval and the number of duels.', matchupMatrix(results, v.name));
    // Battle-based figures join the table when the variant's battles field the unit.
    const inBattles = battleEfficiency(results, v.name);
    const battleColumns = units.some((u) => inBattles.has(u.id));
    const battleCells = (id: string) => {
      const b = inBattles.get(id);
      return battleColumns ? (b ? [`${f3(b.value)} (${f3(b.low)}-${f3(b.high)})`] : ['']) : [];
    };
    const fit = modelFitNote(units);
    await chart(`efficiency-${vslug}`, `Points efficiency, ${v.name}`, `See the README for the definitions and the assumptions behind fair TV.${fit ? ` ${fit}` : ''} The table is sorted by fair TV over TV (change = fair TV / TV - 1).${battleColumns ? ' The last column is Structure dealt per 100 TV in whole games (this run\'s battles), with its 95% interval.' : ''}`, pointsEfficiency(units, v.name), {
      columns: ['unit', 'TV', 'fair TV', 'fair TV 95% low', 'fair TV 95% high', 'roster range', 'change', 'verdict', 'across rosters', 'misfit', 'score vs field', 'TV-weighted score', 'Structure per 100 TV', 'duels', ...(battleColumns ? ['Structure per 100 TV in battles'] : [])],
      rows: [...units].sort((x, y) => y.fairTv.value / y.tv - x.fairTv.value / x.tv).map((u) => [u.name, u.tv, u.fairTv.value.toFixed(1), u.fairTv.low.toFixed(1), u.fairTv.high.toFixed(1), Number.isFinite(u.rosterRange.low) ? `${u.rosterRange.low.toFixed(1)}-${u.rosterRange.high.toFixed(1)}` : '-', Number.isFinite(u.fairTv.value) ? signedPercent(u.fairTv.value / u.tv - 1) : '-', u.verdict, acrossRosters(u.holdsAcrossRosters), f3(u.misfit), f3(u.score.value), f3(u.tvWeightedScore.value), f3(u.damagePer100Tv.value), u.duels, ...battleCells(u.id)]),
    });
    await chart(`attacks-${vslug}`, `Attack profiles, ${v.name}`, 'What each attack, volley and ram of the batch does to its target.', attackProfile(results, v.name));
    await chart(`time-to-kill-${vslug}`, `Time to decide, ${v.name}`, 'How quickly duels that a side won end (whichever side won; draws are left out); hover a line for its unit, 20 colours serving more units.', timeToKill(results, v.name));
  }
  if (nightly) {
    if (nightly.gate) {
      const g = nightly.gate;
      sections.push({
        id: 'gate',
        title: g.failures.length ? `Nightly gate: FAILED, ${g.failures.length} shifts beyond ${g.maxShift}` : 'Nightly gate: passed',
        intro: `Against ${nightly.baselineDir} (${g.sameSeed ? 'same seed: untouched results are identical' : 'different seed'}; ${g.checked} metrics checked). A shift fails when its interval excludes 0 and it exceeds its threshold: ${g.maxShift} for rates and probabilities; for means ${g.maxShift} times the baseline value, counted as at least 1 (so a mean below 1 may move by ${g.maxShift} in its own units; damage per 100 TV counts at least one Structure point on its scale, so it meets the same test as the Structure damage it scales). Rows: the significant shifts, failures first, then by shift over threshold. The intervals are simultaneous 95% intervals over the ${g.tested} sampled shifts that are not exactly 0 (Bonferroni, ±${g.z.toFixed(2)} standard errors), so noise alone fails a night with at most 5% chance.${g.unmatched.length ? ` Not compared: ${g.unmatched.length} engagements in only one run.` : ''}${g.shifts.some((x) => x.significant) ? '' : ' No shift was significant: the table is empty.'}`,
        table: {
          columns: ['engagement', 'variant', 'metric', 'baseline', 'now', 'shift', 'threshold', 'simultaneous 95% low', 'simultaneous 95% high', 'fails'],
          rows: byExcess(g.shifts.filter((x) => x.significant), g.maxShift).map((x) => [x.engagement, x.variant, x.metric, f3(x.baseline), f3(x.current), f3(x.shift), f3(thresholdOf(x, g.maxShift)), f3(x.low), f3(x.high), x.fails ? 'yes' : 'no']),
        },
      });
    } else {
      sections.push({ id: 'gate', title: 'Nightly gate: not run (first night)', intro: 'This nightly run had no --baseline, so nothing was gated; it is recorded in the history, and the next night can use this run folder as its baseline.' });
    }
    for (const v of results.variants) {
      await chart(`trends-${slug(v.name)}`, `Trends, ${v.name}`, 'Score vs field of each unit in every nightly run of this batch recorded in the history (x: the run\'s number in the history).', efficiencyTrends(nightly.trends, v.name));
    }
  }
  const battles = results.experiments.filter((e) => e.kind === 'battle');
  if (battles.length) {
    const rate = (m: { value: number; low: number; high: number } | undefined) => (m ? `${f3(m.value)} (${f3(m.low)}-${f3(m.high)})` : '');
    const mean = (m: { value: number } | undefined) => (m ? m.value.toFixed(2) : '');
    sections.push({
      id: 'battles',
      title: 'Battles',
      intro: 'Win rates per game with 95% intervals (a mirrored trial is two games, the fleets swapping table positions); A and B are the scenario\'s sides. Below, per battle, a sample game (the first game of the run, drawn from above: check that the fleets do something sensible) and its unit types. results.csv has every metric, the unit types\' figures as unit:ID:FIGURE.',
      table: {
        columns: ['engagement', 'variant', 'A', 'B', 'games', 'A wins', 'B wins', 'draws', 'turns', 'VP A', 'VP B', 'OP A', 'OP B', 'surviving TV A', 'surviving TV B'],
        rows: battles.map((e) => {
          const m = e.metrics;
          return [e.engagement, e.variant, e.a, e.b, e.games ?? e.trials ?? '', rate(m.a_win_rate), rate(m.b_win_rate), rate(m.draw_rate), mean(m.mean_turns), mean(m.mean_vp_a), mean(m.mean_vp_b), mean(m.mean_op_a), mean(m.mean_op_b), mean(m.mean_surviving_tv_a), mean(m.mean_surviving_tv_b)];
        }),
      },
      parts: await battleUnitParts(battles, drawn, writeReplays(out, run, battles)),
    });
  }
  const [first, ...others] = results.variants;
  for (const v of others) {
    await chart(
      `compare-${v.name.replace(/[^A-Za-z0-9._-]/g, '_')}`,
      `${first.name} vs ${v.name}`,
      'Intervals treat the two variants as independent runs, which overstates the noise: both replay the same dice (common random numbers). Red: the interval excludes zero. Each interval is 95% on its own and the largest shifts are drawn, so among many figures a rule does not touch, about 1 in 20 could show red by chance; jwsim compare gives paired intervals, and the nightly gate simultaneous ones.',
      versionComparison(shifts(results, eff, first.name, v.name), first.name, v.name),
    );
  }
  sections.push({
    id: 'results',
    title: 'All engagements',
    intro: 'Key metric of every engagement and variant (a_win_rate for duels and battles, mean Structure damage otherwise). results.csv has every metric.',
    table: {
      columns: ['engagement', 'variant', 'metric', 'value', '95% low', '95% high', 'trials'],
      rows: results.experiments.map((e) => {
        const m = KEY_METRIC[e.kind];
        return [e.engagement, e.variant, m, f3(e.metrics[m].value), f3(e.metrics[m].low), f3(e.metrics[m].high), e.trials ?? 'exact'];
      }),
    },
  });
  const facts: Array<[string, string]> = [
    ['run folder', dir],
    ['batch', `${(manifest.batch as { path: string; sha256: string }).path} (sha256 ${(manifest.batch as { sha256: string }).sha256.slice(0, 16)}...)`],
    ['seed', results.seed],
    ...manifest.variants.map((v): [string, string] => [`variant ${v.name}`, `rules v${v.rules}${v.rules_changes.length ? ` (${v.rules_changes.length} changes from its parent: ${v.rules_changes.join(' ')})` : ''}; options: ${v.options.length ? v.options.join(', ') : v.overlay?.options?.length ? 'none of its own' : 'defaults'}${v.overlay ? `; overlay ${v.overlay.path} (sha256 ${v.overlay.sha256.slice(0, 16)}...${v.overlay.options?.length ? `; sets ${v.overlay.options.join(', ')}` : ''})` : ''}${v.options_without_effect?.length ? `; without effect here: ${v.options_without_effect.map((x) => `${x.option} (${x.why})`).join('; ')}` : ''}`]),
    ['engagements', `${new Set(results.experiments.map((e) => e.engagement)).size} x ${results.variants.length} variants`],
    ['trials', String(results.experiments.reduce((a, e) => a + (e.trials ?? 0), 0))],
    ['threads, wall time', `${manifest.threads}, ${manifest.wall_seconds} s`],
    ['git commit', String(manifest.git_commit ?? 'unknown')],
  ];
  const html = page({ title: `jwsim report: ${(manifest.batch as { description?: string }).description ?? dir}`, facts, warnings: [...new Set(results.experiments.flatMap((e) => (e.warnings ?? []).map((w) => `${e.engagement} (${e.variant}): ${w}`)))], placeholders: manifest.placeholders_used ?? [], sections });
  await Promise.all(pngs);
  writeFileSync(join(out, REPORT_PAGE), html);
}
