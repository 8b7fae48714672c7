import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { enrollments, jobs, lectures, notifications, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { createJobRunner } from '../jobs/runner';
import { newId } from '../lib/ids';
import { createSmtpMailer } from '../mail/mailer';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Account, type Harness, startHarness } from '../test/harness';
import { expectRefused } from '../test/tables';
import {
  KEEP_NOTIFICATIONS_MS,
  lectureBecameReady,
  notificationHandlers,
  pruneNotifications,
  sendDigests,
  videoBecameReady,
} from './notifications';

/** The raw message, unfolded and with quoted-printable soft breaks undone. */
const readable = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/=3D/g, '=');
const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(readable(raw))?.[1]?.trim();
const tokenOf = (raw: string) => /token=([A-Za-z0-9_.%-]+)>/.exec(header(raw, 'List-Unsubscribe') ?? '')?.[1];

/** Waits until no notification job is due or running. */
async function settle(h: Harness, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    h.worker.wake();
    const busy = await h.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.type, ['notify', 'send-mail']), inArray(jobs.state, ['queued', 'running'])));
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${busy.length} notification jobs still waiting`);
    await Bun.sleep(100);
  }
}

describe('notifications', () => {
  let h: Harness;
  let clips: string;
  let teacher: Account;
  let otherTeacher: Account;
  let ann: Account;
  let ben: Account;
  let dee: Account;
  let eve: Account;
  let outsider: Account;
  let courseId: string;
  let lectureId: string;
  let videoId: string;
  const COURSE = 'Waves & <Optics>';

  beforeAll(async () => {
    h = await startHarness();
    clips = mkdtempSync(join(tmpdir(), 'classroom-notify-'));
    // The first account is the administrator, who may not delete it: one of its own, before the cast signs up at once.
    await h.signUp('teacher', 'Ada Admin');
    [teacher, otherTeacher, ann, ben, dee, eve, outsider] = await Promise.all([
      h.signUp('teacher', 'Tess Teacher'),
      h.signUp('teacher', 'Otto Other'),
      h.signUp('student', 'Ann Every'),
      h.signUp('student', 'Ben Every'),
      h.signUp('student', 'Dee Daily'),
      h.signUp('student', 'Eve None'),
      h.signUp('student', 'Oona Outside'),
    ]);
    const course = await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: COURSE } });
    courseId = course.json._id;
    const other = await h.api('POST', '/api/courses', { as: otherTeacher.token, body: { courseName: 'Other' } });
    for (const student of [ann, ben, dee, eve])
      await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.json.inviteCode } });
    await h.api('POST', '/api/enrollments/join', { as: outsider.token, body: { inviteCode: other.json.inviteCode } });
    expect((await h.api('PUT', '/api/users/notifications', { as: dee.token, body: { email: 'daily' } })).json).toEqual({
      email: 'daily',
    });
    await h.api('PUT', '/api/users/notifications', { as: eve.token, body: { email: 'none' } });
    h.mail.clear();
  });
  afterAll(async () => {
    await h?.close();
    rmSync(clips, { recursive: true, force: true });
  });

  test('preferences: every by default, saved per person; bad input and no session are refused, changing nothing', async () => {
    expect((await h.api('GET', '/api/users/notifications', { as: ann.token })).json).toEqual({ email: 'every' });
    expect((await h.api('GET', '/api/users/notifications', { as: dee.token })).json).toEqual({ email: 'daily' });
    await expectRefused(h, {
      name: 'unknown choice',
      as: ann.token,
      method: 'PUT',
      path: '/api/users/notifications',
      body: { email: 'hourly' },
      status: 400,
      field: 'email',
    });
    await expectRefused(h, {
      name: 'no session',
      method: 'PUT',
      path: '/api/users/notifications',
      body: { email: 'none' },
      status: 401,
    });
    expect((await h.api('GET', '/api/users/notifications')).status).toBe(401);
  });

  test('a lecture becomes ready: each `every` student gets one mail with one-click unsubscribe; nobody else; a re-transcode sends nothing', async () => {
    const clip = await makeClip(clips, { width: 320, height: 240, seconds: 2 });
    const form = uploadForm(readBytes(clip), 'waves.mp4');
    form.append('courseId', courseId);
    form.append('nameOfTopic', 'Interference <live>');
    const uploaded = await h.api('POST', '/api/upload', { as: teacher.token, body: form });
    expect(uploaded.status).toBe(201);
    lectureId = uploaded.json.lectureId;
    videoId = uploaded.json.videoId;
    // The unread dot is not there before the lecture is ready.
    for (;;) {
      const video = await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token });
      if (video.json.status === 'ready') break;
      if (video.json.status === 'failed') throw new Error(video.json.error);
      await Bun.sleep(100);
    }
    await settle(h);
    const [annMail] = await h.mail.waitFor(ann.email, 1);
    await h.mail.waitFor(ben.email, 1);
    const raw = readable(annMail?.text ?? '');
    expect(annMail?.subject).toContain('New lecture in');
    expect(header(raw, 'List-Unsubscribe')).toMatch(/^<http.*\/api\/notifications\/unsubscribe\?token=.+>$/);
    expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(raw).toContain(`/classroom/${courseId}?lecture=${lectureId}`);
    // Names are escaped in the HTML part.
    const start = raw.indexOf('Content-Type: text/html');
    const html = raw.slice(start, raw.indexOf('</html>', start));
    expect(html).toContain('Waves &#38; &#60;Optics&#62;: Interference &#60;live&#62;');
    expect(html).not.toContain('<Optics>');
    expect(h.mail.mailsTo(teacher.email)).toHaveLength(0);
    expect(h.mail.mailsTo(outsider.email)).toHaveLength(0);
    expect(h.mail.mailsTo(dee.email)).toHaveLength(0);
    expect(h.mail.mailsTo(eve.email)).toHaveLength(0);

    // The projection runs again (a re-transcode): nothing new.
    await transaction(h.db, (tx) => videoBecameReady(tx, videoId));
    await settle(h);
    await Bun.sleep(300);
    expect(h.mail.mailsTo(ann.email)).toHaveLength(1);
    expect(h.mail.mailsTo(ben.email)).toHaveLength(1);
  });

  test('the class list shows what is new since the last visit, and a visit clears it', async () => {
    const list = async (token: string) =>
      Object.fromEntries(
        (await h.api('GET', '/api/courses', { as: token })).json.map((c: { _id: string; hasNew: boolean }) => [
          c._id,
          c.hasNew,
        ]),
      );
    expect((await list(ann.token))[courseId]).toBe(true);
    expect((await list(eve.token))[courseId]).toBe(true);
    expect((await list(teacher.token))[courseId]).toBe(false);
    expect(Object.values(await list(outsider.token))).toEqual([false]);
    expect((await h.api('POST', `/api/notifications/visits/${courseId}`, { as: ann.token })).status).toBe(200);
    expect((await list(ann.token))[courseId]).toBe(false);
    expect((await list(ben.token))[courseId]).toBe(true);
    await expectRefused(h, {
      name: 'a visit to a class one is not in',
      as: outsider.token,
      method: 'POST',
      path: `/api/notifications/visits/${courseId}`,
      status: 404,
    });
  });

  test('a comment tells the teacher, a reply tells the parent author; nobody is told of their own action', async () => {
    const post = async (as: Account, text: string, parentId?: string) => {
      const answer = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
        as: as.token,
        body: parentId ? { text, parentId } : { text },
      });
      expect(answer.status).toBe(201);
      await settle(h);
      return answer.json._id as string;
    };
    const annComment = await post(ann, 'Why do <waves> interfere?');
    const [teacherMail] = await h.mail.waitFor(teacher.email, 1);
    expect(teacherMail?.subject).toContain('Ann Every commented on');
    expect(readable(teacherMail?.text ?? '')).toContain('Why do &#60;waves&#62; interfere?');

    await post(teacher, 'Good question: see the next slide.', annComment);
    const annMails = await h.mail.waitFor(ann.email, 2);
    expect(annMails[1]?.subject).toContain('Tess Teacher replied to your comment');
    await post(teacher, 'Homework is on the board.');
    await post(ann, 'Answering myself.', annComment);
    await Bun.sleep(300);
    expect(h.mail.mailsTo(teacher.email)).toHaveLength(2); // Ann's own reply is a comment on Tess's lecture.
    expect(h.mail.mailsTo(ann.email)).toHaveLength(2);
    expect(h.mail.mailsTo(teacher.email)[1]?.subject).toContain('Ann Every commented on');

    // A reply to a comment that is not on this lecture is refused, changing nothing.
    await expectRefused(h, {
      name: 'reply to an unknown comment',
      as: ben.token,
      method: 'POST',
      path: `/api/lectures/${lectureId}/comments`,
      body: { text: 'Hi', parentId: 'nope' },
      status: 404,
    });
    // Eve (none) replies to Dee's comment thread: Dee (daily) gets no mail now.
    const deeComment = await post(dee, 'I missed the start.');
    await post(eve, 'It is at 00:00.', deeComment);
    await Bun.sleep(300);
    expect(h.mail.mailsTo(dee.email)).toHaveLength(0);
    expect(h.mail.mailsTo(eve.email)).toHaveLength(0);
  });

  test('daily: one digest with every waiting event from the digest hour, once a day; none: nothing at all', async () => {
    const deps = { config: h.config, db: h.db, mailer: createSmtpMailer(h.mail.url, h.config.mailFrom) };
    const day = (hour: number) => new Date(Date.UTC(2100, 0, 1, hour));
    expect((await sendDigests(deps, day(h.config.digestHour - 1))).sent).toBe(0);
    expect(h.mail.mailsTo(dee.email)).toHaveLength(0);
    expect((await sendDigests(deps, day(h.config.digestHour + 1))).sent).toBe(1);
    const [digest] = await h.mail.waitFor(dee.email, 1);
    const raw = readable(digest?.text ?? '');
    expect(digest?.subject).toContain('2 new things');
    expect(raw).toContain('New lecture in');
    expect(raw).toContain('Eve None replied to your comment');
    expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // Again the same day: nothing (and nothing is waiting anyway).
    expect((await sendDigests(deps, day(h.config.digestHour + 3))).sent).toBe(0);
    expect(h.mail.mailsTo(dee.email)).toHaveLength(1);
    expect(h.mail.mailsTo(eve.email)).toHaveLength(0);
    const eveRows = await h.db.select().from(notifications).where(eq(notifications.userId, eve.user._id));
    expect(eveRows.length).toBeGreaterThan(0);
    expect(eveRows.every((row) => row.mail === 'skipped')).toBe(true);
  });

  test('one-click unsubscribe: GET changes nothing, a forged token is refused, POST sets none and mail stops', async () => {
    const token = tokenOf(h.mail.mailsTo(ben.email)[0]?.text ?? '');
    expect(token).toBeTruthy();
    const path = `/api/notifications/unsubscribe?token=${token}`;
    const before = h.snapshot();
    const page = await h.api('GET', path, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"');
    expect(page.text).toContain('Unsubscribe</button>');
    expect(h.snapshot()).toEqual(before);
    // A token made for Ben does not work for Ann, nor does a made-up one.
    const forged = `${ann.user._id}.${decodeURIComponent(token ?? '').split('.')[1]}`;
    for (const bad of [forged, 'x.y', '', 'a'.repeat(500)]) {
      await expectRefused(h, {
        name: `forged token ${bad.slice(0, 10)}`,
        method: 'POST',
        path: `/api/notifications/unsubscribe?token=${encodeURIComponent(bad)}`,
        status: 400,
      });
    }
    // What a mail client sends (RFC 8058): a form POST with no session.
    const done = await h.api('POST', path, {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.status).toBe(200);
    expect(done.json.message).toContain('unsubscribed');
    expect((await h.api('GET', '/api/users/notifications', { as: ben.token })).json).toEqual({ email: 'none' });
    const annComment = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: ann.token,
      body: { text: 'Ben, look at this.' },
    });
    await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: teacher.token,
      body: { text: 'Replying to Ann.', parentId: annComment.json._id },
    });
    await settle(h);
    await h.mail.waitFor(ann.email, 3);
    expect(h.mail.mailsTo(ben.email)).toHaveLength(1);
  });

  test('a lecture made with a video that is already ready tells its students at once', async () => {
    const { videoLink } = (await h.api('GET', `/api/lectures/${lectureId}`, { as: teacher.token })).json;
    expect(videoLink).toBeTruthy();
    const before = h.mail.mailsTo(ann.email).length;
    const made = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'Interference, again', videoLink },
    });
    expect(made.status).toBe(201);
    await settle(h);
    const mails = await h.mail.waitFor(ann.email, before + 1);
    expect(mails.at(-1)?.subject).toContain('Interference, again');
    // A rename tells nobody again.
    await h.api('PATCH', `/api/lectures/${made.json._id}/update`, {
      as: teacher.token,
      body: { nameOfTopic: 'Interference, once more' },
    });
    await settle(h);
    await Bun.sleep(300);
    expect(h.mail.mailsTo(ann.email)).toHaveLength(before + 1);
  });

  test('deleting an account removes its notification rows and preference', async () => {
    const gone = await h.api('DELETE', `/api/users/${dee.user._id}`, {
      as: dee.token,
      body: { password: dee.password },
    });
    expect(gone.status).toBe(200);
    const snapshot = h.snapshot();
    for (const table of ['notifications', 'notification_prefs', 'class_visits'])
      expect((snapshot[table] as { user_id: string }[]).filter((row) => row.user_id === dee.user._id)).toEqual([]);
  });
});

describe('fan-out at scale', () => {
  let h: Harness;
  let courseId: string;
  let teacherEmail: string;

  /** A class of `count` students, made straight in the database (signing up 300 people is not what is tested). */
  async function classOf(count: number, name: string) {
    const teacher = await h.signUp('teacher', `Teacher ${name}`);
    teacherEmail = teacher.email;
    const course = await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: name } });
    courseId = course.json._id;
    const ids = Array.from({ length: count }, (_, i) => `s${name}${String(i).padStart(4, '0')}`);
    await h.db.insert(users).values(
      ids.map((id) => ({
        id,
        username: `Student ${id}`,
        email: `${id}@example.test`.toLowerCase(),
        passwordHash: 'x',
        role: 'student' as const,
      })),
    );
    await h.db.insert(enrollments).values(ids.map((studentId) => ({ id: newId(), courseId, studentId })));
    const lectureId = newId();
    await h.db.insert(lectures).values({ id: lectureId, courseId, nameOfTopic: `Lecture for ${name}` });
    return { ids, lectureId };
  }

  afterAll(async () => {
    await h?.close();
  });

  test('300 students: every one gets exactly one mail, across a worker restart mid-send and when every job runs again', async () => {
    h = await startHarness({ MAIL_RATE_PER_MINUTE: '100000' });
    const { ids, lectureId } = await classOf(300, 'big');
    await lectureBecameReady(h.db, lectureId);
    const sentToClass = () => h.mail.mails.filter((mail) => mail.to.startsWith('sbig')).length;
    // The worker stops in the middle (a restart): the running send goes back to the queue, nothing more goes out
    // until a worker runs again, and then each student still gets exactly one.
    while (sentToClass() < 40) await Bun.sleep(20);
    await h.worker.stop();
    const atStop = sentToClass();
    expect(atStop).toBeLessThan(300);
    await Bun.sleep(500);
    expect(sentToClass()).toBe(atStop);
    h.worker.start();
    await settle(h, 60_000);
    const countPerStudent = () => {
      const counts = new Map<string, number>();
      for (const mail of h.mail.mails) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
      return ids.map((id) => counts.get(`${id}@example.test`.toLowerCase()) ?? 0);
    };
    for (let waited = 0; h.mail.mails.length < 300 && waited < 100; waited++) await Bun.sleep(100);
    expect(countPerStudent().every((n) => n === 1)).toBe(true);
    const notifyJobs = await h.db.select().from(jobs).where(eq(jobs.type, 'notify'));
    // 100 a run: three full batches, and a fourth that finds nobody left.
    expect(notifyJobs.length).toBe(4);
    // Every notify and send-mail job runs again from the start (a retry, or a restart that lost their results).
    await h.db
      .update(jobs)
      .set({ state: 'queued', attempts: 0, runAfter: 0 })
      .where(inArray(jobs.type, ['notify', 'send-mail']));
    await lectureBecameReady(h.db, lectureId);
    await settle(h, 60_000);
    await Bun.sleep(500);
    expect(countPerStudent().every((n) => n === 1)).toBe(true);
    expect(h.mail.mails.filter((mail) => mail.to.endsWith('@example.test') && mail.to.startsWith('sbig'))).toHaveLength(
      300,
    );
    // The teacher got only their sign-up code.
    expect(h.mail.mailsTo(teacherEmail).filter((mail) => mail.subject.includes('New lecture'))).toHaveLength(0);
  }, 120_000);

  test('the rate cap holds: no more than the cap per window, across the follow-on jobs', async () => {
    const CAP = 10;
    const WINDOW = 2000;
    await h.close();
    h = await startHarness({ MAIL_RATE_PER_MINUTE: String(CAP) }, { worker: false });
    const { lectureId } = await classOf(30, 'capped');
    const runner = createJobRunner({
      db: h.db,
      handlers: notificationHandlers({
        config: h.config,
        db: h.db,
        mailer: createSmtpMailer(h.mail.url, h.config.mailFrom),
        rateWindowMs: WINDOW,
      }),
      concurrency: 2,
      pollMs: 100,
    });
    runner.start();
    try {
      const started = Date.now();
      await lectureBecameReady(h.db, lectureId);
      await h.mail.waitFor('scapped0000@example.test', 1, 10_000);
      const sent = () => h.mail.mails.filter((mail) => mail.to.startsWith('scapped'));
      for (let waited = 0; sent().length < 30 && waited < 200; waited++) await Bun.sleep(100);
      expect(sent()).toHaveLength(30);
      const times = (
        await h.db
          .select({ at: notifications.mailedAt })
          .from(notifications)
          .where(isNotNull(notifications.mailedAt))
          .orderBy(asc(notifications.mailedAt))
      ).map((row) => Number(row.at));
      expect(times).toHaveLength(30);
      // Mail k·CAP went out in the k-th window or later: at least k windows after the first.
      for (let k = 1; k * CAP < times.length; k++) {
        expect(times[k * CAP]! - times[0]!).toBeGreaterThanOrEqual(k * WINDOW - 500);
      }
      // And the first window did send its whole share at once (the cap, not a crawl).
      expect(times[CAP - 1]! - times[0]!).toBeLessThan(WINDOW);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2 * WINDOW - 500);
    } finally {
      await runner.stop();
    }
  }, 60_000);
});

describe('pruning', () => {
  test('delivered rows older than the keeping time go, and finished mail jobs after a week; waiting, recent and lecture ones stay', async () => {
    const h = await startHarness({}, { worker: false });
    try {
      const teacher = await h.signUp('teacher', 'Pru Teacher');
      const course = await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Old' } });
      const lectureId = newId();
      await h.db.insert(lectures).values({ id: lectureId, courseId: course.json._id, nameOfTopic: 'Old news' });
      const old = Date.now() - KEEP_NOTIFICATIONS_MS - 60_000;
      const row = (key: string, mail: 'sent' | 'skipped' | 'digest', createdAt: number) => ({
        id: newId(),
        key,
        userId: teacher.user._id,
        courseId: course.json._id,
        lectureId,
        kind: 'lecture' as const,
        mail,
        createdAt,
      });
      await h.db
        .insert(notifications)
        .values([
          row('a', 'sent', old),
          row('b', 'skipped', old),
          row('c', 'digest', old),
          row('d', 'sent', Date.now()),
        ]);
      const weekAgo = Date.now() - 8 * 24 * 60 * 60 * 1000;
      const job = (id: string, type: string, state: 'done' | 'failed', finishedAt: number) => ({
        id,
        type,
        payload: '{}',
        state,
        runAfter: 0,
        finishedAt,
      });
      await h.db
        .insert(jobs)
        .values([
          job('mail-old', 'send-mail', 'done', weekAgo),
          job('notify-comment-old', 'notify', 'done', weekAgo),
          job('notify-lecture-old', 'notify', 'done', weekAgo),
          job('mail-failed', 'send-mail', 'failed', weekAgo),
          job('mail-new', 'send-mail', 'done', Date.now()),
        ]);
      expect(await pruneNotifications(h.db)).toBe(2);
      const jobsLeft = await h.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(inArray(jobs.type, ['notify', 'send-mail']))
        .orderBy(asc(jobs.id));
      // A lecture's own notify job goes too: who was told is the lecture's `studentsToldAt`, not a job id.
      expect(jobsLeft.map((r) => r.id)).toEqual(['mail-failed', 'mail-new']);
      const left = await h.db.select({ key: notifications.key }).from(notifications).orderBy(asc(notifications.key));
      expect(left.map((r) => r.key)).toEqual(['c', 'd']);
    } finally {
      await h.close();
    }
  });
});

describe('account events', () => {
  test('a waiting teacher is told to each administrator by their e-mail choice, once; deleting the teacher takes the rows', async () => {
    const h = await startHarness({ TEACHER_SIGNUP: 'approval' });
    try {
      const every = await h.signUp('student', 'Ivy Every');
      const [daily, none, off] = [
        await h.signUp('student', 'Dan Daily'),
        await h.signUp('student', 'Nia None'),
        await h.signUp('student', 'Odo Off'),
      ];
      expect(every.user.isAdmin).toBe(true);
      for (const admin of [daily, none, off]) {
        const made = await h.api('PATCH', `/api/admin/users/${admin.user._id}`, {
          as: every.token,
          body: { isAdmin: true },
        });
        expect(made.json.isAdmin).toBe(true);
      }
      await h.api('PATCH', `/api/admin/users/${off.user._id}`, { as: every.token, body: { disabled: true } });
      await h.api('PUT', '/api/users/notifications', { as: daily.token, body: { email: 'daily' } });
      await h.api('PUT', '/api/users/notifications', { as: none.token, body: { email: 'none' } });

      const teacher = await h.signUp('teacher', 'Tara Waits');
      const [, notice] = await h.mail.waitFor(every.email, 2);
      expect(notice?.subject).toBe('Tara Waits waits for approval as a teacher');
      expect(header(notice?.text ?? '', 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      await settle(h);
      const rows = await h.db
        .select({ userId: notifications.userId, kind: notifications.kind, mail: notifications.mail })
        .from(notifications)
        .where(eq(notifications.aboutUserId, teacher.user._id));
      // A disabled administrator gets no row at all; the others by their choice.
      expect(Object.fromEntries(rows.map((row) => [row.userId, `${row.kind}/${row.mail}`]))).toEqual({
        [every.user._id]: 'teacher_waits/sent',
        [daily.user._id]: 'teacher_waits/digest',
        [none.user._id]: 'teacher_waits/skipped',
      });
      expect(h.mail.mailsTo(none.email)).toHaveLength(1);
      expect(h.mail.mailsTo(off.email)).toHaveLength(1);

      // The daily administrator reads it in the digest (sent here, or already by the periodic job).
      const deps = { config: h.config, db: h.db, mailer: createSmtpMailer(h.mail.url, h.config.mailFrom) };
      await sendDigests(deps, new Date(Date.UTC(2100, 0, 1, h.config.digestHour + 1)));
      const [, digest] = await h.mail.waitFor(daily.email, 2);
      expect(digest?.subject).toBe('Today on Classroom: Tara Waits waits for approval as a teacher');
      expect(readable(digest?.text ?? '')).toContain('/admin');

      const gone = await h.api('DELETE', `/api/admin/users/${teacher.user._id}`, { as: every.token });
      expect(gone.status).toBe(200);
      expect(await h.db.select().from(notifications).where(eq(notifications.aboutUserId, teacher.user._id))).toEqual(
        [],
      );
      expect(h.mail.mailsTo(every.email)).toHaveLength(2);
    } finally {
      await h.close();
    }
  });
});
