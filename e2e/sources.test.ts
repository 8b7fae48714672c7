import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip, makeFlashClip } from '../src/test/fixtures';
import { waitForVideo } from '../src/test/wait';
import { e2eEnvironment } from './environment';
import { createAccount } from './server';

/**
 * Whatever a teacher uploads (sizes from an old 160×120 clip to 4K, portrait, 60 fps, a phone's rotated video, a
 * variable frame rate, no audio, a still slide), once ffprobe accepts it, it plays in Chromium at every rung its master
 * lists.
 */
const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-sources-'));
afterAll(() => rmSync(clips, { recursive: true, force: true }));

type Source = { name: string; make: () => Promise<string>; shown: 'landscape' | 'portrait' };
const SECONDS = 4;
const clip = (name: string, options: Omit<Parameters<typeof makeClip>[1], 'seconds' | 'name'>) => () =>
  makeClip(clips, { seconds: SECONDS, name: `${name.replace(/\W+/g, '-')}.mp4`, ...options });

const SOURCES: Source[] = [
  { name: '160×120', make: clip('160x120', { width: 160, height: 120 }), shown: 'landscape' },
  { name: '320×240', make: clip('320x240', { width: 320, height: 240 }), shown: 'landscape' },
  { name: '426×240, no audio', make: clip('426x240', { width: 426, height: 240, audio: false }), shown: 'landscape' },
  { name: '640×480 (4:3)', make: clip('640x480', { width: 640, height: 480 }), shown: 'landscape' },
  { name: '1080×1920 portrait', make: clip('1080x1920', { width: 1080, height: 1920 }), shown: 'portrait' },
  { name: '3840×2160', make: clip('3840x2160', { width: 3840, height: 2160, fps: 25 }), shown: 'landscape' },
  { name: '60 fps', make: clip('60fps', { width: 1280, height: 720, fps: 60 }), shown: 'landscape' },
  // Stored 640×360, shown turned: a phone held upright.
  { name: 'rotated phone video', make: clip('rotated', { width: 640, height: 360, rotate: 90 }), shown: 'portrait' },
  {
    name: 'slides (a still picture)',
    make: () => makeFlashClip(clips, { name: 'still.mp4', seconds: SECONDS, flashAt: 2, camera: false }),
    shown: 'landscape',
  },
  {
    name: 'variable frame rate',
    // Half of each second at 30 fps, the other half at 6 fps, with the frames' own times kept.
    make: clip('vfr', {
      width: 640,
      height: 360,
      filter: "select='if(lt(mod(n\\,30)\\,15)\\,1\\,not(mod(n\\,5)))'",
      vfr: true,
    }),
    shown: 'landscape',
  },
];

test('every source in the table plays in Chromium at every rung its master playlist lists', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Table Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Every Source' });
  const lectures: { source: Source; lectureId: string; videoId: string }[] = [];
  for (const source of SOURCES) {
    const form = new FormData();
    form.append('uploadedFile', Bun.file(await source.make()));
    form.append('courseId', course._id);
    form.append('nameOfTopic', source.name);
    const uploaded = await teacher.api('POST', '/api/upload', form);
    expect({ source: source.name, lectureId: typeof uploaded.lectureId }).toEqual({
      source: source.name,
      lectureId: 'string',
    });
    lectures.push({ source, lectureId: uploaded.lectureId, videoId: uploaded.videoId });
  }
  for (const { source, videoId } of lectures) {
    await waitForVideo(`the ${source.name} source`, () => teacher.api('GET', `/api/videos/${videoId}`), {
      timeoutMs: 300_000,
      everyMs: 250,
    });
  }

  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'token', value: teacher.token, url: env.server.baseUrl }]);
  const page = await context.newPage();
  const played: string[] = [];
  for (const { source, lectureId } of lectures) {
    const lecture = await teacher.api('GET', `/api/lectures/${lectureId}`);
    const master = await (
      await fetch(`${env.server.baseUrl}${lecture.videoLink}`, {
        headers: { authorization: `Bearer ${teacher.token}` },
      })
    ).text();
    const rungs = [...master.matchAll(/RESOLUTION=(\d+)x(\d+)/g)].map((match) => ({
      width: Number(match[1]),
      height: Number(match[2]),
    }));
    expect({ source: source.name, rungs: rungs.length > 0 }).toEqual({ source: source.name, rungs: true });
    for (const [index, rung] of rungs.entries()) {
      // The quality the player remembers on this device: this rung.
      await page.goto(`${env.server.baseUrl}/login`);
      await page.evaluate((level) => localStorage.setItem('classroom.player.quality', String(level)), index);
      await page.goto(`${env.server.baseUrl}/classroom/${course._id}?lecture=${lectureId}`);
      const player = page.getByTestId('video-player');
      await player.getByRole('button', { name: 'Play', exact: true }).first().click();
      await page.waitForFunction(
        () => {
          const video = document.querySelector('video') as HTMLVideoElement;
          return video.currentTime > 1 && video.videoWidth > 0;
        },
        undefined,
        { timeout: 30_000 },
      );
      const shown = await page.evaluate(() => {
        const video = document.querySelector('video') as HTMLVideoElement;
        return {
          width: video.videoWidth,
          height: video.videoHeight,
          level: video.closest('[data-level]')?.getAttribute('data-level'),
        };
      });
      expect({ source: source.name, rung: index, shown }).toEqual({
        source: source.name,
        rung: index,
        shown: { width: rung.width, height: rung.height, level: String(index) },
      });
      expect({ source: source.name, orientation: rung.height > rung.width ? 'portrait' : 'landscape' }).toEqual({
        source: source.name,
        orientation: source.shown,
      });
      played.push(`${source.name} @ ${rung.width}×${rung.height}`);
    }
  }
  console.log(`played: ${played.join('; ')}`);
  expect(played.length).toBeGreaterThanOrEqual(SOURCES.length);
  await context.close();
}, 600_000);

test('a slides lecture and a camera lecture play across segments and switch rungs mid-play, with no gap in the buffer', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Switch Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Slides and Camera' });
  const lectures: { kind: string; lectureId: string; videoId: string }[] = [];
  for (const kind of ['slides', 'camera']) {
    const form = new FormData();
    const file = await makeFlashClip(clips, {
      name: `${kind}-16s.mp4`,
      seconds: 16,
      flashAt: 9,
      camera: kind === 'camera',
    });
    form.append('uploadedFile', Bun.file(file));
    form.append('courseId', course._id);
    form.append('nameOfTopic', `${kind} lecture`);
    const uploaded = await teacher.api('POST', '/api/upload', form);
    lectures.push({ kind, lectureId: uploaded.lectureId, videoId: uploaded.videoId });
  }
  for (const { kind, videoId } of lectures) {
    await waitForVideo(`the ${kind} lecture`, () => teacher.api('GET', `/api/videos/${videoId}`), { everyMs: 250 });
  }
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'token', value: teacher.token, url: env.server.baseUrl }]);
  const page = await context.newPage();
  const playhead = () =>
    page.evaluate(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      const ranges = Array.from({ length: video.buffered.length }, (_, i) => [
        video.buffered.start(i),
        video.buffered.end(i),
      ]);
      return { time: video.currentTime, height: video.videoHeight, duration: video.duration, ranges };
    });
  for (const { kind, lectureId } of lectures) {
    // Start at the lowest rung, at double speed.
    await page.goto(`${env.server.baseUrl}/login`);
    await page.evaluate(() => localStorage.setItem('classroom.player.quality', '0'));
    await page.goto(`${env.server.baseUrl}/classroom/${course._id}?lecture=${lectureId}`);
    const player = page.getByTestId('video-player');
    await player.getByRole('button', { name: 'Play', exact: true }).first().click();
    await player.getByLabel('Playback speed', { exact: true }).selectOption('2');
    await page.waitForFunction(() => (document.querySelector('video') as HTMLVideoElement).currentTime > 7, undefined, {
      timeout: 30_000,
    });
    const before = await playhead();
    // The timeline starts at 0 and what is buffered has no hole in it, across the first segment boundaries (4 s).
    expect({
      kind,
      height: before.height,
      ranges: before.ranges.length,
      start: (before.ranges[0]?.[0] ?? 9) < 0.2,
    }).toEqual({
      kind,
      height: 240,
      ranges: 1,
      start: true,
    });
    // Into the second segment, switch to the top rung; it plays on to the end, past the next segment boundary.
    await player.getByLabel('Quality', { exact: true }).selectOption({ label: '720p' });
    await page.waitForFunction(
      () => {
        const video = document.querySelector('video') as HTMLVideoElement;
        return video.videoHeight === 720 && (video.currentTime > 13.5 || video.ended);
      },
      undefined,
      { timeout: 30_000 },
    );
    const after = await playhead();
    // The lecture's 16 s, and no hole in the buffer after the switch either (boundaries at 8 and 12 s).
    expect({ kind, duration: Math.abs(after.duration - 16) < 0.3, ranges: after.ranges.length }).toEqual({
      kind,
      duration: true,
      ranges: 1,
    });
    await expect(player.getByRole('alert').count()).resolves.toBe(0);
  }
  await context.close();
}, 300_000);
