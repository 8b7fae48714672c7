import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip, makeFlashClip, readRung, tools } from '../test/fixtures';
import { runTool } from './ffmpeg';
import { planLadder, SEGMENT_SECONDS, SLIDES_FPS } from './ladder';
import { describeSource } from './probe';
import { looksStill, runTranscode } from './transcode';

const work = mkdtempSync(join(tmpdir(), 'classroom-transcode-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECONDS = 16;
const FLASH_AT = 9.3; // in the third segment: each segment before it could lose time to a wrong guess

describe('lecture-aware transcoding (real ffmpeg)', () => {
  const cases = [
    { kind: 'slides', audioLate: 0 },
    { kind: 'camera', audioLate: 0 },
    // A phone's or a screen recorder's sound track that starts after the picture keeps its place.
    { kind: 'slides', audioLate: 0.5 },
  ] as const;
  for (const { kind, audioLate } of cases) {
    const label = `${kind}${audioLate ? `, sound track starting ${audioLate} s late` : ''}`;
    test(`${label}: every rung keeps sound and picture together, keyframes and segments in step`, async () => {
      const source = await makeFlashClip(work, {
        name: `${kind}-${audioLate}.mp4`,
        seconds: SECONDS,
        flashAt: FLASH_AT,
        camera: kind === 'camera',
        audioLate,
      });
      const info = await describeSource(tools, source);
      if ('refused' in info) throw new Error(info.refused);
      const plan = planLadder(info);
      const out = join(work, `${kind}-${audioLate}`);
      const result = await runTranscode(tools, plan, source, out, () => {}, new AbortController().signal);
      expect(result.ok).toBe(true);
      // Told from the packets' sizes, nothing decoded before the ladder starts; the rate the master will state.
      expect({ fps: result.fps, by: result.stillBy }).toEqual({
        fps: kind === 'slides' ? SLIDES_FPS : 30,
        by: 'packets',
      });

      const rungs = await Promise.all(plan.rungs.map((_, i) => readRung(join(out, String(i), 'index.m3u8'))));
      expect(rungs.length).toBe(3);
      // Still slides at the slides' rate (looksStill), a camera at its own.
      const rate = kind === 'slides' ? SLIDES_FPS : 30;
      for (const [i, rung] of rungs.entries()) {
        const seen = { rung: i, flash: rung.flash, tone: rung.tone };
        // The picture turns white where the source does (at the next frame of the rung's rate at the latest), and the
        // tone starts with it: within a frame or two of a camera, within a slides frame.
        expect(Math.abs((rung.flash ?? 0) - FLASH_AT)).toBeLessThan(Math.max(0.15, 1 / rate + 0.02));
        const apart = Math.abs((rung.tone ?? 100) - (rung.flash ?? 0) - audioLate);
        expect({ ...seen, apart: apart < (kind === 'slides' ? 1 / rate + 0.02 : 0.05) }).toEqual({
          ...seen,
          apart: true,
        });
        // A constant frame rate: WebKit's MediaSource gives every frame the same duration, so a frame held longer
        // left a gap and the lecture did not play (issue 30).
        const times = rung.video.map((frame) => frame.at).sort((a, b) => a - b);
        const steps = times.slice(1).map((at, k) => at - (times[k] as number));
        expect({ rung: i, constant: steps.every((step) => Math.abs(step - 1 / rate) < 0.002) }).toEqual({
          rung: i,
          constant: true,
        });
        // Segments of 4 s, cut at the same times in every rung; a keyframe every 2 s, the same frames in each.
        expect(rung.durations).toEqual(rungs[0].durations);
        expect(rung.durations.slice(0, -1).every((d) => Math.abs(d - SEGMENT_SECONDS) < 0.01)).toBe(true);
        expect(rung.keyframes).toEqual(rungs[0].keyframes);
        const gaps = rung.keyframes.slice(1).map((t, k) => t - rung.keyframes[k]);
        expect(gaps.every((gap) => gap > 1.9 && gap < 2.1)).toBe(true);
        // The last frame plays to the end: nothing of the lecture is lost.
        expect(Math.max(...times)).toBeGreaterThan(SECONDS - 1 / rate - 0.01);
      }
      const frames = rungs[0].video.length;
      if (kind === 'slides') {
        // A still picture is not encoded 30 times a second, and starts at 0 (no B-frame delay: a gap WebKit stops at).
        expect(Math.abs(frames - SECONDS * SLIDES_FPS)).toBeLessThanOrEqual(1);
        expect(Math.min(...rungs[0].video.map((frame) => frame.at))).toBeLessThan(0.01);
      } else {
        // Moving grain: no frame repeats, none is dropped.
        expect(frames).toBeGreaterThanOrEqual(SECONDS * 30 - 1);
      }
    }, 120_000);
  }
});

describe('telling slides from a camera (real ffmpeg)', () => {
  const size = { width: 640, height: 360, seconds: 8 };
  const cases = [
    { name: 'a camera (every frame moves)', video: undefined, still: false, by: 'packets' },
    {
      name: 'slides (a picture changing every 4 s)',
      video: 'testsrc=s=640x360:r=0.25:d=8',
      still: true,
      by: 'packets',
    },
  ] as const;
  for (const { name, video, still, by } of cases) {
    test(`${name}: told from its packets' sizes, nothing decoded`, async () => {
      const source = await makeClip(work, { ...size, video, name: `${still ? 'still' : 'moving'}.mp4` });
      const info = await describeSource(tools, source);
      if ('refused' in info) throw new Error(info.refused);
      const check = await looksStill(tools, planLadder(info), source);
      expect({ still: check.still, by: check.by }).toEqual({ still, by });
      // A few packet listings: far under the ~1 CPU s that decoding samples of a 1080p source costs.
      expect(check.cpuSeconds).toBeLessThan(0.5);
    }, 60_000);
  }

  const undecided = [
    { name: 'keyframes only', encode: ['-g', '1'] },
    {
      name: 'padded to a constant bit rate',
      encode: [
        '-b:v',
        '1M',
        '-minrate',
        '1M',
        '-maxrate',
        '1M',
        '-bufsize',
        '1M',
        '-x264-params',
        'nal-hrd=cbr:filler=1',
      ],
    },
  ];
  for (const { name, encode } of undecided) {
    test(`slides ${name}: the packets cannot tell, the decoded frames do`, async () => {
      const source = join(work, `${name}.mp4`);
      const made = await runTool([
        ...[tools.ffmpegPath, '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=s=640x360:r=0.25:d=8', '-r', '30'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', ...encode, '-pix_fmt', 'yuv420p', source],
      ]);
      expect(made.exitCode).toBe(0);
      const info = await describeSource(tools, source);
      if ('refused' in info) throw new Error(info.refused);
      const check = await looksStill(tools, planLadder(info), source);
      expect({ still: check.still, by: check.by }).toEqual({ still: true, by: 'frames' });
    }, 60_000);
  }
});
