import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { createApp } from '../app';
import { jobs } from '../db/schema';
import { transaction } from '../db/transaction';
import { createJobsClient } from '../jobs/client';
import { createLogger } from '../lib/log';
import { createMailer } from '../mail/create-mailer';
import { enqueueSlides } from '../media/slide-index';
import { videoPrefix } from '../storage/keys';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import {
  type Account,
  apiClient,
  type Harness,
  signUpWith,
  signupCookie,
  startHarness,
  TEST_PASSWORD,
} from '../test/harness';
import { classScenario } from '../test/scenario';
import { expectPermissions, expectRefused } from '../test/tables';
import { waitForVideo, waitUntil } from '../test/wait';
import { createWorker } from '../worker-jobs';

/** A fresh install with the default TEACHER_SIGNUP=approval. */
let h: Harness;
let admin: Account;
let teacher: Account;
let student: Account;
let clips: string;
beforeAll(async () => {
  h = await startHarness({ TEACHER_SIGNUP: 'approval' });
  clips = mkdtempSync(join(tmpdir(), 'classroom-admin-'));
  admin = await h.signUp('teacher', 'Ada Admin');
  teacher = await h.signUp('teacher', 'Tom Teacher');
  student = await h.signUp('student', 'Sue Student');
});
afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

describe('who may teach', () => {
  test('the first verified account is the administrator; a later teacher waits for approval', async () => {
    expect(admin.user).toMatchObject({ isAdmin: true, teacherStatus: 'approved' });
    expect(teacher.user).toMatchObject({ isAdmin: false, teacherStatus: 'pending' });
    expect(student.user).toMatchObject({ isAdmin: false, teacherStatus: null });
    // The administrator heard of it (by the worker, after the code mail), and the Admin badge counts them.
    const [, notice] = await h.mail.waitFor(admin.email, 2);
    expect(notice?.subject).toBe('Tom Teacher waits for approval as a teacher');
    expect(notice?.text).toContain(teacher.email);
    expect(notice?.text).toContain('/admin');
    expect((await h.api('GET', '/api/admin/waiting-teachers', { as: admin.token })).json).toEqual({ count: 1 });

    const refused = await expectRefused(h, {
      name: 'a waiting teacher creates a class',
      as: teacher.token,
      method: 'POST',
      path: '/api/courses',
      body: { courseName: 'Too early' },
      status: 403,
    });
    expect(refused.json.error).toBe("Your teacher account is waiting for the administrator's approval.");
    await expectRefused(h, {
      name: 'a waiting teacher uploads',
      as: teacher.token,
      method: 'POST',
      path: '/api/upload',
      body: uploadForm(new Uint8Array(10), 'x.mp4'),
      status: 403,
    });

    const approved = await h.api('PATCH', `/api/admin/users/${teacher.user._id}`, {
      as: admin.token,
      body: { teacherApproved: true },
    });
    expect(approved.json.teacherStatus).toBe('approved');
    expect((await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Now' } })).status).toBe(201);
    expect((await h.api('GET', '/api/admin/waiting-teachers', { as: admin.token })).json).toEqual({ count: 0 });
    // The teacher is told, once: approving again changes nothing and sends nothing.
    const [, told] = await h.mail.waitFor(teacher.email, 2);
    expect(told?.subject).toBe('You can now create classes on Classroom');
    expect(told?.text).toContain('You can now create classes');
    await h.api('PATCH', `/api/admin/users/${teacher.user._id}`, { as: admin.token, body: { teacherApproved: true } });
    await h.jobsSettled();
    expect(h.mail.mailsTo(teacher.email)).toHaveLength(2);
    expect(h.mail.mailsTo(admin.email)).toHaveLength(2);
  });

  test('a declined teacher is told kindly; a request decided before its mail went out is not mailed', async () => {
    const hopeful = await h.signUp('teacher', 'Hope Declined');
    await h.mail.waitFor(admin.email, 3);
    const declined = await h.api('PATCH', `/api/admin/users/${hopeful.user._id}`, {
      as: admin.token,
      body: { teacherApproved: false },
    });
    expect(declined.json.teacherStatus).toBe('declined');
    const [, told] = await h.mail.waitFor(hopeful.email, 2);
    expect(told?.subject).toBe('Your request to teach on Classroom');
    expect(told?.text).toContain('Thank you for your interest in teaching');
    expect((await h.api('GET', '/api/admin/waiting-teachers', { as: admin.token })).json).toEqual({ count: 0 });

    // Decided while the worker was away: the administrators' row is skipped, the teacher's decision still goes.
    await h.worker.stop();
    const quick = await h.signUp('teacher', 'Quinn Quick');
    await h.api('PATCH', `/api/admin/users/${quick.user._id}`, { as: admin.token, body: { teacherApproved: true } });
    h.worker.start();
    await h.mail.waitFor(quick.email, 2);
    await h.jobsSettled();
    expect(h.mail.mailsTo(admin.email).map((mail) => mail.subject)).not.toContain(
      'Quinn Quick waits for approval as a teacher',
    );
  });

  test('with no SMTP server the mails about a waiting teacher are printed to the log, like every other mail', async () => {
    const base = await startHarness({ TEACHER_SIGNUP: 'approval' }, { worker: false });
    const lines: string[] = [];
    const log = createLogger({ level: 'info', format: 'json' }, { write: (line: string) => void lines.push(line) });
    // What main.ts makes when SMTP_URL is not set, for the app and its worker alike.
    const mailer = createMailer({ ...base.config, smtpUrl: undefined }, log);
    expect(mailer.kind).toBe('log');
    const worker = createWorker({ config: base.config, db: base.db, storage: base.storage, log, mailer });
    const app = createApp({ ...base.deps, mailer, log, jobs: createJobsClient(base.db, worker) }, base.limits);
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
    worker.start();
    const mailLines = () => lines.map((line) => String(JSON.parse(line).msg)).filter((msg) => msg.startsWith('[mail]'));
    const printed = (to: string, subject: string) =>
      waitUntil(`a mail to ${to} in the log`, () =>
        mailLines().find((msg) => msg.startsWith(`[mail] to=${to} subject="${subject}"`)),
      );
    const fromLog = {
      codeFor: async (to: string) => {
        const mail = await waitUntil(`a code for ${to} in the log`, () =>
          mailLines().find((msg) => msg.startsWith(`[mail] to=${to} `) && /code is: \d{6}/.test(msg)),
        );
        return /code is: (\d{6})/.exec(mail)?.[1] as string;
      },
    };
    try {
      const api = apiClient(`http://127.0.0.1:${server.port}`);
      const boss = await signUpWith(api, fromLog, 'student', 'Lee Logadmin');
      const waiting = await signUpWith(api, fromLog, 'teacher', 'Tia Logteacher');
      const notice = await printed(boss.email, 'Tia Logteacher waits for approval as a teacher');
      expect(notice).toContain(waiting.email);
      await api('PATCH', `/api/admin/users/${waiting.user._id}`, { as: boss.token, body: { teacherApproved: true } });
      expect(await printed(waiting.email, 'You can now create classes on Classroom')).toContain(
        'You can now create classes',
      );
    } finally {
      await server.stop(true);
      await worker.stop();
      await base.close();
    }
  });

  test('TEACHER_SIGNUP=closed refuses teacher sign-ups; TEACHER_EMAIL_DOMAINS approves at once; ADMIN_EMAIL names the admin', async () => {
    const closed = await startHarness({ TEACHER_SIGNUP: 'closed' }, { worker: false });
    try {
      await expectRefused(closed, {
        name: 'teacher sign-up when closed',
        method: 'POST',
        path: '/api/users/register',
        body: { username: 'No Teacher', email: 'no@example.test', password: TEST_PASSWORD, role: 'teacher' },
        status: 403,
      });
    } finally {
      await closed.close();
    }
    const domains = await startHarness(
      { TEACHER_SIGNUP: 'approval', TEACHER_EMAIL_DOMAINS: 'school.example', ADMIN_EMAIL: 'boss@example.test' },
      { worker: false },
    );
    try {
      const first = await domains.signUp('student', 'First Comer');
      expect(first.user.isAdmin).toBe(false);
      const staff = await domains.signUp('teacher', 'Staff Member');
      expect(staff.user.teacherStatus).toBe('pending');
      const email = 'walt@school.example';
      const walt = await domains.api('POST', '/api/users/register', {
        body: { username: 'Walt', email, password: TEST_PASSWORD, role: 'teacher' },
      });
      const verified = await domains.api('POST', '/api/users/verify-otp', {
        body: { email, otp: await domains.mail.codeFor(email) },
        headers: { cookie: signupCookie(walt.headers) ?? '' },
      });
      expect(verified.json.user.teacherStatus).toBe('approved');
      const bossEmail = 'boss@example.test';
      const boss = await domains.api('POST', '/api/users/register', {
        body: { username: 'The Boss', email: bossEmail, password: TEST_PASSWORD },
      });
      const bossVerified = await domains.api('POST', '/api/users/verify-otp', {
        body: { email: bossEmail, otp: await domains.mail.codeFor(bossEmail) },
        headers: { cookie: signupCookie(boss.headers) ?? '' },
      });
      expect(bossVerified.json.user.isAdmin).toBe(true);
    } finally {
      await domains.close();
    }
  });
});

describe('the admin API', () => {
  test('only administrators, and a refused call changes nothing', async () => {
    const who = { anonymous: undefined, admin: admin.token, teacher: teacher.token, student: student.token };
    await expectPermissions<keyof typeof who>(
      h,
      who,
      [
        { name: 'list users', method: 'GET', path: '/api/admin/users?q=', allowed: ['admin'] },
        { name: 'waiting teachers', method: 'GET', path: '/api/admin/waiting-teachers', allowed: ['admin'] },
        { name: 'overview', method: 'GET', path: '/api/admin/overview', allowed: ['admin'] },
        { name: 'classes', method: 'GET', path: '/api/admin/courses', allowed: ['admin'] },
        {
          name: 'approve',
          method: 'PATCH',
          path: `/api/admin/users/${teacher.user._id}`,
          body: { teacherApproved: true },
          allowed: ['admin'],
        },
        { name: 'test mail', method: 'POST', path: '/api/admin/test-mail', allowed: ['admin'] },
      ],
      { teacher: 403, student: 403 },
    );
  });

  test('deleting a class that does not exist is a 404 that changes and logs nothing', async () => {
    const logged = () => h.logLines.filter((line) => line.event === 'admin_deleted_class').length;
    const before = logged();
    await expectRefused(h, {
      name: 'delete a missing class',
      as: admin.token,
      method: 'DELETE',
      path: '/api/admin/courses/no-such-class',
      status: 404,
      code: 'course_not_found',
    });
    expect(logged()).toBe(before);

    const course = (await h.api('POST', '/api/courses', { as: admin.token, body: { courseName: 'Short-lived' } })).json;
    const deleted = await h.api('DELETE', `/api/admin/courses/${course._id}`, { as: admin.token });
    expect(deleted.json).toEqual({ message: 'Class deleted', _id: course._id });
    expect(logged()).toBe(before + 1);
    expect((await h.api('GET', `/api/courses/${course._id}`, { as: admin.token })).status).toBe(404);
  });

  test('search, disable and enable, reset a password by mail', async () => {
    const found = await h.api('GET', '/api/admin/users?q=sue', { as: admin.token });
    expect(found.json.map((u: { username: string }) => u.username)).toEqual(['Sue Student']);
    expect(found.json[0]).toMatchObject({ role: 'student', disabled: false, classes: 0 });
    expect(found.json[0].lastLoginAt).toBeString();

    await h.api('PATCH', `/api/admin/users/${student.user._id}`, { as: admin.token, body: { disabled: true } });
    expect((await h.api('GET', '/api/users', { as: student.token })).status).toBe(401);
    const blocked = await h.api('POST', '/api/users/login', {
      body: { email: student.email, password: TEST_PASSWORD },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.json.code).toBe('account_disabled');
    await h.api('PATCH', `/api/admin/users/${student.user._id}`, { as: admin.token, body: { disabled: false } });
    const back = await h.api('POST', '/api/users/login', { body: { email: student.email, password: TEST_PASSWORD } });
    expect(back.status).toBe(200);
    student = { ...student, token: back.json.token };

    await expectRefused(h, {
      name: 'the admin disables themself',
      as: admin.token,
      method: 'PATCH',
      path: `/api/admin/users/${admin.user._id}`,
      body: { disabled: true },
      status: 400,
    });

    const before = h.mail.mailsTo(student.email).length;
    const sent = await h.api('POST', `/api/admin/users/${student.user._id}/password-reset`, { as: admin.token });
    expect(sent.status).toBe(200);
    const code = await h.mail.nthCode(student.email, before + 1);
    const reset = await h.api('POST', '/api/users/reset-password', {
      body: { email: student.email, otp: code, newPassword: 'set by a reset' },
    });
    expect(reset.status).toBe(200);
    student = { ...student, token: reset.json.token, password: 'set by a reset' };
  });

  test('rosters: the teacher removes a student, who loses access at once and may rejoin with the code', async () => {
    const course = (await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Roster' } })).json;
    await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.inviteCode } });
    const roster = await h.api('GET', `/api/courses/${course._id}/students`, { as: teacher.token });
    expect(roster.json.map((s: { _id: string }) => s._id)).toEqual([student.user._id]);
    await expectRefused(h, {
      name: 'a student reads the roster',
      as: student.token,
      method: 'GET',
      path: `/api/courses/${course._id}/students`,
      status: 403,
    });
    const removed = await h.api('DELETE', `/api/courses/${course._id}/students/${student.user._id}`, {
      as: teacher.token,
    });
    expect(removed.status).toBe(200);
    expect((await h.api('GET', `/api/courses/${course._id}`, { as: student.token })).status).toBe(404);
    const rejoined = await h.api('POST', '/api/enrollments/join', {
      as: student.token,
      body: { inviteCode: course.inviteCode },
    });
    expect(rejoined.status).toBe(201);
  });

  test('deleting a teacher takes their classes and video files; a user deletes their own account with the password', async () => {
    const doomed = await h.signUp('teacher', 'Dora Doomed');
    await h.api('PATCH', `/api/admin/users/${doomed.user._id}`, { as: admin.token, body: { teacherApproved: true } });
    const course = (await h.api('POST', '/api/courses', { as: doomed.token, body: { courseName: 'Doomed' } })).json;
    const clip = await makeClip(clips, { width: 320, height: 240, seconds: 2 });
    const uploaded = await h.api('POST', '/api/upload', {
      as: doomed.token,
      body: uploadForm(readBytes(clip), 'd.mp4'),
    });
    await h.api('POST', '/api/lectures', {
      as: doomed.token,
      body: { courseId: course._id, nameOfTopic: 'Gone soon', videoLink: uploaded.json.masterPlaylist },
    });
    const deadline = Date.now() + 30_000;
    while ((await h.api('GET', `/api/videos/${uploaded.json.videoId}`, { as: doomed.token })).json.status !== 'ready') {
      if (Date.now() > deadline) throw new Error('not ready');
      await Bun.sleep(100);
    }
    const stored = await h.storage.listFiles(videoPrefix(uploaded.json.videoId));
    expect(stored.length).toBeGreaterThan(0);
    // The console's figures come from storage (the local disk or S3): this class holds every byte of its video.
    const classes = (await h.api('GET', '/api/admin/courses', { as: admin.token })).json;
    const storageBytes = stored.reduce((sum, file) => sum + file.size, 0);
    expect(classes.find((row: { _id: string }) => row._id === course._id)?.storageBytes).toBe(storageBytes);
    const overview = (await h.api('GET', '/api/admin/overview', { as: admin.token })).json;
    expect(overview.disk.mediaBytes).toBeGreaterThanOrEqual(storageBytes);
    const deleted = await h.api('DELETE', `/api/admin/users/${doomed.user._id}`, { as: admin.token });
    expect(deleted.status).toBe(200);
    expect(await h.storage.listFiles(videoPrefix(uploaded.json.videoId))).toEqual([]);
    expect((await h.api('GET', `/api/courses/${course._id}`, { as: admin.token })).status).toBe(404);
    expect((await h.api('GET', '/api/users', { as: doomed.token })).status).toBe(401);

    const leaver = await h.signUp('student', 'Leo Leaver');
    await expectRefused(h, {
      name: 'self-delete with a wrong password',
      as: leaver.token,
      method: 'DELETE',
      path: `/api/users/${leaver.user._id}`,
      body: { password: 'not it' },
      status: 400,
      field: 'password',
    });
    expect(
      (await h.api('DELETE', `/api/users/${leaver.user._id}`, { as: leaver.token, body: { password: TEST_PASSWORD } }))
        .status,
    ).toBe(200);
    expect(
      (await h.api('POST', '/api/users/login', { body: { email: leaver.email, password: TEST_PASSWORD } })).status,
    ).toBe(401);
  }, 60_000);
});

describe('the job queue', () => {
  test('lists every type with a readable name and its subject: a slide index, an offline MP4, mail by its count', async () => {
    // One mail a minute: the lecture's mail to three students sends one and leaves a job for the other two.
    const q = await startHarness({ MAIL_RATE_PER_MINUTE: '1' });
    try {
      const boss = await q.signUp('teacher', 'Quinn Admin');
      expect(boss.user.isAdmin).toBe(true);
      const cast = await classScenario(q, {
        names: { teacher: 'Tia Queue', student: 'Sam Queue' },
        courseName: 'Queue 101',
        classmates: ['Cleo Queue', 'Cody Queue'],
      });
      const clip = await makeClip(clips, { width: 320, height: 180, seconds: 2, name: 'queue.mp4' });
      const uploaded = await q.api('POST', '/api/upload', {
        as: cast.teacher.token,
        body: uploadForm(readBytes(clip), 'queue.mp4'),
      });
      expect(uploaded.status).toBe(201);
      const videoId: string = uploaded.json.videoId;
      await waitForVideo(
        'the queue video',
        async () => (await q.api('GET', `/api/videos/${videoId}`, { as: cast.teacher.token })).json,
      );
      const lecture = await q.api('POST', '/api/lectures', {
        as: cast.teacher.token,
        body: { courseId: cast.course?.id, nameOfTopic: 'Queued topic', videoLink: uploaded.json.masterPlaylist },
      });
      expect(lecture.status).toBe(201);
      // The processing, its slide index and the lecture's first mail are done; what is left waits for later.
      await q.jobsSettled();
      await q.worker.stop();

      // With no worker running (a busy or restarting server), new work waits in the queue.
      const asked = await q.api('POST', `/api/lectures/${lecture.json._id}/download`, { as: cast.student.token });
      expect(asked.status).toBe(202);
      // The slide index again, as a teacher's switch or a finished transcode queues it.
      expect(await transaction(q.db, (tx) => enqueueSlides(tx, videoId))).toBe(true);
      const comment = await q.api('POST', `/api/lectures/${lecture.json._id}/comments`, {
        as: cast.student.token,
        body: { text: 'When is the test?' },
      });
      expect(comment.status).toBe(201);

      const overview = await q.api('GET', '/api/admin/overview', { as: boss.token });
      expect(overview.status).toBe(200);
      const queue = overview.json.queue as Array<Record<string, unknown>>;
      const ofType = (type: string) => queue.filter((entry) => entry.type === type);
      const topic = { lectureTitle: 'Queued topic', courseId: cast.course?.id, className: 'Queue 101' };
      expect(ofType('slides')).toEqual([
        expect.objectContaining({
          typeName: 'Slide index',
          state: 'queued',
          videoId,
          fileName: 'queue.mp4',
          videoStatus: 'ready',
          recipients: null,
          ...topic,
        }),
      ]);
      expect(ofType('download')).toEqual([
        expect.objectContaining({
          typeName: 'Offline MP4',
          state: 'queued',
          attempts: 0,
          lastError: null,
          videoId,
          fileName: 'queue.mp4',
          recipients: null,
          ...topic,
        }),
      ]);
      expect(ofType('send-mail')).toEqual([
        expect.objectContaining({
          typeName: 'Notification mail',
          state: 'queued',
          videoId: null,
          recipients: 2,
          lectureTitle: null,
        }),
      ]);
      expect(ofType('notify')).toEqual([
        expect.objectContaining({ typeName: 'Notifications', state: 'queued', videoId: null, ...topic }),
      ]);
      // Finished work and the periodic jobs between runs are not listed.
      expect(queue.map((entry) => entry.type).sort()).toEqual(['download', 'notify', 'send-mail', 'slides']);
      // Nobody's address or token is in the queue.
      const listed = JSON.stringify(queue);
      expect(listed).not.toContain('@');
      for (const who of [boss, cast.teacher, cast.student, ...cast.classmates]) expect(listed).not.toContain(who.token);

      // The order: what runs, then what waits in the order a worker takes it (due first, then priority, then age),
      // then failures. Each job is put where a worker would leave it.
      const idOf = (type: string) => (ofType(type)[0] as { _id: string })._id;
      const now = Date.now();
      const setJob = (id: string, values: Partial<typeof jobs.$inferInsert>) =>
        q.db.update(jobs).set(values).where(eq(jobs.id, id));
      await setJob(idOf('notify'), { state: 'running', attempts: 1, leaseOwner: 'test.1', leaseUntil: now + 60_000 });
      // A retry, due again after its back-off: taken before the slide index (priority 10) though created before it.
      await setJob(idOf('download'), { attempts: 1, lastError: 'ffmpeg stopped.', runAfter: now - 1_000 });
      await setJob(idOf('slides'), { runAfter: now - 500 });
      // A mail held back by the rate: it waits until its time, after what is due now.
      await setJob(idOf('send-mail'), { runAfter: now + 3_600_000 });
      const [transcode] = await q.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.type, 'transcode'));
      await setJob(transcode!.id, { state: 'failed', attempts: 3, lastError: 'The file is not a video.' });
      const ordered = (await q.api('GET', '/api/admin/overview', { as: boss.token })).json.queue as Array<
        Record<string, unknown>
      >;
      expect(ordered.map(({ type, state, attempts }) => ({ type, state, attempts }))).toEqual([
        { type: 'notify', state: 'running', attempts: 1 },
        { type: 'download', state: 'queued', attempts: 1 },
        { type: 'slides', state: 'queued', attempts: 0 },
        { type: 'send-mail', state: 'queued', attempts: 0 },
        { type: 'transcode', state: 'failed', attempts: 3 },
      ]);
    } finally {
      await q.close();
    }
  }, 90_000);
});
