import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { lectures, videos } from '../db/schema';
import { probe } from '../media/ffmpeg';
import { SEGMENT_SECONDS } from '../media/ladder';
import { mediaKey, sourceKey, tempDir, UPLOADS_PREFIX, VIDEOS_PREFIX, videoPrefix } from '../storage/keys';
import { makeClip, readBytes, tools, uploadForm } from '../test/fixtures';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario, createClass, joinClass } from '../test/scenario';
import { expectPermissions, expectRefused, type PermissionRow } from '../test/tables';

let h: Harness;
let clips: string;
let teacher: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;
let courseId: string;

beforeAll(async () => {
  h = await startHarness({ MAX_UPLOAD_BYTES: String(3 * 1024 * 1024) });
  clips = mkdtempSync(join(tmpdir(), 'classroom-clips-'));
  const cast = await classScenario(h, {
    names: { teacher: 'Vera Video', otherTeacher: 'Walt Other', student: 'Sid Student', outsider: 'Olly Outsider' },
    courseName: 'Film 101',
  });
  ({ teacher, otherTeacher, student, outsider } = cast);
  courseId = cast.course?.id as string;
});
afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

async function upload(file: string, as = teacher.token, name = 'lecture.mp4') {
  return h.api('POST', '/api/upload', { as, body: uploadForm(readBytes(file), name) });
}

async function waitForVideo(videoId: string, as = teacher.token, until = ['ready', 'failed']) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await h.api('GET', `/api/videos/${videoId}`, { as });
    if (until.includes(result.json.status)) return result.json;
    if (Date.now() > deadline) throw new Error(`video ${videoId} stuck in ${result.json.status}`);
    await Bun.sleep(200);
  }
}

/** Width and height of a rung, read by ffprobe from its init file in storage (the local disk or S3). */
async function rungSize(videoId: string, rung: number) {
  const copy = await h.storage.localCopy(mediaKey(videoId, { kind: 'init', rung }));
  if (!copy) throw new Error(`no init file for rung ${rung}`);
  const info = await probe(tools, copy.path).finally(() => copy.release());
  const video = info?.streams.find((s) => s.codec_type === 'video');
  return { width: video?.width, height: video?.height, profile: video?.codec_name };
}

/** The files a video has in storage. */
const storedFiles = async (videoId: string) => (await h.storage.listFiles(videoPrefix(videoId))).length;
const stored = async (key: string) => (await h.storage.stat(key)) !== undefined;
const storedText = async (key: string) => new Response(await h.storage.get(key)).text();
const tempFiles = (harness: Harness) => {
  const dir = tempDir(harness.config.scratchDir);
  return existsSync(dir) ? readdirSync(dir) : [];
};
/** Temp files, and originals no video names (a video's own is kept until a lecture shows it: it may be trimmed). */
const leftovers = async () => {
  const kept = new Set((await h.db.select({ id: videos.id }).from(videos)).map((video) => sourceKey(video.id)));
  const originals = (await h.storage.list(UPLOADS_PREFIX)).map((name) => `${UPLOADS_PREFIX}/${name}`);
  return [...tempFiles(h), ...originals.filter((key) => !kept.has(key))];
};

describe('transcoding', () => {
  test('every address in every playlist of a ready video answers, whatever the size (one rung or several)', async () => {
    for (const [width, height] of [
      [160, 120],
      [320, 240],
      [640, 360],
    ] as const) {
      const uploaded = await upload(await makeClip(clips, { width, height, seconds: 3, name: `every-${width}.mp4` }));
      await waitForVideo(uploaded.json.videoId);
      const base = `/media/videos/${uploaded.json.videoId}`;
      const get = async (path: string) => h.api('GET', path, { as: teacher.token });
      const uris = (text: string) =>
        text
          .split('\n')
          .flatMap((line) =>
            line.startsWith('#') ? [...line.matchAll(/URI="([^"]+)"/g)].map((m) => m[1] ?? '') : [line],
          )
          .filter((line) => line.trim() !== '');
      const master = await get(`${base}/master.m3u8`);
      expect(master.status).toBe(200);
      const checked: string[] = [];
      for (const variant of uris(master.text)) {
        const playlist = await get(`${base}/${variant}`);
        expect({ variant, status: playlist.status }).toEqual({ variant, status: 200 });
        const dir = variant.slice(0, variant.lastIndexOf('/') + 1);
        for (const entry of uris(playlist.text)) {
          const file = await get(`${base}/${dir}${entry}`);
          expect({
            width,
            entry: `${dir}${entry}`,
            status: file.status,
            nosniff: file.headers.get('x-content-type-options'),
          }).toEqual({ width, entry: `${dir}${entry}`, status: 200, nosniff: 'nosniff' });
          checked.push(entry);
        }
      }
      expect(checked.some((entry) => entry.startsWith('init_'))).toBe(true);
    }
  });

  test('a landscape upload becomes 240p and 360p (never upscaled), with a master playlist carrying every attribute', async () => {
    const clip = await makeClip(clips, { width: 640, height: 360, seconds: 7 });
    const uploaded = await upload(clip);
    expect(uploaded.status).toBe(201);
    expect(uploaded.json.masterPlaylist).toBe(`/media/videos/${uploaded.json.videoId}/master.m3u8`);
    const video = await waitForVideo(uploaded.json.videoId);
    expect(video).toMatchObject({ status: 'ready', progress: 100, width: 640, height: 360, fileName: 'lecture.mp4' });
    expect(video.posterUrl).toBeString();

    const master = await h.api('GET', uploaded.json.masterPlaylist, { as: teacher.token });
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const streams = master.text.split('\n').filter((line) => line.startsWith('#EXT-X-STREAM-INF:'));
    expect(streams).toHaveLength(2);
    for (const line of streams) {
      expect(line).toMatch(/BANDWIDTH=\d+/);
      expect(line).toMatch(/AVERAGE-BANDWIDTH=\d+/);
      expect(line).toMatch(/FRAME-RATE=30\.000/);
      expect(line).toContain('CODECS="avc1.4d401f,mp4a.40.2"');
    }
    expect(streams[0]).toContain('RESOLUTION=426x240');
    expect(streams[1]).toContain('RESOLUTION=640x360');
    expect(await rungSize(video._id, 0)).toMatchObject({ width: 426, height: 240, profile: 'h264' });
    expect(await rungSize(video._id, 1)).toMatchObject({ width: 640, height: 360 });

    const rung = await storedText(mediaKey(video._id, { kind: 'playlist', rung: 0 }));
    expect(rung).toContain('#EXT-X-ENDLIST');
    expect(rung).toContain(`#EXTINF:${SEGMENT_SECONDS}.000000,`);
    // The original is kept while no lecture shows the video (its owner may still trim it); the sweep removes it once
    // one does (src/routes/resumable-uploads.test.ts).
    expect(await stored(sourceKey(video._id))).toBe(true);

    const poster = await fetch(`${h.baseUrl}${video.posterUrl}`, {
      headers: { authorization: `Bearer ${teacher.token}` },
    });
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    const segment = await fetch(`${h.baseUrl}/media/videos/${video._id}/0/seg_00000.m4s`, {
      headers: { authorization: `Bearer ${teacher.token}`, range: 'bytes=0-99' },
    });
    expect(segment.status).toBe(206);
    expect(segment.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    expect(segment.headers.get('cache-control')).toContain('private');
    expect((await segment.arrayBuffer()).byteLength).toBe(100);
  });

  test('a portrait upload without audio keeps its aspect ratio, scaled on the short side', async () => {
    const clip = await makeClip(clips, { width: 360, height: 640, seconds: 3, audio: false, fps: 60 });
    const uploaded = await upload(clip);
    expect(uploaded.status).toBe(201);
    const video = await waitForVideo(uploaded.json.videoId);
    expect(video.status).toBe('ready');
    expect(await rungSize(video._id, 0)).toMatchObject({ width: 240, height: 426 });
    expect(await rungSize(video._id, 1)).toMatchObject({ width: 360, height: 640 });
    const master = await h.api('GET', uploaded.json.masterPlaylist, { as: teacher.token });
    expect(master.text).toContain('CODECS="avc1.4d401f"');
    expect(master.text).toContain('FRAME-RATE=30.000');
  });
});

describe('refused uploads leave no file behind', () => {
  test('not a video, empty, truncated, and a student uploading', async () => {
    const cases: { name: string; bytes: Uint8Array; status: number; error: RegExp }[] = [
      {
        name: 'notes.txt',
        bytes: new TextEncoder().encode('just some text, not a video'),
        status: 400,
        error: /not a video/,
      },
      { name: 'empty.mp4', bytes: new Uint8Array(0), status: 400, error: /empty/ },
    ];
    const clip = readBytes(await makeClip(clips, { width: 320, height: 240, seconds: 2, name: 'whole.mp4' }));
    cases.push({
      name: 'truncated.mp4',
      bytes: clip.slice(0, Math.floor(clip.length / 3)),
      status: 400,
      error: /not a video/,
    });
    for (const { name, bytes, status, error } of cases) {
      const result = await h.api('POST', '/api/upload', { as: teacher.token, body: uploadForm(bytes, name) });
      expect(result.status).toBe(status);
      expect(result.json.error).toMatch(error);
    }
    const byStudent = await h.api('POST', '/api/upload', { as: student.token, body: uploadForm(clip, 'x.mp4') });
    expect(byStudent.status).toBe(403);
    const anonymous = await h.api('POST', '/api/upload', { body: uploadForm(clip, 'x.mp4') });
    expect(anonymous.status).toBe(401);
    expect(await leftovers()).toEqual([]);
  });

  test('an over-size upload is refused from its Content-Length, and mid-stream when it has none', async () => {
    const big = new Uint8Array(4 * 1024 * 1024);
    const declared = await h.api('POST', '/api/upload', { as: teacher.token, body: uploadForm(big, 'big.mp4') });
    expect(declared.status).toBe(413);
    expect(declared.json.error).toContain('upload limit');

    const form = new Response(uploadForm(big, 'big.mp4'));
    const contentType = form.headers.get('content-type') ?? '';
    const body = form.body as ReadableStream<Uint8Array>;
    const streamed = await fetch(`${h.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${teacher.token}`, 'content-type': contentType },
      body,
      // @ts-expect-error Bun streams a request body without a length when given a stream
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    await Bun.sleep(100);
    expect(await leftovers()).toEqual([]);

    // A declared length far over the cap (a terabyte) still gets our JSON 413, not Bun's bare one, on both routes.
    for (const [path, extra] of [
      ['/api/upload', 'Content-Type: multipart/form-data; boundary=x\r\n'],
      ['/api/courses', 'Content-Type: application/json\r\n'],
    ]) {
      const url = new URL(h.baseUrl);
      let answer = '';
      const socket = await Bun.connect({
        hostname: url.hostname,
        port: Number(url.port),
        socket: {
          data(_socket, chunk) {
            answer += new TextDecoder().decode(chunk);
          },
        },
      });
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${teacher.token}\r\n${extra}Content-Length: 1099511627776\r\n\r\n`,
      );
      const deadline = Date.now() + 5000;
      while (!answer.includes('}') && Date.now() < deadline) await Bun.sleep(20);
      socket.end();
      expect({ path, status: answer.split(' ')[1] }).toEqual({ path, status: '413' });
      expect(answer).toContain('"code":"too_large"');
    }
  });

  test('a client that disconnects mid-upload leaves nothing behind', async () => {
    const boundary = 'classroomboundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="uploadedFile"; filename="cut.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
    const url = new URL(h.baseUrl);
    const socket = await Bun.connect({
      hostname: url.hostname,
      port: Number(url.port),
      socket: { data() {} },
    });
    socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${teacher.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n${head}`,
    );
    socket.write(new Uint8Array(512 * 1024));
    await Bun.sleep(300);
    expect(tempFiles(h).length).toBe(1);
    socket.end();
    const deadline = Date.now() + 5000;
    while ((await leftovers()).length > 0 && Date.now() < deadline) await Bun.sleep(50);
    expect(await leftovers()).toEqual([]);
  });
});

describe('lectures', () => {
  test('create, list, rename, replace the video, clear it and delete; files go with the rows', async () => {
    const first = await upload(await makeClip(clips, { width: 320, height: 240, seconds: 2, name: 'a.mp4' }));
    const created = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: '  Optics  ', videoLink: first.json.masterPlaylist },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ courseId, nameOfTopic: 'Optics', noOfViews: 0, noOfLikes: 0 });
    expect(['pending', 'processing', 'completed']).toContain(created.json.processingStatus);
    // videoLink is null until something plays, then the path of the master playlist.
    if (created.json.processingStatus !== 'completed') expect(created.json.videoLink).toBeNull();
    await waitForVideo(first.json.videoId);
    expect((await h.api('GET', `/api/lectures/${created.json._id}`, { as: teacher.token })).json).toMatchObject({
      videoLink: first.json.masterPlaylist,
      processingStatus: 'completed',
      processingError: null,
    });
    expect(await storedFiles(first.json.videoId)).toBeGreaterThan(0);

    const list = await h.api('GET', `/api/lectures/course/${courseId}`, { as: student.token });
    expect(list.json.map((l: { _id: string }) => l._id)).toContain(created.json._id);
    const asStudent = await h.api('GET', `/api/lectures/${created.json._id}`, { as: student.token });
    expect(asStudent.json.video.status).toBe('ready');

    const second = await upload(await makeClip(clips, { width: 320, height: 240, seconds: 2, name: 'b.mp4' }));
    const replaced = await h.api('PATCH', `/api/lectures/${created.json._id}/update`, {
      as: teacher.token,
      body: { nameOfTopic: 'Optics, part 1', videoLink: second.json.masterPlaylist },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ nameOfTopic: 'Optics, part 1' });
    expect(replaced.json.video._id).toBe(second.json.videoId);
    expect(await storedFiles(first.json.videoId)).toBe(0);
    expect(await h.db.$count(videos, eq(videos.id, first.json.videoId))).toBe(0);
    await waitForVideo(second.json.videoId);

    const cleared = await h.api('PATCH', `/api/lectures/${created.json._id}/update`, {
      as: teacher.token,
      body: { nameOfTopic: 'Optics, notes only', videoLink: null },
    });
    expect(cleared.json.video).toBeNull();
    expect(cleared.json.videoLink).toBeNull();
    expect(await storedFiles(second.json.videoId)).toBe(0);

    const deleted = await h.api('DELETE', `/api/lectures/${created.json._id}`, { as: teacher.token });
    expect(deleted.json).toEqual({ message: 'Lecture deleted' });
    expect((await h.api('GET', `/api/lectures/${created.json._id}`, { as: teacher.token })).status).toBe(404);
  });

  test("a videoLink must be the teacher's own upload; names are checked", async () => {
    const mine = await upload(await makeClip(clips, { width: 320, height: 240, seconds: 2, name: 'c.mp4' }));
    const other = await h.api('POST', '/api/lectures', {
      as: otherTeacher.token,
      body: { courseId, nameOfTopic: 'Sneaky', videoLink: mine.json.masterPlaylist },
    });
    expect(other.status).toBe(404);
    const otherCourse = await h.api('POST', '/api/courses', { as: otherTeacher.token, body: { courseName: 'Other' } });
    const stolen = await h.api('POST', '/api/lectures', {
      as: otherTeacher.token,
      body: { courseId: otherCourse.json._id, nameOfTopic: 'Stolen', videoLink: mine.json.masterPlaylist },
    });
    expect(stolen.status).toBe(400);
    for (const videoLink of ['https://evil.example/x.m3u8', '/media/videos/../../etc/master.m3u8', 'nonsense']) {
      const result = await h.api('POST', '/api/lectures', {
        as: teacher.token,
        body: { courseId, nameOfTopic: 'X', videoLink },
      });
      expect(result.status).toBe(400);
    }
    const blank = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: '  ', videoLink: null },
    });
    expect(blank.status).toBe(400);
    expect(blank.json.fields.nameOfTopic).toBe('Please provide a topic name.');
    expect(await h.db.$count(lectures, inArray(lectures.nameOfTopic, ['Sneaky', 'Stolen', 'X']))).toBe(0);
  });

  test('permission table for lectures and media', async () => {
    const uploaded = await upload(await makeClip(clips, { width: 320, height: 240, seconds: 2, name: 'p.mp4' }));
    await waitForVideo(uploaded.json.videoId);
    const lecture = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'Permissions', videoLink: uploaded.json.masterPlaylist },
    });
    const id = lecture.json._id;
    const media = `/media/videos/${uploaded.json.videoId}`;
    const who = {
      anonymous: undefined,
      owner: teacher.token,
      otherTeacher: otherTeacher.token,
      student: student.token,
      outsider: outsider.token,
    };
    const rows: PermissionRow<keyof typeof who>[] = [
      { name: 'list', method: 'GET', path: `/api/lectures/course/${courseId}`, allowed: ['owner', 'student'] },
      { name: 'read', method: 'GET', path: `/api/lectures/${id}`, allowed: ['owner', 'student'] },
      { name: 'master', method: 'GET', path: `${media}/master.m3u8`, allowed: ['owner', 'student'] },
      { name: 'rung', method: 'GET', path: `${media}/0/index.m3u8`, allowed: ['owner', 'student'] },
      { name: 'segment', method: 'GET', path: `${media}/0/seg_00000.m4s`, allowed: ['owner', 'student'] },
      { name: 'poster', method: 'GET', path: `${media}/poster.jpg`, allowed: ['owner', 'student'] },
      { name: 'status', method: 'GET', path: `/api/videos/${uploaded.json.videoId}`, allowed: ['owner', 'student'] },
      {
        name: 'rename',
        method: 'PATCH',
        path: `/api/lectures/${id}/update`,
        body: { nameOfTopic: 'Permissions' },
        allowed: ['owner'],
      },
      {
        name: 'create',
        method: 'POST',
        path: '/api/lectures',
        body: { courseId, nameOfTopic: 'New', videoLink: null },
        allowed: ['owner'],
      },
    ];
    await expectPermissions(h, who, rows, { otherTeacher: 404, student: 403, outsider: 404 });
    for (const [name, as, status] of [
      ['anonymous', undefined, 401],
      ['another teacher', otherTeacher.token, 404],
      ['a student of the class', student.token, 403],
      ['an outsider', outsider.token, 404],
    ] as const) {
      await expectRefused(h, { name: `delete as ${name}`, as, method: 'DELETE', path: `/api/lectures/${id}`, status });
    }
    const traversal = await h.api('GET', `${media}/..%2F..%2Fclassroom.sqlite`, { as: teacher.token });
    expect(traversal.status).toBe(404);
    // Deleting the class takes its lectures and their video files.
    await h.api('DELETE', `/api/courses/${courseId}`, { as: teacher.token });
    expect(await storedFiles(uploaded.json.videoId)).toBe(0);
    expect(await h.db.$count(lectures, eq(lectures.id, id))).toBe(0);
  });
});

test('without ffprobe the upload answers 503 in plain words and keeps nothing', async () => {
  const broken = await startHarness({ FFPROBE_PATH: '/nonexistent/ffprobe' }, { worker: false });
  try {
    const who = await broken.signUp('teacher', 'No Tools');
    const result = await broken.api('POST', '/api/upload', {
      as: who.token,
      body: uploadForm(new Uint8Array(2048), 'x.mp4'),
    });
    expect(result.status).toBe(503);
    expect(result.json.error).toContain('not available');
    expect(tempFiles(broken)).toEqual([]);
  } finally {
    await broken.close();
  }
});

describe('the current open-source client', () => {
  let classId: string;
  beforeAll(async () => {
    const course = await createClass(h, teacher, 'Client 101');
    classId = course.id;
    await joinClass(h, student, course.inviteCode);
  });
  const formWith = (bytes: Uint8Array, fields: Record<string, string>) => {
    const form = uploadForm(bytes, 'topic.mp4');
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };

  test('an upload with courseId and nameOfTopic creates the topic; processingStatus runs to completed', async () => {
    const bytes = readBytes(await makeClip(clips, { width: 320, height: 240, seconds: 3, name: 'client.mp4' }));
    const answer = await h.api('POST', '/api/upload', {
      as: teacher.token,
      body: formWith(bytes, { courseId: classId, nameOfTopic: '  Waves  ' }),
    });
    expect(answer.status).toBe(201);
    expect(typeof answer.json.videoId).toBe('string');
    expect(typeof answer.json.lectureId).toBe('string');
    expect(answer.json.masterPlaylist).toBe(`/media/videos/${answer.json.videoId}/master.m3u8`);
    expect(['pending', 'processing']).toContain(answer.json.processingStatus);

    // While it processes the topic is listed with a null videoLink and its state, even once our web can play it
    // (video.playable): the pair never disagrees, as the spec's client reads it. A rename that sends that null back
    // keeps the video.
    const seen: string[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      const lecture = (await h.api('GET', `/api/lectures/${answer.json.lectureId}`, { as: student.token })).json;
      expect(lecture.nameOfTopic).toBe('Waves');
      seen.push(lecture.video.playable ? `${lecture.processingStatus} playable` : lecture.processingStatus);
      expect(lecture.video.masterPlaylist).toBe(answer.json.masterPlaylist);
      if (lecture.processingStatus === 'completed') {
        expect(lecture.videoLink).toBe(answer.json.masterPlaylist);
        break;
      }
      expect({ status: lecture.processingStatus, videoLink: lecture.videoLink }).toEqual({
        status: lecture.processingStatus,
        videoLink: null,
      });
      if (seen.length === 1) {
        const renamed = await h.api('PATCH', `/api/lectures/${answer.json.lectureId}/update`, {
          as: teacher.token,
          body: { nameOfTopic: 'Waves', videoLink: lecture.videoLink },
        });
        expect(renamed.json.video._id).toBe(answer.json.videoId);
      }
      if (Date.now() > deadline) throw new Error(`stuck in ${lecture.processingStatus}`);
      await Bun.sleep(100);
    }
    expect(seen.at(-1)).toBe('completed playable');
    const list = (await h.api('GET', `/api/lectures/course/${classId}`, { as: student.token })).json;
    expect(list.map((l: { _id: string }) => l._id)).toContain(answer.json.lectureId);
  });

  test("naming another teacher's class, or a topic without a name, keeps nothing", async () => {
    const bytes = readBytes(await makeClip(clips, { width: 320, height: 240, seconds: 1, name: 'refused.mp4' }));
    // The slide index of an earlier upload may still be running: it must not move rows between the snapshots.
    await h.jobsSettled();
    for (const [name, as, fields, status] of [
      ['another teacher', otherTeacher.token, { courseId: classId, nameOfTopic: 'Mine now' }, 404],
      ['no topic name', teacher.token, { courseId: classId }, 400],
      ['a bad course id', teacher.token, { courseId: '../etc', nameOfTopic: 'X' }, 400],
    ] as const) {
      const before = h.snapshot();
      const answer = await h.api('POST', '/api/upload', { as, body: formWith(bytes, fields) });
      expect({ name, status: answer.status }).toEqual({ name, status });
      expect(h.snapshot()).toEqual(before);
    }
    expect(await leftovers()).toEqual([]);
  });
});

test('after every upload and transcode above, media bytes are only in storage: none on the local disk with S3', async () => {
  // Every job done (the slide index runs after each transcode, with its own scratch folder).
  await h.jobsSettled();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path.slice(h.dataDir.length + 1));
    }
  };
  walk(h.dataDir);
  // The database and the signing secret are always local; nothing is left in the scratch folder.
  const local = files.filter((file) => !/^(classroom\.sqlite(-wal|-shm)?|jwt-secret)$/.test(file));
  expect(local.filter((file) => file.startsWith('scratch/'))).toEqual([]);
  const stored = (await h.storage.listFiles(VIDEOS_PREFIX)).length;
  expect(stored).toBeGreaterThan(0);
  if (h.storage.kind === 's3') expect(local).toEqual([]);
  else expect(local.every((file) => /^(videos|uploads|avatars)\//.test(file))).toBe(true);
});
