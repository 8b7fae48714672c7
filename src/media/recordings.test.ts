import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRecordingClip, readRung, tools } from '../test/fixtures';
import { probe, runTool } from './ffmpeg';
import { planLadder } from './ladder';
import { describeSource } from './probe';
import { runTranscode } from './transcode';

const work = mkdtempSync(join(tmpdir(), 'classroom-recordings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECONDS = 7;
const FLASH_AT = 4.3;

describe('what browsers record becomes a ladder (real ffmpeg)', () => {
  for (const container of ['webm', 'mp4'] as const) {
    const label =
      container === 'webm' ? "Chromium's WebM (no duration, starts at 3 s, variable rate)" : "Safari's fragmented MP4";
    test(`${label}: its real length, from 0, constant rate, sound with the picture`, async () => {
      const source = await makeRecordingClip(work, {
        name: `rec.${container}`,
        seconds: SECONDS,
        flashAt: FLASH_AT,
        container,
      });
      if (container === 'webm') {
        // As MediaRecorder leaves it: no stream says how long it runs, and the first timestamp is not 0.
        const raw = await probe(tools, source);
        expect(raw?.streams.map((stream) => stream.duration)).toEqual([undefined, undefined]);
        expect(raw?.streams.map((stream) => Number(stream.start_time) >= 2.9)).toEqual([true, true]);
        // A second and a half of frames missing (variable rate).
        const counted = await runTool([
          ...[tools.ffprobePath, '-v', 'error', '-select_streams', 'v:0', '-count_packets'],
          ...['-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', source],
        ]);
        expect(Number(new TextDecoder().decode(counted.stdout))).toBeLessThan((SECONDS - 1.4) * 30);
      }
      const info = await describeSource(tools, source);
      if ('refused' in info) throw new Error(info.refused);
      expect(Math.abs(info.durationMs / 1000 - SECONDS)).toBeLessThan(0.2);
      expect(info.hasAudio).toBe(true);

      const plan = planLadder(info);
      const out = join(work, container);
      const result = await runTranscode(tools, plan, source, out, () => {}, new AbortController().signal);
      expect(result.ok).toBe(true);
      for (const [i] of plan.rungs.entries()) {
        const rung = await readRung(join(out, String(i), 'index.m3u8'));
        const times = rung.video.map((frame) => frame.at).sort((a, b) => a - b);
        const seen = { rung: i, flash: rung.flash, tone: rung.tone };
        // Starts at 0 (but for a camera's B-frame delay, 2 frames) and runs its whole length (±1 s), at a constant
        // rate, the missing frames filled.
        expect(times[0]).toBeLessThan(0.1);
        const length = rung.durations.reduce((sum, d) => sum + d, 0);
        expect(Math.abs(length - SECONDS)).toBeLessThan(1);
        const steps = times.slice(1).map((at, k) => at - (times[k] as number));
        expect({ rung: i, constant: steps.every((step) => Math.abs(step - 1 / plan.fps) < 0.002) }).toEqual({
          rung: i,
          constant: true,
        });
        // The flash where the recording has it, and its tone with it: sound in sync.
        expect({ ...seen, flashed: Math.abs((rung.flash ?? 0) - FLASH_AT) < 0.1 }).toEqual({ ...seen, flashed: true });
        expect({ ...seen, together: Math.abs((rung.tone ?? 100) - (rung.flash ?? 0)) < 0.06 }).toEqual({
          ...seen,
          together: true,
        });
      }
    }, 120_000);
  }
});
