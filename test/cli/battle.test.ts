// jwsim battle from the command line: results, determinism across threads, traces, and
// bad input (exit 2, a message naming the file or option, nothing on stdout).
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jwsim } from '../helpers/cli.js';
import { wilson } from '../../src/stats/intervals.js';

const STANDARD = 'scenarios/battles/standard-engagement.json';
const dir = mkdtempSync(join(tmpdir(), 'jwsim-battle-cli-'));

describe('jwsim battle', () => {
  it('reports win rates with intervals, per-unit fates and placeholders; threads do not change the numbers', () => {
    const one = jwsim('battle', '--scenario', STANDARD, '--trials', '70', '--mirror', '--threads', '0', '--json', '--seed', 'cli');
    expect(one.status).toBe(0);
    const a = JSON.parse(one.stdout);
    expect(a.games).toBe(140);
    expect(a.a.win.rate + a.b.win.rate + a.draw.rate).toBeCloseTo(1, 12);
    expect(a.a.win.low).toBeLessThanOrEqual(a.a.win.rate);
    expect(a.a.win.high).toBeGreaterThanOrEqual(a.a.win.rate);
    expect(a.units.length).toBeGreaterThan(3);
    // Each type names the fleets that field it: the standard engagement shares none between its fleets.
    expect(a.units.find((u: { id: string }) => u.id === 'jovian.alexander').sides).toEqual(['a']);
    expect(a.units.find((u: { id: string }) => u.id === 'unknown.corsair').sides).toEqual(['b']);
    for (const u of a.units) {
      expect(u.destroyed_rate + u.crippled_rate + u.withdrawn_rate).toBeLessThanOrEqual(1 + 1e-12);
      expect(u.damage_per_100_tv).toBeGreaterThanOrEqual(0);
      // Every figure has its interval around it (the trial as the sampling unit, as in results.csv).
      for (const f of ['destroyed_rate', 'crippled_rate', 'withdrawn_rate', 'captured_rate', 'damage_dealt', 'damage_per_100_tv']) {
        expect(u.intervals[f].low, `${u.id} ${f}`).toBeLessThanOrEqual(u[f] + 1e-12);
        expect(u.intervals[f].high, `${u.id} ${f}`).toBeGreaterThanOrEqual(u[f] - 1e-12);
      }
    }
    // Unmirrored, a type with one model a game: its rates' intervals are plain Wilson intervals over the games.
    const plain = JSON.parse(jwsim('battle', '--scenario', STANDARD, '--trials', '70', '--threads', '0', '--json', '--seed', 'cli').stdout);
    const single = plain.units.find((u: { appearances: number }) => u.appearances === plain.games);
    expect(single).toBeDefined();
    const w = wilson(Math.round(single.destroyed_rate * plain.games), plain.games);
    expect(single.intervals.destroyed_rate.low).toBe(w.low);
    expect(single.intervals.destroyed_rate.high).toBe(w.high);
    // Mirrored, the pair is the sampling unit: the same type's interval is not the one over games.
    const paired = a.units.find((u: { id: string }) => u.id === single.id);
    const overGames = wilson(Math.round(paired.destroyed_rate * a.games), a.games);
    expect(paired.intervals.destroyed_rate.high).not.toBe(overGames.high);
    expect(a.placeholders.length).toBeGreaterThan(0);
    const two = jwsim('battle', '--scenario', STANDARD, '--trials', '70', '--mirror', '--threads', '2', '--json', '--seed', 'cli');
    expect(two.status).toBe(0);
    const b = JSON.parse(two.stdout);
    expect(b.units).toEqual(a.units);
    expect(b.a).toEqual(a.a);
    expect(b.draw).toEqual(a.draw);
  }, 60_000);

  it('--trace writes one game with every activation', () => {
    const out = join(dir, 'trace.json');
    const r = jwsim('battle', '--scenario', STANDARD, '--trace', out, '--seed', '5');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`trace written to ${out}`);
    const t = JSON.parse(readFileSync(out, 'utf8'));
    expect(t.activations.length).toBe(t.result.activations);
    expect(t.endPhases.length).toBeLessThanOrEqual(7);
    for (const a of t.activations) {
      expect(a.before).toHaveProperty('x');
      expect(a.after).toHaveProperty('heading');
      for (const atk of a.attacks) expect(['short', 'long']).toContain(atk.band);
    }
    // Same seed, same game: byte-identical trace.
    const again = join(dir, 'trace2.json');
    expect(jwsim('battle', '--scenario', STANDARD, '--trace', again, '--seed', '5').status).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
  }, 30_000);

  it('bad input: exit 2 with a message naming the file or option, nothing on stdout', () => {
    const missing = jwsim('battle', '--scenario', join(dir, 'nope.json'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    expect(missing.stdout).toBe('');

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "format": "jwsim-scenario/1", ');
    const malformed = jwsim('battle', '--scenario', bad);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('bad.json');
    expect(malformed.stderr).toContain('not valid JSON');

    const policy = join(dir, 'policy.json');
    const s = JSON.parse(readFileSync(STANDARD, 'utf8'));
    s.units = [join(process.cwd(), 'scenarios/units/sample-roster.json')];
    s.sides.a.policy = { name: 'aggressive', params: { focus: 7 } };
    writeFileSync(policy, JSON.stringify(s));
    const param = jwsim('battle', '--scenario', policy, '--trials', '1');
    expect(param.status).toBe(2);
    expect(param.stderr).toContain('sides.a.policy.params.focus');
    expect(param.stderr).toContain('0..1');
    s.sides.a.policy = { name: 'aggressive', params: { embark: 99 } };
    writeFileSync(policy, JSON.stringify(s));
    const embark = jwsim('battle', '--scenario', policy, '--trials', '1');
    expect(embark.status).toBe(2);
    expect(embark.stderr).toContain('sides.a.policy.params.embark: 99 is out of range; allowed 0..60');
    expect(embark.stdout).toBe('');
    const shape = jwsim('battle', '--scenario', STANDARD, '--trials', '1', '--rule', 'squadron_base_shape=OVAL');
    expect(shape.status).toBe(2);
    expect(shape.stderr).toContain('squadron_base_shape: "OVAL" is not one of HEX, CIRCLE');
    expect(shape.stdout).toBe('');

    expect(jwsim('battle', '--scenario', STANDARD, '--trials', '0').status).toBe(2);
    const escalating = jwsim('battle', '--scenario', 'scenarios/battles/corner-escalation.json', '--rules', '1.2.1', '--trials', '1');
    expect(escalating.status).toBe(2);
    expect(escalating.stderr).toContain('GM-95');
    const noTrace = jwsim('battle', '--scenario', STANDARD, '--trace', join(dir, 'no-such-dir', 't.json'));
    expect(noTrace.status).toBe(2);
    expect(noTrace.stderr).toContain('--trace');
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  }, 60_000);

  it('output files: checked before the game is played, written all or none, never over an input', () => {
    const out = mkdtempSync(join(tmpdir(), 'jwsim-battle-out-'));
    const refuse = (args: string[], message: string) => {
      const r = jwsim('battle', '--scenario', STANDARD, ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    };
    // A bad --replay leaves no trace file behind (the trace used to be written first).
    refuse(['--trace', join(out, 't.json'), '--replay', join(out, 'nodir', 'r.svg')], `--replay: cannot write ${join(out, 'nodir', 'r.svg')}: the folder`);
    expect(existsSync(join(out, 't.json'))).toBe(false);
    // The trace is JSON: another extension is refused (the fuzz wrote JSON into x.html).
    refuse(['--trace', join(out, 'x.html')], `--trace: ${join(out, 'x.html')}: the file name must end in .json`);
    // A file where the folder should be is named as such.
    writeFileSync(join(out, 'plain'), 'x');
    refuse(['--trace', join(out, 'plain', 't.json')], `--trace: cannot write ${join(out, 'plain', 't.json')}: ${join(out, 'plain')} is a file, not a folder`);
    // The scenario itself, or one path for both files.
    const copy = join(out, 'scenario.json');
    writeFileSync(copy, readFileSync(STANDARD, 'utf8').replace(/"\.\.\/units\//g, `"${process.cwd()}/scenarios/units/`));
    const before = readFileSync(copy, 'utf8');
    const own = jwsim('battle', '--scenario', copy, '--trace', copy);
    expect(own.status).toBe(2);
    expect(own.stderr).toContain(`--trace: ${copy} is the scenario file of this run`);
    expect(readFileSync(copy, 'utf8')).toBe(before);
    // A fleet file the scenario names is an input too.
    const fleet = join(process.cwd(), 'scenarios', 'battles', 'fleets', 'raiding-group.json');
    const fleetBefore = readFileSync(fleet, 'utf8');
    const overFleet = jwsim('battle', '--scenario', join(process.cwd(), 'scenarios', 'battles', 'corner-escalation.json'), '--trace', fleet);
    expect(overFleet.status).toBe(2);
    expect(overFleet.stderr).toContain(`--trace: ${fleet} is a fleet file of this run`);
    expect(readFileSync(fleet, 'utf8')).toBe(fleetBefore);
    refuse(['--trace', join(out, 's.json'), '--replay', join(out, 's.json')], '--replay: ');
    refuse(['--trace', ''], '--trace: needs a file name');
    refuse(['--trace', out], 'is a folder');
    // Options that would do nothing.
    refuse(['--trace', join(out, 'j.json'), '--json'], '--json: has no effect with --trace or --replay');
    refuse(['--replay', join(out, 'm.svg'), '--mirror'], '--mirror: has no effect with --trace or --replay');
    refuse(['--trials', '4', '--game', '3'], '--game: applies only with --trace or --replay');
    expect(existsSync(join(out, 'j.json')) || existsSync(join(out, 'm.svg')) || existsSync(join(out, 's.svg'))).toBe(false);
    // Both files, on success.
    const ok = jwsim('battle', '--scenario', STANDARD, '--trace', join(out, 'g.json'), '--replay', join(out, 'g.html'), '--game', '1');
    expect(ok.status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'g.json'), 'utf8')).game).toBe(1);
    expect(readFileSync(join(out, 'g.html'), 'utf8')).toContain('<svg');
  }, 60_000);
});

describe('jwsim battle --streams: the games of a batch run', () => {
  it('with the batch seed and the engagement id, battle plays the same games as the batch experiment', () => {
    const batch = join(dir, 'streams-batch.json');
    writeFileSync(batch, JSON.stringify({
      format: 'jwsim-batch/1', units: [join(process.cwd(), 'scenarios/units/sample-roster.json')], seed: 'bs', variants: [{ name: 'v', rules: '1.2.2' }],
      experiments: [{ id: 'std', kind: 'battle', scenario: join(process.cwd(), STANDARD), trials: 6, mirror: false }],
    }));
    const out = join(dir, 'streams-run');
    expect(jwsim('run', batch, '--out', out, '--threads', '0', '--no-report').status).toBe(0);
    const e = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).experiments[0];
    expect(e.engagement).toBe('std/standard-engagement');
    const r = jwsim('battle', '--scenario', STANDARD, '--seed', 'bs', '--streams', e.engagement, '--trials', '6', '--threads', '0', '--json');
    expect(r.status).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.streams).toBe('std/standard-engagement');
    expect(b.a.win.rate).toBeCloseTo(e.metrics.a_win_rate.value, 5);
    expect(b.a.vp.mean).toBeCloseTo(e.metrics.mean_vp_a.value, 5);
    expect(b.b.op.mean).toBeCloseTo(e.metrics.mean_op_b.value, 5);
    // The scenario's own streams are other games.
    const own = JSON.parse(jwsim('battle', '--scenario', STANDARD, '--seed', 'bs', '--trials', '6', '--threads', '0', '--json').stdout);
    expect(own.streams).toBe('standard-engagement');
    expect([own.a.win.rate, own.a.vp.mean]).not.toEqual([b.a.win.rate, b.a.vp.mean]);
  }, 60_000);

  it('a name that no batch could write is refused', () => {
    const r = jwsim('battle', '--scenario', STANDARD, '--streams', 'two words');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`"two words" is not a stream name`);
  });
});

describe('jwsim battle: the crippled column', () => {
  it('says when no type can be Crippled under the rules (v1.2.2 defaults), and not when some can (v1.2.1)', () => {
    const v122 = jwsim('battle', '--scenario', STANDARD, '--trials', '4', '--threads', '0');
    expect(v122.stdout).toContain('crippled: no type here can be Crippled under these rules: a capital ship at 0 Structure is Destroyed (Catastrophic Damage Table); squadrons have no Crippled state (crippled_squadrons)\n');
    const v121 = jwsim('battle', '--scenario', STANDARD, '--trials', '4', '--threads', '0', '--rules', '1.2.1');
    expect(v121.status).toBe(0);
    expect(v121.stdout).not.toContain('no type here can be Crippled');
  }, 60_000);
});
