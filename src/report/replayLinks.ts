// Sample games for the report: per battle experiment and variant, game 0 of the run (fleets
// not swapped) is played again with a trace and drawn as replays/<engagement>-<variant>.svg
// and .html next to index.html, so a designer can look at what the AI actually did.
//
// Everything comes from the run folder: the scenario file and mirror flag from results.json,
// the seed from results.json, the variant's rules, options and overlay from manifest.json.
// The game is played on the run's own streams (named by the engagement id, as the workers
// name them), so it is the first game the run counted, not merely a game of the scenario.
// Same folder and files in, byte-identical pictures out. When the scenario (or an overlay)
// is gone, the battle gets a note instead of a picture and the report still builds.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GameResult } from '../engine/battle/game.js';
import { UserError } from '../errors.js';
import { sampleRosterFiles } from '../paths.js';
import { loadOverlay } from '../rules/overlay.js';
import type { Variant } from '../scenarios/batch.js';
import { loadScenario } from '../scenarios/scenario.js';
import { traceGame } from '../sim/battles.js';
import { compileVariant } from '../sim/cells.js';
import { renderReplayHtml, renderReplaySvg, replayModels, type ReplayInput } from './replay.js';
import type { Engagement, RunFolder } from './runFolder.js';
import { writeAtomically } from './runOutput.js';

/** The game of the run that is drawn: the first one, with the fleets in their scenario places. */
export const REPLAY_GAME = 0;

/** What the report shows for one battle: links to the drawn game, or why there is none. */
export type ReplayLink =
  | {
      readonly drawn: true;
      /** Paths relative to the report folder. */
      readonly svg: string;
      readonly html: string;
      /** The picture's size in pixels (for the thumbnail's aspect ratio). */
      readonly width: number;
      readonly height: number;
      readonly caption: string;
      /** Reasons to doubt that the picture is the run's game (inputs changed since the run). */
      readonly notes: readonly string[];
    }
  | { readonly drawn: false; readonly note: string };

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** A name safe in file names (the same rule as the report's chart files). */
const slug = (x: string) => x.replace(/[^A-Za-z0-9._-]/g, '_');

type Manifest = RunFolder['manifest'];

/** The variant as the run compiled it, rebuilt from manifest.json (the overlay read again from its path). */
function variantOf(manifest: Manifest, name: string, notes: string[]): Variant {
  const v = manifest.variants.find((x) => x.name === name);
  if (!v) throw new UserError(`manifest.json has no variant "${name}"`);
  let overlay: Variant['overlay'] = null;
  if (v.overlay) {
    if (!existsSync(v.overlay.path)) throw new UserError(`the variant's rules overlay ${v.overlay.path} is missing`);
    overlay = loadOverlay(v.overlay.path);
    if (overlay.sha256 !== v.overlay.sha256) notes.push(`the rules overlay ${v.overlay.path} changed since the run`);
  }
  return { name: v.name, rules: v.rules.replace(/^v/, ''), options: v.options, overlay };
}

const samePaths = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => resolve(x) === resolve(b[i]));

/**
 * The unit files that replaced the scenario's own list in the run: the batch's `units`, when
 * it named any. The batch file says so when it is still there unchanged; otherwise a batch
 * whose recorded unit files are the sample roster is taken to have named none.
 */
function unitOverride(manifest: Manifest): string[] | undefined {
  const files = (manifest.units ?? []).map((u) => u.path);
  const batch = manifest.batch as { path?: string; sha256?: string } | undefined;
  if (batch?.path && batch.sha256 && existsSync(batch.path)) {
    try {
      if (sha256(batch.path) === batch.sha256) {
        const data = JSON.parse(readFileSync(batch.path, 'utf8')) as { units?: unknown };
        return data.units === undefined ? undefined : files;
      }
    } catch {
      // unreadable now: fall through to the recorded files
    }
  }
  return files.length === 0 || samePaths(files, sampleRosterFiles()) ? undefined : files;
}

/** Plays game REPLAY_GAME of one battle engagement under one variant, with its trace. */
export function replayBattle(run: Pick<RunFolder, 'results' | 'manifest'>, e: Engagement): { input: ReplayInput; result: GameResult; notes: string[] } {
  if (!e.scenario) throw new UserError('results.json does not record its scenario file (written by an older jwsim)');
  if (!existsSync(e.scenario)) throw new UserError(`the scenario file ${e.scenario} is missing (moved or deleted since the run)`);
  const notes: string[] = [];
  const variant = variantOf(run.manifest, e.variant, notes);
  const rules = compileVariant(variant);
  // The run accepted these fleets (or it would have stopped), so fleet problems cannot stop the picture.
  const scenario = loadScenario(e.scenario, { rulesVersion: variant.rules, allowInvalidFleets: true, units: unitOverride(run.manifest) });
  const recorded = new Map((run.manifest.scenario_inputs ?? []).map((f) => [resolve(f.path), f.sha256]));
  for (const file of [scenario.file, ...scenario.roster.files]) {
    const then = recorded.get(resolve(file));
    if (then !== undefined && existsSync(file) && sha256(file) !== then) notes.push(`${file} changed since the run`);
  }
  const { battle, trace, result, fates } = traceGame(rules, scenario, run.results.seed, REPLAY_GAME, false, e.engagement);
  const input: ReplayInput = { scenario, seed: run.results.seed, game: REPLAY_GAME, models: replayModels(battle), trace, result, fates };
  return { input, result, notes };
}

/** The file stem of a battle's replay, unique within the report. */
function stemOf(e: Engagement, used: Set<string>): string {
  const base = `${slug(e.engagement)}-${slug(e.variant)}`;
  let stem = base;
  for (let k = 2; used.has(stem); k++) stem = `${base}-${k}`;
  used.add(stem);
  return stem;
}

/**
 * Draws the sample game of every battle into DIR/replays/ and returns, per battle (in the
 * order given), its links or the reason it has none. A battle that cannot be replayed
 * (scenario gone, overlay gone, files no longer valid) gets a note; other battles go on.
 */
export function writeReplays(dir: string, run: Pick<RunFolder, 'results' | 'manifest'>, battles: readonly Engagement[]): ReplayLink[] {
  const used = new Set<string>();
  const links: ReplayLink[] = [];
  for (const e of battles) {
    const stem = stemOf(e, used);
    let game: ReturnType<typeof replayBattle>;
    try {
      game = replayBattle(run, e);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      links.push({ drawn: false, note: `No sample game: ${err.message}.` });
      continue;
    }
    const svg = renderReplaySvg(game.input);
    const size = /^<svg [^>]*width="([\d.]+)" height="([\d.]+)"/.exec(svg);
    mkdirSync(join(dir, 'replays'), { recursive: true });
    writeAtomically(join(dir, 'replays'), [
      [`${stem}.svg`, svg],
      [`${stem}.html`, renderReplayHtml(game.input)],
    ]);
    const r = game.result;
    const outcome = r.winner === 2 ? 'a draw' : `${r.winner === 0 ? 'A' : 'B'} (${game.input.scenario.sides[r.winner].name}) wins`;
    links.push({
      drawn: true,
      svg: `replays/${stem}.svg`,
      html: `replays/${stem}.html`,
      width: size ? Number(size[1]) : 800,
      height: size ? Number(size[2]) : 600,
      caption: `Game ${REPLAY_GAME} of this run (fleets in their scenario places, seed ${run.results.seed}, streams of ${e.engagement}): ${outcome}, ${r.endedEarly ? `ended early: ${r.endReason}` : r.endReason}. Click for the full picture and every model's fate; jwsim battle --scenario ${e.scenario} --seed ${run.results.seed} --streams ${e.engagement} --game N --trace game.json (with the variant's rules) traces game N of the run.`,
      notes: game.notes.map((n) => `This picture may not be the run's game: ${n}.`),
    });
  }
  return links;
}
