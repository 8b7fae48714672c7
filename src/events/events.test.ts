import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { enrollments, jobs, lectures, searchEntries, users, videos } from '../db/schema';
import { transaction } from '../db/transaction';
import { newId } from '../lib/ids';
import { type Account, type Harness, startHarness } from '../test/harness';
import { createClass } from '../test/scenario';
import { emit, on } from './events';

/** The rows an event's consequences write: jobs, the lecture's "told" mark, search entries. */
const consequences = async (h: Harness, lectureId: string) => ({
  jobs: (await h.db.select({ type: jobs.type, subjectId: jobs.subjectId }).from(jobs)).filter(
    (job) => job.type !== 'sweep' && job.type !== 'digest',
  ),
  toldAt: (await h.db.select().from(lectures).where(eq(lectures.id, lectureId)))[0]?.studentsToldAt ?? null,
  entries: await h.db.select().from(searchEntries).where(eq(searchEntries.lectureId, lectureId)),
});

describe('events', () => {
  let h: Harness;
  let teacher: Account;
  let courseId: string;
  let videoId: string;
  let lectureId: string;
  const student = { id: newId(), email: 'eve.events@example.test' };

  beforeAll(async () => {
    // No worker at first: the test says when one runs (and restarts it).
    h = await startHarness({}, { worker: false });
    teacher = await h.signUp('teacher', 'Tess Events');
    courseId = (await createClass(h, teacher, 'Events 101')).id;
    await h.db.insert(users).values({
      id: student.id,
      username: 'Eve Events',
      email: student.email,
      passwordHash: 'x',
      role: 'student',
    });
    await h.db.insert(enrollments).values({ id: newId(), courseId, studentId: student.id });
    videoId = newId();
    await h.db.insert(videos).values({
      id: videoId,
      ownerId: teacher.user._id,
      status: 'ready',
      sourceName: 'events.mp4',
      sourceBytes: 1,
      durationMs: 60_000,
      width: 640,
      height: 360,
      hasAudio: false,
      plan: '[]',
    });
    // Made straight in the database: no event, so nothing follows yet.
    lectureId = newId();
    await h.db.insert(lectures).values({ id: lectureId, courseId, nameOfTopic: 'Interference', videoId });
  });
  afterAll(async () => {
    await h?.close();
  });

  test('outside a transaction, emit refuses and nothing follows', async () => {
    const before = await consequences(h, lectureId);
    await expect(emit(h.db, { type: 'video-ready', videoId })).rejects.toThrow(/inside the writer's transaction/);
    expect(await consequences(h, lectureId)).toEqual(before);
  });

  test('a rolled-back write has no consequence: no job, nobody told, no search entry', async () => {
    const before = await consequences(h, lectureId);
    expect(before).toEqual({ jobs: [], toldAt: null, entries: [] });
    await expect(
      transaction(h.db, async (tx) => {
        await emit(tx, { type: 'video-ready', videoId });
        await emit(tx, {
          type: 'lecture-saved',
          lectureId,
          created: true,
          title: true,
          chapters: false,
          video: true,
        });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await consequences(h, lectureId)).toEqual(before);
  });

  test('a committed write: each listener runs once, and a restarted runner runs its job once', async () => {
    let heard = 0;
    const off = on('video-ready', () => {
      heard += 1;
    });
    try {
      await transaction(h.db, (tx) => emit(tx, { type: 'video-ready', videoId }));
      expect(heard).toBe(1);
      const after = await consequences(h, lectureId);
      // "Transcode done" → the slide index is queued; "lecture ready" → its students' notify job.
      expect(after.jobs.map((job) => job.type).sort()).toEqual(['notify', 'slides']);
      expect(after.toldAt).not.toBeNull();
      // The slide index of a video with no files has nothing to find: it is not what this test runs.
      await h.db.delete(jobs).where(eq(jobs.type, 'slides'));

      h.worker.start();
      await h.mail.waitFor(student.email, 1);
      await h.jobsSettled();
      // A restart of the runner replays nothing: the event was heard once and its job ran once.
      await h.worker.stop();
      h.worker.start();
      await h.jobsSettled();
      // The same event again (a re-transcode): the students were told already.
      await transaction(h.db, (tx) => emit(tx, { type: 'video-ready', videoId }));
      await h.jobsSettled();
      await Bun.sleep(300);
      expect(heard).toBe(2);
      expect(h.mail.mailsTo(student.email).filter((mail) => mail.subject.includes('New lecture'))).toHaveLength(1);
      const notifyJobs = await h.db.select().from(jobs).where(eq(jobs.type, 'notify'));
      expect(notifyJobs.map((job) => job.state)).toEqual(['done']);
    } finally {
      off();
      await h.worker.stop();
    }
  });

  test('a lecture saved through the API is indexed by its listeners (title, description), in its transaction', async () => {
    const made = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: {
        courseId,
        nameOfTopic: 'Diffraction gratings',
        description: 'Slits and gratings, with a worked example.',
      },
    });
    expect(made.status).toBe(201);
    const entries = await h.db.select().from(searchEntries).where(eq(searchEntries.lectureId, made.json._id));
    expect(entries.map((entry) => [entry.kind, entry.text]).sort()).toEqual([
      ['description', 'Slits and gratings, with a worked example.'],
      ['title', 'Diffraction gratings'],
    ]);
    const found = await h.api('GET', `/api/search?q=gratings&courseId=${courseId}`, { as: teacher.token });
    expect(JSON.stringify(found.json)).toContain('Diffraction gratings');
  });
});
