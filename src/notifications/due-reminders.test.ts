import { afterAll, beforeAll, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { masterPlaylistPath } from '../contract/videos';
import { lectures, notifications, videos } from '../db/schema';
import { newId } from '../lib/ids';
import { type Harness, startHarness } from '../test/harness';
import { createClass, joinClass } from '../test/scenario';
import { sendDueReminders } from './notifications';

let h: Harness;
afterAll(() => h?.close());
beforeAll(async () => {
  h = await startHarness();
}, 60_000);

test('a day before the due date, students who have not completed the lecture are reminded once, in their language', async () => {
  const teacher = await h.signUp('teacher', 'Tom Due');
  const [rosa, ned, dana, nora] = await Promise.all(
    ['Rosa Spanish', 'Ned Done', 'Dana Daily', 'Nora None'].map((name) => h.signUp('student', name)),
  );
  if (!rosa || !ned || !dana || !nora) throw new Error('setup: sign-ups');
  const course = await createClass(h, teacher, 'Óptica');
  const videoId = newId();
  await h.db.insert(videos).values({
    id: videoId,
    ownerId: teacher.user._id,
    status: 'ready',
    sourceName: 'due.mp4',
    sourceBytes: 1,
    durationMs: 60_000,
    width: 640,
    height: 360,
    hasAudio: false,
    plan: '[]',
  });
  const made = await h.api('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId: course.id, nameOfTopic: 'Lentes', videoLink: masterPlaylistPath(videoId) },
  });
  expect(made.status).toBe(201);
  const lectureId = made.json._id as string;
  await h.jobsSettled();
  for (const who of [rosa, ned, dana, nora]) await joinClass(h, who, course.inviteCode);
  expect((await h.api('PATCH', `/api/users/${rosa.user._id}`, { as: rosa.token, body: { locale: 'es' } })).status).toBe(
    200,
  );
  await h.api('PUT', '/api/users/notifications', { as: dana.token, body: { email: 'daily' } });
  await h.api('PUT', '/api/users/notifications', { as: nora.token, body: { email: 'none' } });
  // Ned has watched it all (offline, so in one report); Rosa a quarter.
  await h.api('POST', `/api/lectures/${lectureId}/coverage`, {
    as: ned.token,
    body: { ranges: [[0, 60]], rate: 1, offline: true },
  });
  await h.api('POST', `/api/lectures/${lectureId}/coverage`, { as: rosa.token, body: { ranges: [[0, 15]], rate: 1 } });

  // Due in two days: not yet.
  const inTwoDays = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString();
  await h.api('PATCH', `/api/lectures/${lectureId}/update`, { as: teacher.token, body: { dueAt: inTwoDays } });
  expect((await sendDueReminders(h.db)).written).toBe(0);
  // Due in 20 hours: reminded now, once.
  const soon = new Date(Date.now() + 20 * 60 * 60 * 1000).toISOString();
  await h.api('PATCH', `/api/lectures/${lectureId}/update`, { as: teacher.token, body: { dueAt: soon } });
  const before = h.mail.mailsTo(rosa.email).length;
  const others = [ned, dana, nora].map((who) => h.mail.mailsTo(who.email).length);
  expect((await sendDueReminders(h.db)).written).toBe(3);
  expect((await sendDueReminders(h.db)).written).toBe(0);
  h.deps.jobs.wake();
  const mails = await h.mail.waitFor(rosa.email, before + 1);
  const reminder = mails.at(-1);
  expect(reminder?.subject).toStartWith('Para ver antes del ');
  expect(reminder?.subject).toContain('Lentes');
  expect(reminder?.text).toContain('Has visto el 25');
  await h.jobsSettled();
  // Ned completed it; Dana's waits for her digest; Nora chose no mail.
  expect([ned, dana, nora].map((who) => h.mail.mailsTo(who.email).length)).toEqual(others);
  const rows = await h.db.select().from(notifications).where(eq(notifications.kind, 'due_soon'));
  expect(rows.map((row) => row.mail).sort()).toEqual(['digest', 'sent', 'skipped']);
  const [lecture] = await h.db.select().from(lectures).where(eq(lectures.id, lectureId));
  expect(lecture?.remindedAt).not.toBeNull();
}, 60_000);
