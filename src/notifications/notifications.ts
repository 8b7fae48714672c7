import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { nowMs } from '../db/dialect';
import { deleteAllCoverage } from '../db/queries/insight';
import { deleteAllAnswers } from '../db/queries/questions';
import {
  classVisits,
  comments,
  courses,
  enrollments,
  jobs,
  lectures,
  type NotificationKind,
  notificationPrefs,
  notifications,
  users,
  videos,
  watchCoverage,
} from '../db/schema';
import { transaction } from '../db/transaction';
import { localeOfAccount, translatorFor } from '../i18n/translate';
import { enqueueJob } from '../jobs/jobs';
import type { JobHandlers } from '../jobs/runner';
import { newId } from '../lib/ids';
import { createRateLimiter } from '../lib/rate-limit';
import type { Mailer } from '../mail/mailer';
import { type NotificationItem, notificationMail, PRODUCT_NAME } from '../mail/templates';
import { unsubscribeToken } from './unsubscribe-token';

/**
 * Notifications (docs/operations.md, "Notifications"). An event (a lecture became ready, a comment, a reply) is a
 * `notify` job, enqueued in the transaction of the change; the job writes one `notifications` row per recipient,
 * in batches of FAN_OUT_BATCH, each row keyed by (event, recipient) so a run that repeats adds nothing. Rows for
 * people who chose `every` go out through `send-mail` jobs at no more than MAIL_RATE_PER_MINUTE (a database window
 * shared by every worker); `daily` rows wait for the periodic `digest` job; `none` rows are only the unread dot.
 * Account events (a teacher waits for approval; a teacher was approved or declined) have few recipients: their
 * rows are written at once, in the change's transaction, and go out the same way.
 */

export type EmailChoice = 'every' | 'daily' | 'none';
export const EMAIL_CHOICES = ['every', 'daily', 'none'] as const;

/** Recipients written per `notify` run; the rest go to the next run (a class of 1,000 is ten short jobs). */
export const FAN_OUT_BATCH = 100;
/** How often the digest job looks for people due a digest. */
export const DIGEST_EVERY_MS = 10 * 60 * 1000;
/** Digests written per run (each takes a slot of the mail rate). */
const DIGEST_BATCH = 100;
/** Events one digest lists at most (the rest go in the next day's). */
const DIGEST_ITEMS = 50;

/**
 * A lecture's video became ready (or a lecture was made or changed to a ready video): its students are told, once
 * per lecture ever (its `studentsToldAt`; a re-transcode enqueues nothing). Run it in the change's transaction.
 */
export async function lectureBecameReady(db: Db, lectureId: string) {
  await transaction(db, async (tx) => {
    const [first] = await tx
      .update(lectures)
      .set({ studentsToldAt: nowMs(tx) })
      .where(and(eq(lectures.id, lectureId), isNull(lectures.studentsToldAt)))
      .returning({ id: lectures.id });
    if (first) await enqueueJob(tx, 'notify', { event: 'lecture', subjectId: lectureId });
  });
}

/** The lectures showing `videoId`, each told once (called by the transcode's `done` projection). */
export async function videoBecameReady(tx: Db, videoId: string) {
  const rows = await tx.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videoId));
  for (const row of rows) await lectureBecameReady(tx, row.id);
}

/** A lecture that now shows a video which is already ready (made or edited after the transcode finished). */
export async function lectureMayBeReady(db: Db, lectureId: string) {
  const [row] = await db
    .select({ status: videos.status })
    .from(lectures)
    .innerJoin(videos, eq(videos.id, lectures.videoId))
    .where(eq(lectures.id, lectureId))
    .limit(1);
  if (row?.status === 'ready') await lectureBecameReady(db, lectureId);
}

/** A comment was posted: its lecture's teacher and (for a reply) the parent's author are told. */
export async function commentPosted(tx: Db, commentId: string) {
  await enqueueJob(tx, 'notify', { event: 'comment', subjectId: commentId }, { id: `notify-comment-${commentId}` });
}

/**
 * A teacher signed up and waits for approval: every administrator (but a disabled one) is told, once per teacher
 * (the rows' keys). Answers whether a mail is to go, so the caller wakes the worker.
 */
export async function teacherWaits(db: Db, teacherId: string) {
  return transaction(db, async (tx) => {
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.isAdmin, true), isNull(users.disabledAt), ne(users.id, teacherId)));
    return writeBatch(
      tx,
      { key: `teacher_waits:${teacherId}`, courseId: null, lectureId: null, commentId: null, aboutUserId: teacherId },
      admins.map((admin) => ({ userId: admin.id, kind: 'teacher_waits' })),
    );
  });
}

/**
 * An administrator approved or declined a teacher: the teacher is told. Run it in the transaction of the change,
 * and only when the status really changed (each change is its own event: a decline undone by an approval is told).
 */
export async function teacherDecided(tx: Db, teacherId: string, status: 'approved' | 'declined') {
  return writeBatch(
    tx,
    { key: `teacher_${status}:${newId()}`, courseId: null, lectureId: null, commentId: null, aboutUserId: teacherId },
    [{ userId: teacherId, kind: status === 'approved' ? 'teacher_approved' : 'teacher_declined' }],
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Preferences, visits and the unread dot

export async function emailChoiceOf(db: Db, userId: string): Promise<EmailChoice> {
  const [row] = await db
    .select({ email: notificationPrefs.email })
    .from(notificationPrefs)
    .where(eq(notificationPrefs.userId, userId))
    .limit(1);
  return row?.email ?? 'every';
}

export async function setEmailChoice(db: Db, userId: string, email: EmailChoice) {
  const now = nowMs(db);
  await db
    .insert(notificationPrefs)
    .values({ userId, email, updatedAt: now })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: { email, updatedAt: now } });
}

/** Records that `userId` opened the class now: what came before is no longer new. */
export async function recordVisit(db: Db, userId: string, courseId: string) {
  const now = nowMs(db);
  await db
    .insert(classVisits)
    .values({ userId, courseId, visitedAt: now })
    .onConflictDoUpdate({ target: [classVisits.userId, classVisits.courseId], set: { visitedAt: now } });
}

// ---------------------------------------------------------------------------------------------------------------
// Fan-out

type Recipient = { userId: string; kind: NotificationKind };

const mailStateFor = (choice: EmailChoice | null) =>
  choice === 'none' ? ('skipped' as const) : choice === 'daily' ? ('digest' as const) : ('pending' as const);

/**
 * Writes the rows of one batch of recipients and, in the same transaction, the `send-mail` job for the new
 * `pending` ones and the `notify` job for the next batch (fixed ids: a run that repeats adds nothing). Answers
 * whether a `send-mail` job was added.
 */
async function writeBatch(
  tx: Db,
  event: {
    key: string;
    courseId: string | null;
    lectureId: string | null;
    commentId: string | null;
    aboutUserId?: string;
  },
  recipients: Recipient[],
) {
  if (recipients.length === 0) return false;
  const prefs = await tx
    .select({ userId: notificationPrefs.userId, email: notificationPrefs.email })
    .from(notificationPrefs)
    .where(
      inArray(
        notificationPrefs.userId,
        recipients.map((r) => r.userId),
      ),
    );
  const choice = new Map(prefs.map((row) => [row.userId, row.email]));
  const inserted = await tx
    .insert(notifications)
    .values(
      recipients.map((r) => ({
        id: newId(),
        key: `${event.key}:${r.userId}`,
        userId: r.userId,
        courseId: event.courseId,
        lectureId: event.lectureId,
        commentId: event.commentId,
        aboutUserId: event.aboutUserId ?? null,
        kind: r.kind,
        mail: mailStateFor(choice.get(r.userId) ?? null),
      })),
    )
    .onConflictDoNothing({ target: notifications.key })
    .returning({ id: notifications.id, mail: notifications.mail });
  const pending = inserted.filter((row) => row.mail === 'pending').map((row) => row.id);
  if (pending.length > 0) await enqueueJob(tx, 'send-mail', { ids: pending }, { maxAttempts: 5 });
  return pending.length > 0;
}

/** One run of a `notify` job: the next batch of recipients after `after` (user ids in order). */
export async function fanOut(
  db: Db,
  payload: { event: 'lecture' | 'comment'; subjectId: string; after?: string },
  jobId: string,
) {
  return transaction(db, async (tx) => {
    if (payload.event === 'lecture') {
      const [lecture] = await tx
        .select({ id: lectures.id, courseId: lectures.courseId, teacherId: courses.teacherId })
        .from(lectures)
        .innerJoin(courses, eq(courses.id, lectures.courseId))
        .where(eq(lectures.id, payload.subjectId))
        .limit(1);
      if (!lecture) return { written: 0 };
      const students = await tx
        .select({ userId: enrollments.studentId })
        .from(enrollments)
        .where(
          and(
            eq(enrollments.courseId, lecture.courseId),
            ne(enrollments.studentId, lecture.teacherId),
            payload.after ? gt(enrollments.studentId, payload.after) : undefined,
          ),
        )
        .orderBy(asc(enrollments.studentId))
        .limit(FAN_OUT_BATCH);
      await writeBatch(
        tx,
        { key: `lecture:${lecture.id}`, courseId: lecture.courseId, lectureId: lecture.id, commentId: null },
        students.map((s) => ({ userId: s.userId, kind: 'lecture' })),
      );
      const last = students.at(-1);
      if (students.length === FAN_OUT_BATCH && last) {
        // The chain's ids derive from the first job's: a repeated run finds the next batch's job already there.
        const root = jobId.split('~')[0];
        await enqueueJob(tx, 'notify', { ...payload, after: last.userId }, { id: `${root}~${last.userId}` });
      }
      return { written: students.length };
    }
    const [comment] = await tx
      .select({
        id: comments.id,
        userId: comments.userId,
        parentId: comments.parentId,
        lectureId: comments.lectureId,
        courseId: lectures.courseId,
        teacherId: courses.teacherId,
      })
      .from(comments)
      .innerJoin(lectures, eq(lectures.id, comments.lectureId))
      .innerJoin(courses, eq(courses.id, lectures.courseId))
      .where(eq(comments.id, payload.subjectId))
      .limit(1);
    if (!comment) return { written: 0 };
    const recipients: Recipient[] = [];
    if (comment.parentId) {
      const [parent] = await tx
        .select({ userId: comments.userId })
        .from(comments)
        .where(and(eq(comments.id, comment.parentId), eq(comments.lectureId, comment.lectureId)))
        .limit(1);
      // Still in the class (or its teacher), and not the replier.
      if (parent && parent.userId !== comment.userId) {
        const member =
          parent.userId === comment.teacherId ||
          (
            await tx
              .select({ id: enrollments.id })
              .from(enrollments)
              .where(and(eq(enrollments.courseId, comment.courseId), eq(enrollments.studentId, parent.userId)))
              .limit(1)
          ).length > 0;
        if (member) recipients.push({ userId: parent.userId, kind: 'reply' });
      }
    }
    if (comment.teacherId !== comment.userId && !recipients.some((r) => r.userId === comment.teacherId)) {
      recipients.push({ userId: comment.teacherId, kind: 'comment' });
    }
    await writeBatch(
      tx,
      { key: `comment:${comment.id}`, courseId: comment.courseId, lectureId: comment.lectureId, commentId: comment.id },
      recipients,
    );
    return { written: recipients.length };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

export type NotificationDeps = {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'host'
    | 'port'
    | 'jwtSecret'
    | 'mailRatePerMinute'
    | 'digestHour'
    | 'locales'
    | 'defaultLocale'
    | 'studentTracking'
    | 'timeZone'
  >;
  db: Db;
  mailer: Mailer;
  /** The rate window (a minute; tests shorten it). */
  rateWindowMs?: number;
};

function baseUrl(config: NotificationDeps['config']) {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host}:${config.port}`;
}

export const unsubscribeUrl = (config: NotificationDeps['config'], userId: string) =>
  `${baseUrl(config)}/api/notifications/unsubscribe?token=${encodeURIComponent(unsubscribeToken(config.jwtSecret, userId))}`;

const excerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text).replace(/\s+/g, ' ');

type Row = Awaited<ReturnType<typeof loadRows>>[number];

/** The rows with what their mail says (recipient, class, lecture, comment and its author). */
async function loadRows(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: notifications.id,
      userId: notifications.userId,
      kind: notifications.kind,
      mail: notifications.mail,
      courseId: notifications.courseId,
      lectureId: notifications.lectureId,
      commentId: notifications.commentId,
      aboutUserId: notifications.aboutUserId,
      email: users.email,
      username: users.username,
      locale: users.locale,
      disabledAt: users.disabledAt,
      courseName: courses.courseName,
      lectureName: lectures.nameOfTopic,
      lectureDueAt: lectures.dueAt,
      playedParts: watchCoverage.playedParts,
      commentText: comments.text,
      commentAuthorId: comments.userId,
      choice: notificationPrefs.email,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    // Account events have no class: left joins, and the class fields are null for them.
    .leftJoin(courses, eq(courses.id, notifications.courseId))
    .leftJoin(lectures, eq(lectures.id, notifications.lectureId))
    .leftJoin(comments, eq(comments.id, notifications.commentId))
    .leftJoin(notificationPrefs, eq(notificationPrefs.userId, notifications.userId))
    .leftJoin(
      watchCoverage,
      and(eq(watchCoverage.userId, notifications.userId), eq(watchCoverage.lectureId, notifications.lectureId)),
    )
    .where(inArray(notifications.id, ids));
  const authorIds = [...new Set(rows.map((row) => row.commentAuthorId).filter((id): id is string => !!id))];
  const authors = authorIds.length
    ? await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, authorIds))
    : [];
  const authorName = new Map(authors.map((a) => [a.id, a.username]));
  const aboutIds = [...new Set(rows.map((row) => row.aboutUserId).filter((id): id is string => !!id))];
  const aboutUsers = aboutIds.length
    ? await db
        .select({ id: users.id, username: users.username, email: users.email, teacherStatus: users.teacherStatus })
        .from(users)
        .where(inArray(users.id, aboutIds))
    : [];
  const aboutUser = new Map(aboutUsers.map((about) => [about.id, about]));
  return rows.map((row) => ({
    ...row,
    author: row.commentAuthorId ? authorName.get(row.commentAuthorId) : undefined,
    about: row.aboutUserId ? aboutUser.get(row.aboutUserId) : undefined,
  }));
}

/** A teacher's request that was decided before its mail went out: the administrators have nothing left to do. */
const isStale = (row: Row) => row.kind === 'teacher_waits' && row.about?.teacherStatus !== 'pending';

/** What a mail says, in its recipient's language. */
type Translate = ReturnType<typeof translatorFor>;

function itemOf(config: NotificationDeps['config'], row: Row, t: Translate): NotificationItem {
  const base = baseUrl(config);
  const teacher = row.about?.username ?? t('notifications.aTeacher');
  const product = PRODUCT_NAME;
  if (row.kind === 'teacher_waits') {
    return {
      line: t('notifications.teacherWaits.line', { teacher, email: row.about?.email ?? '' }),
      url: `${base}/admin`,
      label: t('notifications.teacherWaits.label'),
    };
  }
  if (row.kind === 'teacher_approved') {
    return {
      line: t('notifications.teacherApproved.line'),
      url: `${base}/classroom`,
      label: t('notifications.teacherApproved.label'),
    };
  }
  if (row.kind === 'teacher_declined') {
    return {
      line: t('notifications.teacherDeclined.line', { product }),
      url: `${base}/classroom`,
      label: t('notifications.teacherDeclined.label', { product }),
    };
  }
  const url = `${base}/classroom/${row.courseId}?lecture=${row.lectureId}`;
  const course = row.courseName ?? '';
  const lecture = row.lectureName ?? '';
  if (row.kind === 'lecture') return { line: t('notifications.lecture', { course, lecture }), url };
  if (row.kind === 'due_soon') {
    const due = dueText(config, row);
    return { line: t('notifications.dueSoon.line', { lecture, course, due, percent: row.playedParts ?? 0 }), url };
  }
  const author = row.author ?? t('notifications.someone');
  return {
    line:
      row.kind === 'reply'
        ? t('notifications.reply.line', { author, lecture, course })
        : t('notifications.comment.line', { author, lecture, course }),
    quote: row.commentText ? excerpt(row.commentText) : undefined,
    url,
  };
}

function subjectOf(config: NotificationDeps['config'], row: Row, t: Translate) {
  const product = PRODUCT_NAME;
  const lecture = row.lectureName ?? '';
  const author = row.author ?? t('notifications.someone');
  if (row.kind === 'teacher_waits') {
    return t('notifications.teacherWaits.subject', { teacher: row.about?.username ?? t('notifications.aTeacher') });
  }
  if (row.kind === 'teacher_approved') return t('notifications.teacherApproved.subject', { product });
  if (row.kind === 'teacher_declined') return t('notifications.teacherDeclined.subject', { product });
  if (row.kind === 'lecture') return t('notifications.lecture', { course: row.courseName ?? '', lecture });
  if (row.kind === 'due_soon') return t('notifications.dueSoon.subject', { lecture, due: dueText(config, row) });
  if (row.kind === 'reply') return t('notifications.reply.subject', { author, lecture });
  return t('notifications.comment.subject', { author, lecture });
}

/** A due date as the recipient reads it: their language, with the time zone named (the server's clock is UTC). */
function dueText(config: NotificationDeps['config'], row: Pick<Row, 'locale' | 'lectureDueAt'>) {
  if (row.lectureDueAt === null) return '';
  return new Intl.DateTimeFormat(localeOfAccount(row, config), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: config.timeZone,
    timeZoneName: 'short',
  }).format(new Date(row.lectureDueAt));
}

/** The recipient's language: their choice in Settings while the school offers it, else the school's. */
const translatorOf = (config: NotificationDeps['config'], row: Pick<Row, 'locale'>) =>
  translatorFor(localeOfAccount(row, config));

const mailFor = (
  config: NotificationDeps['config'],
  user: Pick<Row, 'email' | 'username' | 'userId' | 'locale'>,
  subject: string,
  items: NotificationItem[],
) =>
  notificationMail(
    localeOfAccount(user, config),
    user.email,
    user.username,
    subject,
    items,
    unsubscribeUrl(config, user.userId),
    `${baseUrl(config)}/settings`,
  );

export function createMailRate(deps: NotificationDeps) {
  return createRateLimiter(deps.db, 'notification-mail', deps.config.mailRatePerMinute, deps.rateWindowMs ?? 60_000);
}

/**
 * One run of a `send-mail` job: mails its `pending` rows in turn, each after taking a slot of the rate. When the
 * rate is used up, the rest go to a follow-on job due when the window ends (its id fixed by this one's, so a
 * repeated run adds none). A row is marked sent after the SMTP server took it; an SMTP failure fails the attempt
 * and the job's retry (with backoff) sends only what is still pending. The choice is read again here: someone who
 * unsubscribed after the event gets nothing.
 */
export async function sendPending(
  deps: NotificationDeps,
  payload: { ids: string[]; chain?: string; round?: number },
  context: { jobId: string; signal?: AbortSignal },
  rate = createMailRate(deps),
) {
  const { db } = deps;
  const rows = new Map((await loadRows(db, payload.ids)).map((row) => [row.id, row]));
  let sent = 0;
  for (const [index, id] of payload.ids.entries()) {
    if (context.signal?.aborted) throw new Error('stopped');
    const row = rows.get(id);
    if (row?.mail !== 'pending') continue;
    const choice = row.choice ?? 'every';
    if (isStale(row)) {
      await db
        .update(notifications)
        .set({ mail: 'skipped' })
        .where(and(eq(notifications.id, id), eq(notifications.mail, 'pending')));
      continue;
    }
    if (choice !== 'every' || row.disabledAt !== null) {
      await db
        .update(notifications)
        .set({ mail: choice === 'daily' && row.disabledAt === null ? 'digest' : 'skipped' })
        .where(and(eq(notifications.id, id), eq(notifications.mail, 'pending')));
      continue;
    }
    const wait = await rate.hit('all');
    if (wait > 0) {
      const chain = payload.chain ?? context.jobId;
      const round = (payload.round ?? 0) + 1;
      await enqueueJob(
        db,
        'send-mail',
        { ids: payload.ids.slice(index), chain, round },
        { id: `${chain}~${round}`, delayMs: wait * 1000, maxAttempts: 5 },
      );
      return { sent, deferred: payload.ids.length - index };
    }
    const t = translatorOf(deps.config, row);
    await deps.mailer.send(mailFor(deps.config, row, subjectOf(deps.config, row, t), [itemOf(deps.config, row, t)]));
    await db
      .update(notifications)
      .set({ mail: 'sent', mailedAt: nowMs(db) })
      .where(and(eq(notifications.id, id), eq(notifications.mail, 'pending')));
    sent++;
  }
  return { sent, deferred: 0 };
}

/**
 * The daily digest (the periodic `digest` job): from DIGEST_HOUR (UTC) on, each person with waiting `digest` rows
 * and no digest yet today gets one mail listing them; nothing is sent to someone with nothing waiting. Within the
 * mail rate; who is left waits for the next run.
 */
export async function sendDigests(deps: NotificationDeps, now = new Date(), rate = createMailRate(deps)) {
  const { db, config } = deps;
  if (now.getUTCHours() < config.digestHour) return { sent: 0 };
  const startOfDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const due = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .leftJoin(notificationPrefs, eq(notificationPrefs.userId, notifications.userId))
    .where(
      and(
        eq(notifications.mail, 'digest'),
        or(isNull(notificationPrefs.lastDigestAt), lt(notificationPrefs.lastDigestAt, startOfDay)),
      ),
    )
    .limit(DIGEST_BATCH);
  let sent = 0;
  for (const { userId } of due) {
    const ids = (
      await db
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.mail, 'digest')))
        .orderBy(asc(notifications.createdAt))
        .limit(DIGEST_ITEMS)
    ).map((row) => row.id);
    const loaded = await loadRows(db, ids);
    const stale = loaded.filter(isStale).map((row) => row.id);
    if (stale.length > 0) {
      await db
        .update(notifications)
        .set({ mail: 'skipped' })
        .where(and(inArray(notifications.id, stale), eq(notifications.mail, 'digest')));
    }
    const rows = loaded.filter((row) => !isStale(row));
    const first = rows[0];
    if (!first) continue;
    if (first.choice === 'none' || first.disabledAt !== null) {
      await db
        .update(notifications)
        .set({ mail: 'skipped' })
        .where(and(inArray(notifications.id, ids), eq(notifications.mail, 'digest')));
      continue;
    }
    if ((await rate.hit('all')) > 0) break;
    const t = translatorOf(config, first);
    const subject =
      rows.length === 1
        ? t('notifications.digest.subjectOne', { product: PRODUCT_NAME, subject: subjectOf(config, first, t) })
        : t('notifications.digest.subjectMany', { product: PRODUCT_NAME, count: rows.length });
    await deps.mailer.send(
      mailFor(
        config,
        first,
        subject,
        rows.map((row) => itemOf(config, row, t)),
      ),
    );
    await transaction(db, async (tx) => {
      const at = nowMs(tx);
      await tx
        .update(notifications)
        .set({ mail: 'sent', mailedAt: at })
        .where(and(inArray(notifications.id, ids), eq(notifications.mail, 'digest')));
      await tx
        .insert(notificationPrefs)
        .values({ userId, email: first.choice ?? 'daily', lastDigestAt: now.getTime(), updatedAt: at })
        .onConflictDoUpdate({ target: notificationPrefs.userId, set: { lastDigestAt: now.getTime() } });
    });
    sent++;
  }
  return { sent };
}

// ---------------------------------------------------------------------------------------------------------------
// Due dates

/** Students are reminded this long before a lecture's due date. */
export const REMIND_BEFORE_MS = 24 * 60 * 60 * 1000;
/** How often the reminder job looks for lectures coming due. */
export const DUE_REMINDERS_EVERY_MS = 10 * 60 * 1000;
const REMINDER_LECTURES = 50;

/**
 * One run of the periodic `due-reminders` job: each lecture due within a day and not yet reminded of gets a
 * `due_soon` row for every enrolled student who has not completed it, in the lecture's transaction with its
 * `reminded_at` (once per lecture and date: a new date clears it). The rows follow each person's email choice.
 */
export async function sendDueReminders(db: Db, now = Date.now()) {
  const coming = await db
    .select({ id: lectures.id, courseId: lectures.courseId, dueAt: lectures.dueAt })
    .from(lectures)
    .where(
      and(
        isNotNull(lectures.dueAt),
        isNull(lectures.remindedAt),
        gt(lectures.dueAt, now),
        lte(lectures.dueAt, now + REMIND_BEFORE_MS),
      ),
    )
    .orderBy(asc(lectures.dueAt))
    .limit(REMINDER_LECTURES);
  let written = 0;
  for (const lecture of coming) {
    written += await transaction(db, async (tx) => {
      const claimed = await tx
        .update(lectures)
        .set({ remindedAt: now })
        .where(and(eq(lectures.id, lecture.id), isNull(lectures.remindedAt)))
        .returning({ id: lectures.id });
      if (claimed.length === 0) return 0;
      const students = await tx
        .select({ userId: enrollments.studentId })
        .from(enrollments)
        .where(
          and(
            eq(enrollments.courseId, lecture.courseId),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(watchCoverage)
                .where(
                  and(
                    eq(watchCoverage.userId, enrollments.studentId),
                    eq(watchCoverage.lectureId, lecture.id),
                    isNotNull(watchCoverage.completedAt),
                  ),
                ),
            ),
          ),
        )
        .orderBy(asc(enrollments.studentId));
      for (let start = 0; start < students.length; start += FAN_OUT_BATCH) {
        await writeBatch(
          tx,
          {
            key: `due:${lecture.id}:${lecture.dueAt}`,
            courseId: lecture.courseId,
            lectureId: lecture.id,
            commentId: null,
          },
          students.slice(start, start + FAN_OUT_BATCH).map((student) => ({ userId: student.userId, kind: 'due_soon' })),
        );
      }
      return students.length;
    });
  }
  return { lectures: coming.length, written };
}

/** How long a delivered (or skipped) notification row is kept: the unread dot of a class unvisited for longer goes. */
export const KEEP_NOTIFICATIONS_MS = 180 * 24 * 60 * 60 * 1000;

/** How long a finished `send-mail` or `notify` job stays in the jobs table. */
const KEEP_FINISHED_JOBS_MS = 7 * 24 * 60 * 60 * 1000;

/** Drops delivered and skipped rows older than KEEP_NOTIFICATIONS_MS (the periodic sweep): the table stays small. */
export async function pruneNotifications(db: Db) {
  const gone = await db
    .delete(notifications)
    .where(
      and(
        inArray(notifications.mail, ['sent', 'skipped']),
        lt(notifications.createdAt, sql`${nowMs(db)} - ${KEEP_NOTIFICATIONS_MS}`),
      ),
    )
    .returning({ id: notifications.id });
  // Their finished jobs too, after a week (who was told is kept in the rows themselves, never in a job).
  await db
    .delete(jobs)
    .where(
      and(
        eq(jobs.state, 'done'),
        inArray(jobs.type, ['send-mail', 'notify']),
        lt(jobs.finishedAt, sql`${nowMs(db)} - ${KEEP_FINISHED_JOBS_MS}`),
      ),
    );
  return gone.length;
}

/** The job handlers of notifications, for the one worker (src/worker-jobs.ts). */
export function notificationHandlers(
  deps: NotificationDeps,
): Pick<JobHandlers, 'notify' | 'send-mail' | 'digest' | 'due-reminders'> {
  const rate = createMailRate(deps);
  return {
    notify: {
      run: (payload, context) => fanOut(deps.db, payload, context.job.id),
    },
    'send-mail': {
      run: (payload, context) => sendPending(deps, payload, { jobId: context.job.id, signal: context.signal }, rate),
    },
    digest: {
      everyMs: DIGEST_EVERY_MS,
      run: () => sendDigests(deps, new Date(), rate),
    },
    'due-reminders': {
      everyMs: DUE_REMINDERS_EVERY_MS,
      run: async () => {
        // With STUDENT_TRACKING=off no per-student row is kept: any from before (coverage, answers) are deleted here.
        if (!deps.config.studentTracking) {
          await deleteAllCoverage(deps.db);
          await deleteAllAnswers(deps.db);
        }
        return sendDueReminders(deps.db);
      },
    },
  };
}
