import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { downloads, jobs } from '../db/schema';
import { createLogger } from '../lib/log';
import { rungFiles } from '../media/download';
import { probe, runTool } from '../media/ffmpeg';
import { mediaKey } from '../storage/keys';
import { makeClip, readBytes, tools, uploadForm } from '../test/fixtures';
import type { Account, Harness } from '../test/harness';
import { startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';
import { expectRefused } from '../test/tables';
import { waitForVideo, waitUntil } from '../test/wait';
import { createWorker } from '../worker-jobs';
import { DOWNLOAD_REQUESTS_PER_HOUR } from './downloads';

let h: Harness;
let dir: string;
let teacher: Account;
let student: Account;
let outsider: Account;
let leaver: Account;
let rater: Account;
let courseId: string;
let lectureId: string;
let videoId: string;
let durationSeconds: number;

const TITLE = 'Cell division: mitosis / "meiosis"';

const downloadJobs = async () =>
  Number((await h.db.select({ n: sql<number>`count(*)` }).from(jobs).where(eq(jobs.type, 'download')))[0]?.n ?? 0);

/** ffprobe's view of a file: its format and each stream's codec and shape. */
async function probeFile(path: string) {
  const probed = await probe(tools, path);
  if (!probed) throw new Error(`ffprobe could not read ${path}`);
  return probed;
}

/** The MD5 of a file's video packets as they are (`-c copy`): the same only when nothing was re-encoded. */
async function videoPacketsHash(path: string) {
  const result = await runTool([
    tools.ffmpegPath,
    '-v',
    'error',
    '-i',
    path,
    '-map',
    '0:v:0',
    '-c',
    'copy',
    '-f',
    'md5',
    '-',
  ]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  return new TextDecoder().decode(result.stdout).trim();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'classroom-downloads-'));
  h = await startHarness();
  const cast = await classScenario(h, {
    names: { teacher: 'Dora Download', student: 'Sid Student', outsider: 'Oona Outside' },
    courseName: 'Biology offline',
    classmates: ['Lea Leaver', 'Rae Rate'],
  });
  ({ teacher, student, outsider } = cast);
  leaver = cast.classmates[0] as Account;
  rater = cast.classmates[1] as Account;
  courseId = cast.course?.id as string;
  const clip = await makeClip(dir, { width: 640, height: 360, seconds: 9, name: 'offline.mp4' });
  const uploaded = await h.api('POST', '/api/upload', {
    as: teacher.token,
    body: uploadForm(readBytes(clip), 'a.mp4'),
  });
  if (uploaded.status !== 201) throw new Error(`setup: upload (${uploaded.status}): ${uploaded.text}`);
  videoId = uploaded.json.videoId;
  await waitForVideo(
    'the lecture video',
    async () => (await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json,
  );
  durationSeconds = (await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json.durationSeconds;
  const made = await h.api('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId, nameOfTopic: TITLE, videoLink: uploaded.json.masterPlaylist },
  });
  if (made.status !== 201) throw new Error(`setup: lecture (${made.status}): ${made.text}`);
  lectureId = made.json._id;
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the MP4 download', () => {
  test('before anyone asks: none, with the rung and its size', async () => {
    const state = await h.api('GET', `/api/lectures/${lectureId}/download`, { as: student.token });
    expect(state.status).toBe(200);
    expect(state.json).toMatchObject({
      status: 'none',
      url: null,
      filename: 'Cell division mitosis meiosis.mp4',
      rung: { name: '360p', width: 640, height: 360 },
      error: null,
    });
    expect(state.json.bytes).toBeGreaterThan(10_000);
    expect(await downloadJobs()).toBe(0);
  });

  test('a student asks, the job remuxes the 360p rung without re-encoding, and the file is served as an attachment', async () => {
    const asked = await h.api('POST', `/api/lectures/${lectureId}/download`, { as: student.token });
    expect([200, 202]).toContain(asked.status);
    expect(['preparing', 'ready']).toContain(asked.json.status);
    const ready = await waitUntil(
      'the download to be ready',
      async () => {
        const state = (await h.api('GET', `/api/lectures/${lectureId}/download`, { as: student.token })).json;
        if (state.status === 'failed') throw new Error(`the download failed: ${state.error}`);
        return state.status === 'ready' ? state : undefined;
      },
      { timeoutMs: 60_000, everyMs: 100 },
    );
    expect(ready).toMatchObject({ progress: 100, url: `/api/lectures/${lectureId}/download/file`, error: null });

    const file = await fetch(`${h.baseUrl}${ready.url}`, { headers: { authorization: `Bearer ${student.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Cell division mitosis meiosis.mp4"; filename*=UTF-8''Cell%20division%20mitosis%20meiosis.mp4`,
    );
    expect(file.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.length).toBe(ready.bytes);
    const mp4 = join(dir, 'downloaded.mp4');
    writeFileSync(mp4, bytes);

    const probed = await probeFile(mp4);
    expect(probed.format.format_name).toContain('mp4');
    const video = probed.streams.find((stream) => stream.codec_type === 'video');
    const audio = probed.streams.find((stream) => stream.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    expect(Math.abs(Number(probed.format.duration) - durationSeconds)).toBeLessThan(0.5);
    // +faststart: the index (moov) comes before the media data (mdat).
    const text = new TextDecoder('latin1').decode(bytes.subarray(0, 64 * 1024));
    expect(text.indexOf('moov')).toBeGreaterThan(0);
    expect(text.indexOf('moov')).toBeLessThan(text.indexOf('mdat'));

    // No re-encode: the video packets are the rung's own, byte for byte.
    const playlist = await new Response(await h.storage.get(mediaKey(videoId, { kind: 'playlist', rung: 1 }))).text();
    const joined = join(dir, 'rung.mp4');
    const parts: Uint8Array[] = [];
    for (const part of rungFiles(playlist, 1)) {
      parts.push(new Uint8Array(await new Response(await h.storage.get(mediaKey(videoId, part))).arrayBuffer()));
    }
    writeFileSync(joined, Buffer.concat(parts));
    const rung = (await probeFile(joined)).streams.find((stream) => stream.codec_type === 'video');
    expect(video?.codec_name).toBe(rung?.codec_name as string);
    expect(await videoPacketsHash(mp4)).toBe(await videoPacketsHash(joined));

    // Ranges, as players and download managers ask.
    const range = await fetch(`${h.baseUrl}${ready.url}`, {
      headers: { authorization: `Bearer ${student.token}`, range: 'bytes=0-99' },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.subarray(0, 100));
  });

  test('asking again reuses the stored file: no new job, the same row', async () => {
    const rowsBefore = await h.db.select().from(downloads);
    const jobsBefore = await downloadJobs();
    for (const who of [student, teacher]) {
      const again = await h.api('POST', `/api/lectures/${lectureId}/download`, { as: who.token });
      expect(again.status).toBe(200);
      expect(again.json.status).toBe('ready');
    }
    expect(await downloadJobs()).toBe(jobsBefore);
    expect(jobsBefore).toBe(1);
    expect(await h.db.select().from(downloads)).toEqual(rowsBefore);
  });

  test('the offline manifest lists the rung playlist and files, fetchable by their signed URLs, with the total size', async () => {
    const manifest = await h.api('GET', `/api/lectures/${lectureId}/offline`, { as: student.token });
    expect(manifest.status).toBe(200);
    expect(manifest.json).toMatchObject({
      lectureId,
      lecture: `/api/lectures/${lectureId}`,
      rung: { name: '360p', width: 640, height: 360 },
      download: `/api/lectures/${lectureId}/download/file`,
    });
    expect(Date.parse(manifest.json.expiresAt)).toBeGreaterThan(Date.now());
    // No session needed for the signed files: a service worker's cache.add works with them as they are.
    const playlist = await fetch(`${h.baseUrl}${manifest.json.playlist}`);
    expect(playlist.status).toBe(200);
    const playlistText = await playlist.text();
    let total = playlistText.length;
    expect(manifest.json.files.length).toBeGreaterThanOrEqual(3);
    for (const url of manifest.json.files) {
      const part = await fetch(`${h.baseUrl}${url}`);
      expect({ url, status: part.status }).toEqual({ url, status: 200 });
      total += (await part.arrayBuffer()).byteLength;
    }
    expect(manifest.json.bytes).toBe(total);
    // The lecture's JSON, the poster and the captions need the session, as always.
    expect((await h.api('GET', manifest.json.lecture, { as: student.token })).status).toBe(200);
    if (manifest.json.poster)
      expect((await h.api('GET', manifest.json.poster, { as: student.token })).status).toBe(200);
    expect(manifest.json.captions).toEqual([]);
  });
});

describe('chapters of a lecture with a video', () => {
  test('no chapter may start past the end of the video, in the editor or the description; nothing changes', async () => {
    const late = {
      chapters: [
        { seconds: 0, title: 'Intro' },
        { seconds: 12, title: 'Late' },
      ],
    };
    const refused = await expectRefused(h, {
      name: 'editor past the end',
      as: teacher.token,
      method: 'PUT',
      path: `/api/lectures/${lectureId}/chapters`,
      body: late,
      status: 400,
      field: 'chapters',
      code: 'bad_chapters',
    });
    expect(refused.json.error).toBe('Chapter 2: 0:12 is past the end of the video (0:09).');
    await expectRefused(h, {
      name: 'description past the end',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/lectures/${lectureId}/update`,
      body: { description: '0:00 Intro\n0:12 Late' },
      status: 400,
      field: 'description',
      code: 'bad_chapters',
    });
    const fits = await h.api('PUT', `/api/lectures/${lectureId}/chapters`, {
      as: teacher.token,
      body: { chapters: [{ seconds: 0, title: 'Intro' }] },
    });
    expect(fits.json.chapters).toEqual([{ seconds: 0, title: 'Intro' }]);
  });
});

describe('who may download', () => {
  test('an outsider gets the lecture 404 on every route, and nothing changes', async () => {
    for (const [method, path] of [
      ['POST', `/api/lectures/${lectureId}/download`],
      ['GET', `/api/lectures/${lectureId}/download`],
      ['GET', `/api/lectures/${lectureId}/download/file`],
      ['GET', `/api/lectures/${lectureId}/offline`],
    ] as const) {
      await expectRefused(h, {
        name: `${method} ${path}`,
        as: outsider.token,
        method,
        path,
        status: 404,
        code: 'lecture_not_found',
      });
      await expectRefused(h, { name: `anonymous ${method} ${path}`, method, path, status: 401 });
    }
  });

  test('a lecture without a ready video has nothing to download', async () => {
    const bare = await h.api('POST', '/api/lectures', { as: teacher.token, body: { courseId, nameOfTopic: 'Soon' } });
    await expectRefused(h, {
      name: 'no video',
      as: student.token,
      method: 'POST',
      path: `/api/lectures/${bare.json._id}/download`,
      status: 409,
      code: 'no_video',
    });
  });

  test('with downloads off the class refuses students (clear error, nothing made); the teacher still may', async () => {
    const other = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'Same video, new lecture', videoLink: `/media/videos/${videoId}/master.m3u8` },
    });
    expect(other.status).toBe(201);
    const off = await h.api('PATCH', `/api/courses/${courseId}`, {
      as: teacher.token,
      body: { downloadsAllowed: false },
    });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ downloadsAllowed: false, courseName: 'Biology offline' });
    expect((await h.api('GET', `/api/courses/${courseId}`, { as: student.token })).json.downloadsAllowed).toBe(false);
    for (const [method, path] of [
      ['POST', `/api/lectures/${lectureId}/download`],
      ['GET', `/api/lectures/${lectureId}/download/file`],
      ['GET', `/api/lectures/${lectureId}/offline`],
    ] as const) {
      const refused = await expectRefused(h, {
        name: `downloads off: ${method} ${path}`,
        as: student.token,
        method,
        path,
        status: 403,
        code: 'downloads_off',
      });
      expect(refused.json.error).toBe('The teacher of this class does not allow downloads.');
    }
    const asTeacher = await h.api('POST', `/api/lectures/${lectureId}/download`, { as: teacher.token });
    expect(asTeacher.status).toBe(200);
    const file = await fetch(`${h.baseUrl}${asTeacher.json.url}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${teacher.token}` },
    });
    expect(file.status).toBe(200);
    expect(Number(file.headers.get('content-length'))).toBe(asTeacher.json.bytes);

    // A student cannot switch it back on.
    await expectRefused(h, {
      name: 'student switches downloads on',
      as: student.token,
      method: 'PATCH',
      path: `/api/courses/${courseId}`,
      body: { downloadsAllowed: true },
      status: 403,
    });
    await expectRefused(h, {
      name: 'not a boolean',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/courses/${courseId}`,
      body: { downloadsAllowed: 'yes' },
      status: 400,
      field: 'downloadsAllowed',
    });
    const on = await h.api('PATCH', `/api/courses/${courseId}`, {
      as: teacher.token,
      body: { downloadsAllowed: true },
    });
    expect(on.json.downloadsAllowed).toBe(true);
  });

  test('a student removed from the class can no longer download, and learns nothing (404)', async () => {
    const before = await h.api('GET', `/api/lectures/${lectureId}/download`, { as: leaver.token });
    expect(before.json.status).toBe('ready');
    const removed = await h.api('DELETE', `/api/courses/${courseId}/students/${leaver.user._id}`, {
      as: teacher.token,
    });
    expect(removed.status).toBe(200);
    for (const [method, path] of [
      ['POST', `/api/lectures/${lectureId}/download`],
      ['GET', `/api/lectures/${lectureId}/download`],
      ['GET', `/api/lectures/${lectureId}/download/file`],
      ['GET', `/api/lectures/${lectureId}/offline`],
    ] as const) {
      await expectRefused(h, {
        name: `removed: ${method} ${path}`,
        as: leaver.token,
        method,
        path,
        status: 404,
        code: 'lecture_not_found',
      });
    }
  });
});

describe('the rate of MP4 requests', () => {
  test(`a person may ask for ${DOWNLOAD_REQUESTS_PER_HOUR} MP4s an hour; the next is 429 with Retry-After, starts no job and writes no row`, async () => {
    // A second video nobody asked an MP4 of: a request that got through would make its row and its job.
    const clip = await makeClip(dir, { width: 320, height: 180, seconds: 3, name: 'rate.mp4' });
    const uploaded = await h.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'r.mp4'),
    });
    expect(uploaded.status).toBe(201);
    const freshVideoId: string = uploaded.json.videoId;
    await waitForVideo(
      'the second video',
      async () => (await h.api('GET', `/api/videos/${freshVideoId}`, { as: teacher.token })).json,
    );
    const made = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'Rates', videoLink: uploaded.json.masterPlaylist },
    });
    expect(made.status).toBe(201);
    const fresh = `/api/lectures/${made.json._id}/download`;
    const rowsOfFresh = () => h.db.select().from(downloads).where(eq(downloads.videoId, freshVideoId));

    // Up to the cap every request works as before (the first lecture's MP4 is ready: found, no new job).
    const jobsBefore = await downloadJobs();
    for (let i = 0; i < DOWNLOAD_REQUESTS_PER_HOUR; i++) {
      const allowed = await h.api('POST', `/api/lectures/${lectureId}/download`, { as: rater.token });
      expect({ i, status: allowed.status, state: allowed.json.status }).toEqual({ i, status: 200, state: 'ready' });
    }
    expect(await downloadJobs()).toBe(jobsBefore);

    // One more, for the video that has no copy: refused, and nothing is made.
    const refused = await expectRefused(h, {
      name: 'one request over the cap',
      as: rater.token,
      method: 'POST',
      path: fresh,
      status: 429,
      code: 'too_many_requests',
    });
    expect(refused.json.error).toMatch(/^Too many downloads asked for\. Please try again in \d+ minutes\.$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(50 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(await rowsOfFresh()).toEqual([]);
    expect(await downloadJobs()).toBe(jobsBefore);
    // Asking how it goes is not counted, and still answers.
    const state = await h.api('GET', fresh, { as: rater.token });
    expect({ status: state.status, state: state.json.status }).toEqual({ status: 200, state: 'none' });

    // Someone else is not held back: the student's request starts the copy, which is made.
    const other = await h.api('POST', fresh, { as: student.token });
    expect(other.status).toBe(202);
    expect(await rowsOfFresh()).toHaveLength(1);
    expect(await downloadJobs()).toBe(jobsBefore + 1);
    await waitUntil(
      'the second download',
      async () => {
        const now = (await h.api('GET', fresh, { as: student.token })).json;
        if (now.status === 'failed') throw new Error(now.error);
        return now.status === 'ready' ? now : undefined;
      },
      { timeoutMs: 60_000, everyMs: 100 },
    );
  });
});

describe('MEDIA_DELIVERY=redirect', () => {
  test('a download asked for while no worker runs is made by the next one; the file route sends the browser to the bucket, which answers the MP4 with its file name', async () => {
    const r = await startHarness({ MEDIA_DELIVERY: 'redirect' }, { storage: 's3' });
    try {
      const cast = await classScenario(r, { courseName: 'Redirected' });
      const clip = await makeClip(dir, { width: 426, height: 240, seconds: 5, name: 'redirect.mp4' });
      const uploaded = await r.api('POST', '/api/upload', {
        as: cast.teacher.token,
        body: uploadForm(readBytes(clip), 'r.mp4'),
      });
      expect(uploaded.status).toBe(201);
      await waitForVideo(
        'the redirected video',
        async () => (await r.api('GET', `/api/videos/${uploaded.json.videoId}`, { as: cast.teacher.token })).json,
      );
      const made = await r.api('POST', '/api/lectures', {
        as: cast.teacher.token,
        body: { courseId: cast.course?.id, nameOfTopic: 'Über Wellen', videoLink: uploaded.json.masterPlaylist },
      });
      const path = `/api/lectures/${made.json._id}/download`;
      // No worker runs (as while a server restarts): the request answers at once, the job waits in the database.
      await r.worker.stop();
      const asked = await r.api('POST', path, { as: cast.student.token });
      expect(asked.status).toBe(202);
      expect(asked.json).toMatchObject({ status: 'preparing', rung: { name: '240p', width: 426, height: 240 } });
      await Bun.sleep(500);
      expect((await r.api('GET', path, { as: cast.student.token })).json.status).toBe('preparing');
      // A worker started afterwards (the restarted process) takes it up and finishes it.
      const restarted = createWorker({
        config: r.config,
        db: r.db,
        storage: r.storage,
        log: createLogger({ level: 'silent', format: 'json' }),
      });
      restarted.start();
      let ready: { url: string; bytes: number };
      try {
        ready = await waitUntil('the redirected download', async () => {
          const state = (await r.api('GET', path, { as: cast.student.token })).json;
          if (state.status === 'failed') throw new Error(state.error);
          return state.status === 'ready' ? state : undefined;
        });
      } finally {
        await restarted.stop();
      }
      const answer = await fetch(`${r.baseUrl}${ready.url}`, {
        headers: { authorization: `Bearer ${cast.student.token}` },
        redirect: 'manual',
      });
      expect(answer.status).toBe(302);
      const location = answer.headers.get('location') as string;
      expect(new URL(location).searchParams.get('response-content-disposition')).toBe(
        `attachment; filename="_ber Wellen.mp4"; filename*=UTF-8''%C3%9Cber%20Wellen.mp4`,
      );
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="_ber Wellen.mp4"; filename*=UTF-8''%C3%9Cber%20Wellen.mp4`,
      );
      expect((await file.arrayBuffer()).byteLength).toBe(ready.bytes);
    } finally {
      await r.close();
    }
  });
});
