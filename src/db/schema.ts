import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import * as pg from './schema.pg';

/**
 * The tables, as SQLite's (drizzle-kit reads this file for migrations/). PostgreSQL's twins are in schema.pg.ts,
 * with the same tables, columns and indexes (schema-parity.test.ts). Every query imports its tables from here;
 * `openDatabase` makes them the opened engine's (`selectEngineTables`) before any query runs, so one query set,
 * typed once against these declarations, runs on either engine. One process works with one engine.
 */

// SQLite's own clock for defaults (schema.pg.ts has PostgreSQL's); released migrations carry it.
const now = sql`(unixepoch('subsec') * 1000)`;

export let users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** Argon2id; '' for an account made by a school sign-in, which has no password (password login refuses it). */
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['teacher', 'student'] }).notNull(),
    /** The administrator of this server (there may be several); independent of the spec's role. */
    isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
    /** For teachers: whether the administrator let them teach (TEACHER_SIGNUP); null for students. */
    teacherStatus: text('teacher_status', { enum: ['approved', 'pending', 'declined'] }),
    /** A disabled account cannot sign in; its sessions were ended. */
    disabledAt: integer('disabled_at'),
    /** The last sign-in, for the administrator's list. */
    lastLoginAt: integer('last_login_at'),
    /** Set when the account is made: an account exists only once its address was proven (see signups). */
    emailVerifiedAt: integer('email_verified_at'),
    /** 0 = no picture; otherwise bumped on each upload so the picture URL changes. */
    avatarVersion: integer('avatar_version').notNull().default(0),
    /** The language chosen in Settings (src/contract/locales.ts); null follows the browser, and mails the school's. */
    locale: text('locale'),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

/**
 * A sign-up waiting for its address to be proven. Each registration is its own row with its own password and
 * code, so a second sign-up for the same address can never change the password of the first (docs/accounts.md).
 */
export let signups = sqliteTable(
  'signups',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    role: text('role', { enum: ['teacher', 'student'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    codeExpiresAt: integer('code_expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sentAt: integer('sent_at').notNull(),
    /** SHA-256 of the random key in the registering browser's `signup` cookie; null for sign-ups made before it. */
    clientKeyHash: text('client_key_hash'),
    /** The sign-up is forgotten after this. */
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [index('signups_email').on(table.email, table.createdAt)],
);

export type Signup = typeof signups.$inferSelect;

/** A signed-in device: the token names it, logging out deletes it, a password reset deletes them all. */
export let sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull().default(now),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [index('sessions_user').on(table.userId)],
);

/**
 * A school account (OpenID Connect) that signs in to a user: keyed by the provider's (issuer, subject), never by
 * email (docs/accounts.md). Made at a first school sign-in, or linked from a signed-in session in Settings.
 */
export let userIdentities = sqliteTable(
  'user_identities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    /** The address the provider gave at the last sign-in (shown in Settings; never used to find the account). */
    email: text('email'),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('user_identities_issuer_subject').on(table.issuer, table.subject),
    index('user_identities_user').on(table.userId),
  ],
);

export type UserIdentity = typeof userIdentities.$inferSelect;

/**
 * A school sign-in on its way through the provider: what the callback needs to check the answer (PKCE verifier,
 * state, nonce) and where to go after. In the database so any server can take the callback; the browser holds
 * only a random key (its HttpOnly cookie), stored here hashed. Forgotten after 10 minutes.
 */
export let oidcAttempts = sqliteTable(
  'oidc_attempts',
  {
    /** SHA-256 of the key in the browser's `oidc_attempt` cookie. */
    keyHash: text('key_hash').primaryKey(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** Same-origin path to land on after signing in. */
    next: text('next').notNull(),
    intent: text('intent', { enum: ['sign_in', 'link', 'confirm'] }).notNull(),
    /** For `link` and `confirm`: the signed-in user the school account is linked to (or must be). */
    linkUserId: text('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (table) => [index('oidc_attempts_created').on(table.createdAt)],
);

export type OidcAttempt = typeof oidcAttempts.$inferSelect;

/** Browsers that signed in to an account before: the lock for wrong passwords does not apply to them. */
export let knownDevices = sqliteTable(
  'known_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the random key in the browser's `device` cookie. */
    deviceHash: text('device_hash').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceHash] })],
);

/** The one live password-reset code of a user; a new code replaces the old row. */
export let emailCodes = sqliteTable(
  'email_codes',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sentAt: integer('sent_at').notNull(),
  },
  (table) => [index('email_codes_expires').on(table.expiresAt)],
);

export type User = typeof users.$inferSelect;

export let courses = sqliteTable(
  'courses',
  {
    id: text('id').primaryKey(),
    courseName: text('course_name').notNull(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    semester: integer('semester'),
    /** Stored upper-case; matched without regard to case. */
    inviteCode: text('invite_code').notNull(),
    /** Whether students may save the class's lectures for offline viewing (docs/offline.md); the teacher always may. */
    downloadsAllowed: integer('downloads_allowed', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('courses_invite_code_unique').on(table.inviteCode),
    index('courses_teacher').on(table.teacherId),
  ],
);

export let enrollments = sqliteTable(
  'enrollments',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: integer('joined_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('enrollments_course_student_unique').on(table.courseId, table.studentId),
    index('enrollments_student').on(table.studentId),
  ],
);

/** One private notes text per user and course (students, and the teacher for their own class). */
export let notes = sqliteTable(
  'notes',
  {
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] })],
);

export type Course = typeof courses.$inferSelect;

/** An uploaded video; its status, attempts and progress follow its transcode job, a row of `jobs`. */
export let videos = sqliteTable(
  'videos',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A projection of its transcode job's state, written with it (src/media/state.ts). */
    status: text('status', { enum: ['queued', 'processing', 'ready', 'failed', 'cancelled'] }).notNull(),
    /** 0 to 100. */
    progress: real('progress').notNull().default(0),
    etaSeconds: integer('eta_seconds'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    sourceName: text('source_name').notNull(),
    sourceBytes: integer('source_bytes').notNull(),
    durationMs: integer('duration_ms').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    hasAudio: integer('has_audio', { mode: 'boolean' }).notNull(),
    /** JSON Plan: the rungs being or already made (measured bandwidth once ready), fps, audio. */
    plan: text('plan').notNull(),
    hasPoster: integer('has_poster', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull().default(now),
    startedAt: integer('started_at'),
    firstPlayableAt: integer('first_playable_at'),
    finishedAt: integer('finished_at'),
    /**
     * The slide index (src/media/slides-job.ts): a projection of its `slides` job (null before one is queued;
     * `none` when the video is not slides, `failed` when detection gave up).
     */
    slidesState: text('slides_state', { enum: ['pending', 'ready', 'none', 'failed'] }),
    /** The teacher switched the slide index off for this video's lecture. */
    slidesOff: integer('slides_off', { mode: 'boolean' }).notNull().default(false),
    /** The owner's trim: the published video runs from start to end of the original (null: all of it). */
    trimStartMs: integer('trim_start_ms'),
    trimEndMs: integer('trim_end_ms'),
    /** How long the original runs, once a trim made `durationMs` shorter (null: `durationMs`). */
    sourceDurationMs: integer('source_duration_ms'),
  },
  (table) => [index('videos_status').on(table.status, table.createdAt), index('videos_owner').on(table.ownerId)],
);

export let lectures = sqliteTable(
  'lectures',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    nameOfTopic: text('name_of_topic').notNull(),
    videoId: text('video_id').references(() => videos.id, { onDelete: 'set null' }),
    noOfViews: integer('no_of_views').notNull().default(0),
    noOfLikes: integer('no_of_likes').notNull().default(0),
    /** Free text by the teacher; lines starting with a time (`12:30 Worked example`) are its chapters. */
    description: text('description').notNull().default(''),
    /** JSON `[{ seconds, title }]` set in the chapter editor: overrides the description's; null = the description's. */
    chapters: text('chapters'),
    createdAt: integer('created_at').notNull().default(now),
    /** When its students were told it is ready (ms): they are told once per lecture, whatever re-transcodes follow. */
    studentsToldAt: integer('students_told_at'),
    /** "Watch by" (ms), set by the teacher; null = no due date. */
    dueAt: integer('due_at'),
    /** When its students were reminded a day before `dueAt` (ms): once per lecture. */
    remindedAt: integer('reminded_at'),
    /** "No skipping ahead": a student seeks no further than their first unanswered question or what they played. */
    noSkip: integer('no_skip', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [index('lectures_course').on(table.courseId, table.createdAt), index('lectures_video').on(table.videoId)],
);

/** Captions of a lecture, one per language: the WebVTT text itself (small, and backed up with the database). */
export let captions = sqliteTable(
  'captions',
  {
    id: text('id').primaryKey(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** A BCP 47 tag (en, de, pt-BR). */
    language: text('language').notNull(),
    label: text('label').notNull(),
    vtt: text('vtt').notNull(),
    createdAt: integer('created_at').notNull().default(now),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (table) => [uniqueIndex('captions_lecture_language').on(table.lectureId, table.language)],
);

export type Caption = typeof captions.$inferSelect;

export type Video = typeof videos.$inferSelect;
export type Lecture = typeof lectures.$inferSelect;

/**
 * A video's rung remuxed into one MP4 for offline viewing (src/media/download-job.ts), made on demand and kept in
 * storage under `downloadKey`. `status` is a projection of its `download` job (jobs/types.ts), written with it.
 */
export let downloads = sqliteTable(
  'downloads',
  {
    id: text('id').primaryKey(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** The index of the remuxed rung in the video's plan. */
    rung: integer('rung').notNull(),
    status: text('status', { enum: ['queued', 'preparing', 'ready', 'failed'] }).notNull(),
    /** 0 to 100. */
    progress: real('progress').notNull().default(0),
    /** The MP4's size once ready. */
    bytes: integer('bytes'),
    error: text('error'),
    createdAt: integer('created_at').notNull().default(now),
    finishedAt: integer('finished_at'),
  },
  (table) => [uniqueIndex('downloads_video_rung').on(table.videoId, table.rung)],
);

export type Download = typeof downloads.$inferSelect;

/** One like per user and lecture: the primary key is the rule. */
export let likes = sqliteTable(
  'likes',
  {
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [primaryKey({ columns: [table.lectureId, table.userId] })],
);

/** When a user's view of a lecture was last counted, so a view counts at most once an hour. */
export let viewMarks = sqliteTable(
  'view_marks',
  {
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    countedAt: integer('counted_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.lectureId, table.userId] })],
);

export let comments = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** The comment this one answers (a reply), if any; its author is told (src/notifications). */
    parentId: text('parent_id'),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [index('comments_lecture_created').on(table.lectureId, table.createdAt)],
);

/** Where a user got to in a lecture, for resume on any device, history and the teacher's table. */
export let watchProgress = sqliteTable(
  'watch_progress',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    positionSeconds: real('position_seconds').notNull(),
    durationSeconds: real('duration_seconds').notNull(),
    /** The furthest point reached, for "how much was watched". */
    furthestSeconds: real('furthest_seconds').notNull(),
    completed: integer('completed', { mode: 'boolean' }).notNull().default(false),
    updatedAt: integer('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.lectureId] }),
    index('watch_progress_user_updated').on(table.userId, table.updatedAt),
    index('watch_progress_lecture').on(table.lectureId),
  ],
);

/**
 * Which parts of a lecture's video a student really played (docs/teaching.md): the video is split into 100 parts,
 * `played` seconds per part accumulate from the player's reports (capped by real time), and a part's play count
 * follows from them. Deleted with the enrollment, the account or the lecture.
 */
export let watchCoverage = sqliteTable(
  'watch_coverage',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** 100 play counts, one byte each (capped 255), as 200 hex characters. */
    plays: text('plays').notNull(),
    /** 100 comma-separated tenths of a second played per part, accumulated. */
    partial: text('partial').notNull(),
    /** How many of the 100 parts were played at least once (the percent). */
    playedParts: integer('played_parts').notNull().default(0),
    watchedSeconds: real('watched_seconds').notNull().default(0),
    firstAt: integer('first_at').notNull(),
    /** The last report (ms): the next one may add what the time since allows. */
    lastAt: integer('last_at').notNull(),
    /** The last offline report (ms): one per lecture per hour. */
    offlineAt: integer('offline_at'),
    /** A digest of the last report's ranges: the same report sent twice (a beacon after a tick) adds nothing. */
    lastReport: text('last_report').notNull().default(''),
    completedAt: integer('completed_at'),
    /** Completed after the lecture's due date. */
    late: integer('late', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.lectureId] }),
    index('watch_coverage_lecture').on(table.lectureId),
  ],
);

/**
 * A student's totals over a class's lectures, kept with every report (the teacher's table sorts and filters a big
 * class by these without reading its coverage rows). Deleted with the enrollment, the account or the class; rebuilt
 * when a lecture is deleted.
 */
export let courseCoverage = sqliteTable(
  'course_coverage',
  {
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sum of `played_parts` over the class's lectures. */
    parts: integer('parts').notNull().default(0),
    /** Lectures started (rows) and completed. */
    started: integer('started').notNull().default(0),
    done: integer('done').notNull().default(0),
    lastAt: integer('last_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] })],
);

/** With STUDENT_TRACKING=off: anonymous plays per part of a lecture, no per-student rows. */
export let lecturePartTotals = sqliteTable('lecture_part_totals', {
  lectureId: text('lecture_id')
    .primaryKey()
    .references(() => lectures.id, { onDelete: 'cascade' }),
  /** 100 comma-separated play counts. */
  plays: text('plays').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * A question asked at a moment of a lecture's video (docs/teaching.md, "Questions inside the video"). `answer_key`
 * never leaves the server for a student before their final answer. `version` counts the edits that changed what is
 * right (kind, choices or key): an answer to an earlier version reads as `changed`.
 */
export let lectureQuestions = sqliteTable(
  'lecture_questions',
  {
    id: text('id').primaryKey(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** The second of the video it is asked at. */
    at: real('at').notNull(),
    kind: text('kind', { enum: ['choice', 'truefalse', 'short'] }).notNull(),
    prompt: text('prompt').notNull(),
    /** JSON array of the choices' texts ('[]' but for a choice question). */
    choices: text('choices').notNull().default('[]'),
    /** JSON: the right choices' indexes, or true/false; null for a short answer. */
    answerKey: text('answer_key'),
    /** A short answer the teacher marks (counted in the score); unmarked ones never are. */
    marked: integer('marked', { mode: 'boolean' }).notNull().default(false),
    /** The student is told right or wrong, and may try again after a wrong answer. */
    feedback: integer('feedback', { mode: 'boolean' }).notNull().default(true),
    version: integer('version').notNull().default(0),
    createdAt: integer('created_at').notNull().default(now),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (table) => [index('lecture_questions_lecture').on(table.lectureId, table.at)],
);

/**
 * A student's answer to a question, scored by the server (`correct` null: not scored, or waiting for the teacher's
 * mark). `lecture_id` lets leaving a class delete its answers; deleted with the account, the question or the lecture.
 */
export let questionAnswers = sqliteTable(
  'question_answers',
  {
    questionId: text('question_id')
      .notNull()
      .references(() => lectureQuestions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** JSON: the picked choices' indexes (sorted), true/false, or the short answer's text. */
    answer: text('answer').notNull(),
    correct: integer('correct', { mode: 'boolean' }),
    tries: integer('tries').notNull().default(1),
    /** The question's version this answer was scored against. */
    version: integer('version').notNull().default(0),
    answeredAt: integer('answered_at').notNull(),
    /** Answered while offline, sent once the network came back. */
    offline: integer('offline', { mode: 'boolean' }).notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.questionId, table.userId] }),
    index('question_answers_lecture_user').on(table.lectureId, table.userId),
    index('question_answers_user').on(table.userId),
  ],
);

export type LectureQuestion = typeof lectureQuestions.$inferSelect;
export type QuestionAnswer = typeof questionAnswers.$inferSelect;
export type WatchCoverage = typeof watchCoverage.$inferSelect;
export type Enrollment = typeof enrollments.$inferSelect;
export type WatchProgress = typeof watchProgress.$inferSelect;

/**
 * Background work as rows: a handler map in src/jobs dispatches by `type`. A worker claims a job with a
 * lease and renews it with a heartbeat; a job whose lease ran out (its worker died) is taken back by
 * any worker; a graceful stop puts it back without using an attempt.
 */
export let jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** JSON given to the handler. */
    payload: text('payload').notNull(),
    /** What the job is about (a video id), so it can be cancelled with it. */
    subjectId: text('subject_id'),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'cancelled'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** Runs cut short by a worker that died (kill, crash, power): not attempts, but bounded (a poison file). */
    interruptions: integer('interruptions').notNull().default(0),
    /** Whether the current run took the job back from a worker whose lease ran out. */
    resumed: integer('resumed', { mode: 'boolean' }).notNull().default(false),
    runAfter: integer('run_after').notNull(),
    /** Claimed after every due job of a lower number (0: transcodes, mail; 10: the slide index). */
    priority: integer('priority').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: integer('lease_until'),
    heartbeatAt: integer('heartbeat_at'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull().default(now),
    finishedAt: integer('finished_at'),
  },
  (table) => [index('jobs_ready').on(table.state, table.runAfter), index('jobs_subject').on(table.subjectId)],
);

export type Job = typeof jobs.$inferSelect;

/** Each job worker's last sign of life (its heartbeat), for the readiness check. */
export let workers = sqliteTable('workers', {
  owner: text('owner').primaryKey(),
  beatAt: integer('beat_at').notNull(),
});

/**
 * Rate-limit windows shared by every server process (src/lib/rate-limit.ts): one row per limiter and key, the key
 * kept as a hash (never an address or email), counted by one upsert per hit on the database's clock.
 */
export let rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: integer('reset_at').notNull(),
  },
  (table) => [index('rate_limits_reset_at').on(table.resetAt)],
);

/** A person's choice of notification email (no row: `every`), and when their last daily digest went out. */
export let notificationPrefs = sqliteTable('notification_prefs', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email', { enum: ['every', 'daily', 'none'] }).notNull(),
  lastDigestAt: integer('last_digest_at'),
  updatedAt: integer('updated_at').notNull(),
});

/** When a person last opened a class: what came after it is "new" (the unread dot). */
export let classVisits = sqliteTable(
  'class_visits',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    visitedAt: integer('visited_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.courseId] })],
);

/** What a notification is about: class events, and a teacher's account waiting or being decided. */
export const NOTIFICATION_KINDS = [
  'lecture',
  'comment',
  'reply',
  'teacher_waits',
  'teacher_approved',
  'teacher_declined',
  /** A lecture is due in a day and the student has not completed it (docs/teaching.md). */
  'due_soon',
] as const;

/**
 * One row per event and recipient (src/notifications): what is new in a class for that person, and the email's
 * state. `key` (event + recipient) is unique, so a fan-out or a send that runs again never makes a second mail.
 */
export let notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    key: text('key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The class and lecture of a class event; null for an account event (a teacher's approval). */
    courseId: text('course_id').references(() => courses.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id').references(() => lectures.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** For an account event: whose account it is about (the teacher who waits, or was approved or declined). */
    aboutUserId: text('about_user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    /** `pending`: to mail now; `digest`: waits for the daily digest; `sent`; `skipped` (the person chose none). */
    mail: text('mail', { enum: ['pending', 'digest', 'sent', 'skipped'] }).notNull(),
    createdAt: integer('created_at').notNull().default(now),
    mailedAt: integer('mailed_at'),
  },
  (table) => [
    uniqueIndex('notifications_key').on(table.key),
    index('notifications_user_course').on(table.userId, table.courseId, table.createdAt),
    index('notifications_mail').on(table.mail, table.userId),
    index('notifications_about_user').on(table.aboutUserId),
  ],
);

export type Notification = typeof notifications.$inferSelect;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds of text search finds (src/search): chapters (and later slides) are written into the same index. */
export const SEARCH_KINDS = ['title', 'description', 'caption', 'comment', 'chapter', 'slide'] as const;

/**
 * One slide of a video's slide index (src/media/slides-job.ts): where the picture changed (`seconds`), the settled
 * frame its thumbnail and text come from (`frameSeconds`), the words Tesseract read on it, and the teacher's title
 * and hiding. The thumbnail's key is built from the ids (storage/keys.ts slideThumbnailKey).
 */
export let slides = sqliteTable(
  'slides',
  {
    id: text('id').primaryKey(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    seconds: real('seconds').notNull(),
    frameSeconds: real('frame_seconds').notNull(),
    text: text('text').notNull().default(''),
    title: text('title'),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [index('slides_video').on(table.videoId, table.seconds)],
);

export type Slide = typeof slides.$inferSelect;

/**
 * One searchable piece of text: a lecture's title, a caption cue (with its start second), a comment. The engines'
 * full-text indexes are built over `text` by the search_index migrations (SQLite: the FTS5 table `search_fts` kept
 * in step by triggers; PostgreSQL: a GIN index on its tsvector). Rows go with their lecture, caption or comment.
 */
export let searchEntries = sqliteTable(
  'search_entries',
  {
    /** An INTEGER PRIMARY KEY: the rowid FTS5 points at, which VACUUM keeps. */
    id: integer('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SEARCH_KINDS }).notNull(),
    captionId: text('caption_id').references(() => captions.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    slideId: text('slide_id').references(() => slides.id, { onDelete: 'cascade' }),
    /** Where in the lecture the text is said (captions, comments with a time, chapters); null for titles. */
    seconds: real('seconds'),
    text: text('text').notNull(),
  },
  (table) => [
    index('search_entries_lecture').on(table.lectureId, table.kind),
    index('search_entries_caption').on(table.captionId),
    index('search_entries_comment').on(table.commentId),
    index('search_entries_slide').on(table.slideId),
  ],
);

/** An LMS registered as an LTI 1.3 platform (docs/lti.md): where its sign-in, token and key set live. */
export let ltiPlatforms = sqliteTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    /** JSON array of the deployment ids a launch may carry. */
    deploymentIds: text('deployment_ids').notNull().default('[]'),
    /** JSON array of the origins its pages frame us from, learned from signed launches (Canvas: the school's host). */
    frameOrigins: text('frame_origins').notNull().default('[]'),
    createdAt: integer('created_at').notNull().default(now),
  },
  (table) => [uniqueIndex('lti_platforms_issuer_client').on(table.issuer, table.clientId)],
);

export type LtiPlatform = typeof ltiPlatforms.$inferSelect;

/** Our own LTI key pairs: the newest signs, all are published at /api/lti/jwks. `privateJwk` is a secret. */
export let ltiToolKeys = sqliteTable('lti_tool_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: text('private_jwk').notNull(),
  publicJwk: text('public_jwk').notNull(),
  createdAt: integer('created_at').notNull().default(now),
});

/** Nonces of launches already accepted, until they expire: a second launch with one is a replay. */
export let ltiNonces = sqliteTable(
  'lti_nonces',
  {
    nonce: text('nonce').notNull(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.nonce, table.platformId] }),
    index('lti_nonces_expires').on(table.expiresAt),
  ],
);

/** A course of the LMS (its `context_id`) mapped to one of our classes, with its roster and gradebook services. */
export let ltiContexts = sqliteTable(
  'lti_contexts',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    contextId: text('context_id').notNull(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text('title'),
    /** NRPS context_memberships_url, when the platform offers rosters. */
    membershipsUrl: text('memberships_url'),
    /** AGS lineitems URL, when the platform offers a gradebook. */
    lineitemsUrl: text('lineitems_url'),
    /** JSON array of the AGS scopes the platform granted. */
    agsScopes: text('ags_scopes').notNull().default('[]'),
    lastRosterSyncAt: integer('last_roster_sync_at'),
  },
  (table) => [
    uniqueIndex('lti_contexts_platform_context').on(table.platformId, table.contextId),
    index('lti_contexts_course').on(table.courseId),
  ],
);

export type LtiContext = typeof ltiContexts.$inferSelect;

/** A link placed in the LMS (its `resource_link.id`): the class or one lecture it opens, and its gradebook column. */
export let ltiResourceLinks = sqliteTable(
  'lti_resource_links',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    resourceLinkId: text('resource_link_id').notNull(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id').references(() => lectures.id, { onDelete: 'set null' }),
    /** AGS line item of this link (Moodle's carries a query string, kept as is). */
    lineitemUrl: text('lineitem_url'),
    /** What the grade is: the percent watched, or the question score. */
    scoreSource: text('score_source', { enum: ['watched', 'questions'] })
      .notNull()
      .default('watched'),
  },
  (table) => [
    uniqueIndex('lti_resource_links_platform_link').on(table.platformId, table.resourceLinkId),
    index('lti_resource_links_course').on(table.courseId),
    index('lti_resource_links_lecture').on(table.lectureId),
  ],
);

export type LtiResourceLink = typeof ltiResourceLinks.$inferSelect;

/** The last score sent to the LMS per link and person: the same value is never sent twice. */
export let ltiScoresSent = sqliteTable(
  'lti_scores_sent',
  {
    resourceLinkRowId: text('resource_link_row_id')
      .notNull()
      .references(() => ltiResourceLinks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scoreGiven: real('score_given').notNull(),
    sentAt: integer('sent_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.resourceLinkRowId, table.userId] }),
    index('lti_scores_sent_user').on(table.userId),
  ],
);

/** SQLite's tables, as declared above (before any switch). */
export const sqliteTables = {
  users,
  signups,
  sessions,
  userIdentities,
  oidcAttempts,
  knownDevices,
  emailCodes,
  courses,
  enrollments,
  notes,
  videos,
  lectures,
  captions,
  likes,
  viewMarks,
  comments,
  watchProgress,
  watchCoverage,
  courseCoverage,
  lecturePartTotals,
  lectureQuestions,
  questionAnswers,
  jobs,
  workers,
  rateLimits,
  notificationPrefs,
  classVisits,
  notifications,
  searchEntries,
  slides,
  downloads,
  ltiPlatforms,
  ltiToolKeys,
  ltiNonces,
  ltiContexts,
  ltiResourceLinks,
  ltiScoresSent,
};

export type Tables = typeof sqliteTables;

/** The tables of an engine, typed as one set (the PostgreSQL twins have the same columns and TypeScript types). */
export function tablesOf(engine: 'sqlite' | 'postgres'): Tables {
  return engine === 'postgres' ? (pg.pgTables as unknown as Tables) : sqliteTables;
}

/** Makes every table exported above the engine's (ES module exports are live bindings). */
export function selectEngineTables(engine: 'sqlite' | 'postgres') {
  const tables = tablesOf(engine);
  users = tables.users;
  signups = tables.signups;
  sessions = tables.sessions;
  userIdentities = tables.userIdentities;
  oidcAttempts = tables.oidcAttempts;
  knownDevices = tables.knownDevices;
  emailCodes = tables.emailCodes;
  courses = tables.courses;
  enrollments = tables.enrollments;
  notes = tables.notes;
  videos = tables.videos;
  lectures = tables.lectures;
  captions = tables.captions;
  likes = tables.likes;
  viewMarks = tables.viewMarks;
  comments = tables.comments;
  watchProgress = tables.watchProgress;
  watchCoverage = tables.watchCoverage;
  courseCoverage = tables.courseCoverage;
  lecturePartTotals = tables.lecturePartTotals;
  lectureQuestions = tables.lectureQuestions;
  questionAnswers = tables.questionAnswers;
  jobs = tables.jobs;
  workers = tables.workers;
  rateLimits = tables.rateLimits;
  notificationPrefs = tables.notificationPrefs;
  classVisits = tables.classVisits;
  notifications = tables.notifications;
  searchEntries = tables.searchEntries;
  slides = tables.slides;
  downloads = tables.downloads;
  ltiPlatforms = tables.ltiPlatforms;
  ltiToolKeys = tables.ltiToolKeys;
  ltiNonces = tables.ltiNonces;
  ltiContexts = tables.ltiContexts;
  ltiResourceLinks = tables.ltiResourceLinks;
  ltiScoresSent = tables.ltiScoresSent;
}
