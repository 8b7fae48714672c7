import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { jobs, videos } from '../db/schema';
import { rebuildSearchIndex } from '../search/index';
import { imageInfo, makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';
import { makeSlidesClip, type SlidesClip } from '../test/slides-clip';
import { expectRefused } from '../test/tables';
import { waitForVideo, waitUntil } from '../test/wait';
import { SLIDE_CHANGES_PER_MINUTE } from './slides';

let h: Harness;
let clips: string;
let teacher: Account;
let student: Account;
let outsider: Account;
let otherTeacher: Account;
let clip: SlidesClip;
let lectureId: string;
let cameraLectureId: string;
let cameraVideoId: string;
let slidesVideoId: string;

type SlideAnswer = {
  id: string;
  seconds: number;
  thumbnail: string;
  text: string;
  title: string | null;
  hidden: boolean;
};

/** Six slides over 40 s: words to read, a build-up on the second, a cross-fade into the third. */
const SLIDES = [
  { seconds: 7, color: 'white', words: 'Photosynthesis' },
  { seconds: 7, color: 'lightyellow', words: 'Chlorophyll', buildUp: ['light energy', 'water', 'carbon dioxide'] },
  { seconds: 7, color: 'lightblue', words: 'Mitochondria', fadeIn: true },
  { seconds: 7, color: 'lightgreen', words: 'Respiration' },
  { seconds: 7, color: 'lightpink', words: 'Glucose' },
  { seconds: 6, color: 'lavender', words: 'Summary' },
];

async function upload(as: Account, file: string, courseId: string, nameOfTopic: string) {
  const form = uploadForm(readBytes(file), 'lecture.mp4');
  form.append('courseId', courseId);
  form.append('nameOfTopic', nameOfTopic);
  const uploaded = await h.api('POST', '/api/upload', { as: as.token, body: form });
  if (uploaded.status !== 201) throw new Error(`setup: the upload failed (${uploaded.status}): ${uploaded.text}`);
  return uploaded.json as { lectureId: string; videoId: string };
}

const slidesOf = (id: string, as: Account) => h.api('GET', `/api/lectures/${id}/slides`, { as: as.token });
const search = (q: string, as: Account) => h.api('GET', `/api/search?q=${encodeURIComponent(q)}`, { as: as.token });
const slideHits = async (q: string, as: Account) =>
  ((await search(q, as)).json?.hits ?? []).filter((hit: { kind: string }) => hit.kind === 'slide');

async function waitForIndex(id: string, state: 'ready' | 'none') {
  let seen = '';
  await waitUntil(
    `the slide index of ${id} to be ${state}`,
    async () => {
      seen = (await slidesOf(id, teacher)).headers.get('x-slide-index') ?? '';
      return seen === state;
    },
    { timeoutMs: 120_000, everyMs: 250, lastSeen: () => seen },
  );
}

beforeAll(async () => {
  h = await startHarness();
  clips = mkdtempSync(join(tmpdir(), 'classroom-slides-'));
  const cast = await classScenario(h, {
    names: { teacher: 'Sally Slides', otherTeacher: 'Otto Other', student: 'Stu Dent', outsider: 'Oona Outside' },
    courseName: 'Biology',
  });
  ({ teacher, student, outsider, otherTeacher } = cast);
  const courseId = cast.course?.id as string;
  clip = await makeSlidesClip(clips, SLIDES, { width: 854, height: 480, fps: 15 });
  const camera = await makeClip(clips, { width: 640, height: 360, seconds: 12, name: 'camera.mp4' });
  const slides = await upload(teacher, clip.path, courseId, 'Plants and energy');
  const cameraUpload = await upload(teacher, camera, courseId, 'In the garden');
  lectureId = slides.lectureId;
  cameraLectureId = cameraUpload.lectureId;
  cameraVideoId = cameraUpload.videoId;
  slidesVideoId = slides.videoId;
  for (const videoId of [slides.videoId, cameraVideoId]) {
    await waitForVideo(
      'the uploaded clip',
      async () => (await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json,
      { timeoutMs: 180_000 },
    );
  }
  await waitForIndex(lectureId, 'ready');
  await waitForIndex(cameraLectureId, 'none');
}, 400_000);

afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

describe('slide detection and words', () => {
  test('finds each change within half a second, one mark per fade and build-up, and reads the words', async () => {
    const answer = await slidesOf(lectureId, student);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-slide-index')).toBe('ready');
    const slides = answer.json as SlideAnswer[];
    // The four names the issue fixes, and nothing of the teacher's controls for a student.
    expect(Object.keys(slides[0] ?? {}).sort()).toEqual(['seconds', 'text', 'thumbnail', 'title']);
    expect(slides.length).toBe(clip.changes.length);
    for (const [i, change] of clip.changes.entries()) {
      const slide = slides[i] as SlideAnswer;
      expect({ change, found: Math.abs(slide.seconds - change) <= 0.5 }).toEqual({ change, found: true });
      const words = (SLIDES[i]?.words ?? '').toLowerCase();
      expect({ change, text: slide.text.toLowerCase().includes(words) }).toEqual({ change, text: true });
      expect(slide.title).toBeNull();
    }
    // The build-up's slide was read once its last line was in.
    expect(slides[1]?.text.toLowerCase()).toContain('carbon dioxide');
  });

  test('thumbnails are 320 px WebP for the class, 404 for an outsider', async () => {
    const slides = (await slidesOf(lectureId, student)).json as SlideAnswer[];
    const url = slides[2]?.thumbnail as string;
    expect(url).toMatch(new RegExp(`^/api/lectures/${lectureId}/slides/[A-Za-z0-9_-]+\\.webp$`));
    const got = await fetch(`${h.baseUrl}${url}`, { headers: { authorization: `Bearer ${student.token}` } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/webp');
    const info = await imageInfo(new Uint8Array(await got.arrayBuffer()));
    expect(info).toEqual({ codec: 'webp', width: 320, height: 180 });
    for (const who of [outsider, otherTeacher]) {
      const refused = await fetch(`${h.baseUrl}${url}`, { headers: { authorization: `Bearer ${who.token}` } });
      expect(refused.status).toBe(404);
    }
    const anonymous = await fetch(`${h.baseUrl}${url}`);
    expect(anonymous.status).toBe(401);
  });

  test('search finds the words on a slide as a slide hit with its second and thumbnail; an outsider finds nothing', async () => {
    const slides = (await slidesOf(lectureId, student)).json as SlideAnswer[];
    const hits = await slideHits('mitochondria', student);
    expect(hits.length).toBe(1);
    expect(hits[0]).toMatchObject({
      lectureId,
      kind: 'slide',
      seconds: slides[2]?.seconds,
      thumbnail: slides[2]?.thumbnail,
    });
    expect(hits[0].snippet.toLowerCase()).toContain('mitochondria');
    expect((await search('mitochondria', outsider)).json).toEqual({ hits: [], more: false });
    // A rebuilt index (after a restore, a move between engines) has the slides again.
    await rebuildSearchIndex(h.db);
    expect((await slideHits('mitochondria', student)).map((hit: { seconds: number }) => hit.seconds)).toEqual([
      slides[2]?.seconds,
    ]);
  });

  test('an outsider gets 404 for the slides; a camera lecture has no index', async () => {
    for (const who of [outsider, otherTeacher]) {
      const refused = await slidesOf(lectureId, who);
      expect(refused.status).toBe(404);
      expect(refused.json.code).toBe('lecture_not_found');
    }
    const camera = await slidesOf(cameraLectureId, student);
    expect(camera.status).toBe(200);
    expect(camera.headers.get('x-slide-index')).toBe('none');
    expect(camera.json).toEqual([]);
  });

  test('the master playlist states the rate each lecture was encoded at: 4 for slides, 30 for a camera', async () => {
    for (const [videoId, rate] of [
      [slidesVideoId, '4.000'],
      [cameraVideoId, '30.000'],
    ]) {
      const master = await h.api('GET', `/media/videos/${videoId}/master.m3u8`, { as: teacher.token });
      expect(master.status).toBe(200);
      const rates = [...master.text.matchAll(/FRAME-RATE=([\d.]+)/g)].map((m) => m[1]);
      expect(rates.length).toBeGreaterThan(0);
      expect(rates.every((r) => r === rate)).toBe(true);
    }
  });
});

describe("the teacher's controls", () => {
  test('a title shows on the slide and in search; a student and an outsider cannot give one', async () => {
    const slides = (await slidesOf(lectureId, teacher)).json as SlideAnswer[];
    const slide = slides[3] as SlideAnswer;
    expect(slide.hidden).toBe(false);
    const path = `/api/lectures/${lectureId}/slides/${slide.id}`;
    await expectRefused(h, {
      name: 'a student titles',
      as: student.token,
      method: 'PUT',
      path,
      body: { title: 'X' },
      status: 403,
    });
    await expectRefused(h, {
      name: 'an outsider titles',
      as: outsider.token,
      method: 'PUT',
      path,
      body: { title: 'X' },
      status: 404,
    });
    await expectRefused(h, {
      name: 'too long',
      as: teacher.token,
      method: 'PUT',
      path,
      body: { title: 'x'.repeat(121) },
      status: 400,
      field: 'title',
    });
    await expectRefused(h, {
      name: 'nothing to change',
      as: teacher.token,
      method: 'PUT',
      path,
      body: {},
      status: 400,
    });
    await expectRefused(h, {
      name: 'unknown field',
      as: teacher.token,
      method: 'PUT',
      path,
      body: { seconds: 3 },
      status: 400,
    });
    await expectRefused(h, {
      name: 'a slide of another lecture',
      as: teacher.token,
      method: 'PUT',
      path: `/api/lectures/${cameraLectureId}/slides/${slide.id}`,
      body: { title: 'X' },
      status: 404,
    });

    const titled = await h.api('PUT', path, { as: teacher.token, body: { title: '  Cellular breathing ' } });
    expect(titled.status).toBe(200);
    expect(titled.json).toMatchObject({
      id: slide.id,
      title: 'Cellular breathing',
      seconds: slide.seconds,
      hidden: false,
    });
    const seen = (await slidesOf(lectureId, student)).json as SlideAnswer[];
    expect(seen[3]?.title).toBe('Cellular breathing');
    const hits = await slideHits('breathing', student);
    expect(hits.map((hit: { seconds: number }) => hit.seconds)).toEqual([slide.seconds]);

    const cleared = await h.api('PUT', path, { as: teacher.token, body: { title: null } });
    expect(cleared.json.title).toBeNull();
    expect(await slideHits('breathing', student)).toEqual([]);
  });

  test('a hidden mark leaves the list, its thumbnail and search for students; the teacher still sees it', async () => {
    const slides = (await slidesOf(lectureId, teacher)).json as SlideAnswer[];
    const slide = slides[4] as SlideAnswer;
    const path = `/api/lectures/${lectureId}/slides/${slide.id}`;
    await expectRefused(h, {
      name: 'a student hides',
      as: student.token,
      method: 'PUT',
      path,
      body: { hidden: true },
      status: 403,
    });
    expect((await slideHits('glucose', student)).length).toBe(1);

    const hidden = await h.api('PUT', path, { as: teacher.token, body: { hidden: true } });
    expect(hidden.json.hidden).toBe(true);
    const seen = (await slidesOf(lectureId, student)).json as SlideAnswer[];
    expect(seen.length).toBe(slides.length - 1);
    expect(seen.some((s) => s.thumbnail === slide.thumbnail)).toBe(false);
    expect(await slideHits('glucose', student)).toEqual([]);
    const thumbnail = (as: Account) =>
      fetch(`${h.baseUrl}${slide.thumbnail}`, { headers: { authorization: `Bearer ${as.token}` } });
    expect((await thumbnail(student)).status).toBe(404);
    expect((await thumbnail(teacher)).status).toBe(200);
    const teacherSees = (await slidesOf(lectureId, teacher)).json as SlideAnswer[];
    expect(teacherSees.find((s) => s.id === slide.id)?.hidden).toBe(true);

    await h.api('PUT', path, { as: teacher.token, body: { hidden: false } });
    expect((await slideHits('glucose', student)).length).toBe(1);
  });

  test('switched off, students get no slides and search none; on again, they are back without running again', async () => {
    const path = `/api/lectures/${lectureId}/slide-index`;
    await expectRefused(h, {
      name: 'a student switches',
      as: student.token,
      method: 'PUT',
      path,
      body: { enabled: false },
      status: 403,
    });
    await expectRefused(h, {
      name: 'an outsider switches',
      as: outsider.token,
      method: 'PUT',
      path,
      body: { enabled: false },
      status: 404,
    });
    await expectRefused(h, {
      name: 'not a boolean',
      as: teacher.token,
      method: 'PUT',
      path,
      body: { enabled: 'no' },
      status: 400,
      field: 'enabled',
    });
    const runsBefore = await h.db.select().from(jobs).where(eq(jobs.type, 'slides'));

    const off = await h.api('PUT', path, { as: teacher.token, body: { enabled: false } });
    expect(off.json).toEqual({ slideIndex: 'off' });
    const studentSees = await slidesOf(lectureId, student);
    expect(studentSees.headers.get('x-slide-index')).toBe('off');
    expect(studentSees.json).toEqual([]);
    expect(await slideHits('photosynthesis', student)).toEqual([]);
    expect(((await slidesOf(lectureId, teacher)).json as SlideAnswer[]).length).toBe(clip.changes.length);

    const on = await h.api('PUT', path, { as: teacher.token, body: { enabled: true } });
    expect(on.json).toEqual({ slideIndex: 'ready' });
    expect(((await slidesOf(lectureId, student)).json as SlideAnswer[]).length).toBe(clip.changes.length);
    expect((await slideHits('photosynthesis', student)).length).toBe(1);
    expect((await h.db.select().from(jobs).where(eq(jobs.type, 'slides'))).length).toBe(runsBefore.length);
  });

  test('on again runs detection when it never ran (a video from before the index)', async () => {
    await h.db.update(videos).set({ slidesState: null }).where(eq(videos.id, cameraVideoId));
    const on = await h.api('PUT', `/api/lectures/${cameraLectureId}/slide-index`, {
      as: teacher.token,
      body: { enabled: true },
    });
    expect(on.json).toEqual({ slideIndex: 'pending' });
    await waitForIndex(cameraLectureId, 'none');
    const runs = await h.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, 'slides'), eq(jobs.subjectId, cameraVideoId)));
    expect(runs.map((run) => run.state)).toEqual(['done', 'done']);
    expect(runs.every((run) => run.priority > 0)).toBe(true);
  });
});

describe('rates', () => {
  test("a teacher's changes are rate-limited with a clear 429, and the refused one changes no slide", async () => {
    const slides = (await slidesOf(lectureId, teacher)).json as SlideAnswer[];
    const slide = slides[5] as SlideAnswer;
    const path = `/api/lectures/${lectureId}/slides/${slide.id}`;
    const statuses: number[] = [];
    for (let i = 0; i < SLIDE_CHANGES_PER_MINUTE + 5; i++) {
      statuses.push((await h.api('PUT', path, { as: teacher.token, body: { title: `Take ${i}` } })).status);
    }
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    const titled = ((await slidesOf(lectureId, teacher)).json as SlideAnswer[])[5]?.title;
    const limited = await h.api('PUT', path, { as: teacher.token, body: { title: 'One too many' } });
    expect(limited.status).toBe(429);
    expect(limited.json.message).toMatch(/^Too many changes to the slides\. Please try again in \d+ seconds\.$/);
    expect(((await slidesOf(lectureId, teacher)).json as SlideAnswer[])[5]?.title).toBe(titled as string);
    // The slides still read as before for everyone else.
    expect((await slidesOf(lectureId, student)).status).toBe(200);
  });
});

describe('without Tesseract', () => {
  let bare: Harness;
  let dir: string;
  afterAll(async () => {
    await bare?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('slides are kept without words, one warning says what to install, and the lecture plays', async () => {
    bare = await startHarness({ TESSERACT_PATH: '/nonexistent/tesseract' });
    dir = mkdtempSync(join(tmpdir(), 'classroom-slides-bare-'));
    const cast = await classScenario(bare, { courseName: 'No OCR' });
    const short = await makeSlidesClip(
      dir,
      [
        { seconds: 6, color: 'white', words: 'Volcano' },
        { seconds: 6, color: 'lightblue', words: 'Magma' },
        { seconds: 6, color: 'wheat', words: 'Lava' },
      ],
      { width: 640, height: 360, fps: 15 },
    );
    const form = uploadForm(readBytes(short.path), 'lecture.mp4');
    form.append('courseId', cast.course?.id as string);
    form.append('nameOfTopic', 'Volcanoes');
    const uploaded = await bare.api('POST', '/api/upload', { as: cast.teacher.token, body: form });
    expect(uploaded.status).toBe(201);
    let seen = '';
    await waitUntil(
      'the slide index without words',
      async () => {
        const answer = await bare.api('GET', `/api/lectures/${uploaded.json.lectureId}/slides`, {
          as: cast.student.token,
        });
        seen = answer.headers.get('x-slide-index') ?? '';
        return seen === 'ready' ? answer : undefined;
      },
      { timeoutMs: 120_000, everyMs: 250, lastSeen: () => seen },
    );
    const slides = (
      await bare.api('GET', `/api/lectures/${uploaded.json.lectureId}/slides`, { as: cast.student.token })
    ).json as SlideAnswer[];
    expect(
      slides.map((slide) => Math.abs(slide.seconds - (short.changes[slides.indexOf(slide)] ?? -9)) <= 0.5),
    ).toEqual([true, true, true]);
    expect(slides.map((slide) => slide.text)).toEqual(['', '', '']);
    const video = await bare.api('GET', `/api/videos/${uploaded.json.videoId}`, { as: cast.teacher.token });
    expect(video.json.status).toBe('ready');
    const warnings = bare.logLines.filter((line) => String(line.msg).includes('/nonexistent/tesseract was not found'));
    expect(warnings.length).toBe(1);
    expect(String(warnings[0]?.msg)).toContain('tesseract-ocr');
  }, 180_000);
});
