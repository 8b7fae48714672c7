import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount } from './server';

/**
 * Whatever a teacher uploads (sizes from an old 160×120 clip to 4K, portrait, 60 fps, a phone's rotated video, a
 * variable frame rate, no audio), once ffprobe accepts it, it plays in Chromium at every rung its master lists.
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
    for (;;) {
      const video = await teacher.api('GET', `/api/videos/${videoId}`);
      if (video.status === 'ready') break;
      expect({ source: source.name, status: video.status, error: video.error }).not.toEqual({
        source: source.name,
        status: 'failed',
        error: video.error,
      });
      await Bun.sleep(250);
    }
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
