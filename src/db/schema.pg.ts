import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * PostgreSQL's twin of schema.ts: the same tables, columns, keys and indexes (schema-parity.test.ts compares
 * them). Times are ms since the epoch in `bigint` read as numbers, flags are booleans, fractions double precision.
 * drizzle-kit writes migrations/pg/ from this file (drizzle.pg.config.ts). The comments on what each column means
 * are in schema.ts.
 */
const now = sql`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;
const ms = (name: string) => bigint(name, { mode: 'number' });

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['teacher', 'student'] }).notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    teacherStatus: text('teacher_status', { enum: ['approved', 'pending', 'declined'] }),
    disabledAt: ms('disabled_at'),
    lastLoginAt: ms('last_login_at'),
    emailVerifiedAt: ms('email_verified_at'),
    avatarVersion: integer('avatar_version').notNull().default(0),
    /** The language chosen in Settings (src/contract/locales.ts); null follows the browser, and mails the school's. */
    locale: text('locale'),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

export const signups = pgTable(
  'signups',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    role: text('role', { enum: ['teacher', 'student'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    codeExpiresAt: ms('code_expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sentAt: ms('sent_at').notNull(),
    clientKeyHash: text('client_key_hash'),
    expiresAt: ms('expires_at').notNull(),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [index('signups_email').on(table.email, table.createdAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ms('created_at').notNull().default(now),
    expiresAt: ms('expires_at').notNull(),
  },
  (table) => [index('sessions_user').on(table.userId)],
);

export const userIdentities = pgTable(
  'user_identities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('user_identities_issuer_subject').on(table.issuer, table.subject),
    index('user_identities_user').on(table.userId),
  ],
);

export const oidcAttempts = pgTable(
  'oidc_attempts',
  {
    keyHash: text('key_hash').primaryKey(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    next: text('next').notNull(),
    intent: text('intent', { enum: ['sign_in', 'link', 'confirm'] }).notNull(),
    linkUserId: text('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ms('created_at').notNull(),
  },
  (table) => [index('oidc_attempts_created').on(table.createdAt)],
);

export const knownDevices = pgTable(
  'known_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    lastSeenAt: ms('last_seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceHash] })],
);

export const emailCodes = pgTable(
  'email_codes',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: ms('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sentAt: ms('sent_at').notNull(),
  },
  (table) => [index('email_codes_expires').on(table.expiresAt)],
);

export const courses = pgTable(
  'courses',
  {
    id: text('id').primaryKey(),
    courseName: text('course_name').notNull(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    semester: integer('semester'),
    inviteCode: text('invite_code').notNull(),
    downloadsAllowed: boolean('downloads_allowed').notNull().default(true),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('courses_invite_code_unique').on(table.inviteCode),
    index('courses_teacher').on(table.teacherId),
  ],
);

export const enrollments = pgTable(
  'enrollments',
  {
    id: text('id').primaryKey(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: text('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: ms('joined_at').notNull().default(now),
  },
  (table) => [
    uniqueIndex('enrollments_course_student_unique').on(table.courseId, table.studentId),
    index('enrollments_student').on(table.studentId),
  ],
);

export const notes = pgTable(
  'notes',
  {
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] })],
);

export const videos = pgTable(
  'videos',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'processing', 'ready', 'failed', 'cancelled'] }).notNull(),
    progress: doublePrecision('progress').notNull().default(0),
    etaSeconds: integer('eta_seconds'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    sourceName: text('source_name').notNull(),
    sourceBytes: bigint('source_bytes', { mode: 'number' }).notNull(),
    durationMs: ms('duration_ms').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    hasAudio: boolean('has_audio').notNull(),
    plan: text('plan').notNull(),
    hasPoster: boolean('has_poster').notNull().default(false),
    createdAt: ms('created_at').notNull().default(now),
    startedAt: ms('started_at'),
    firstPlayableAt: ms('first_playable_at'),
    finishedAt: ms('finished_at'),
    slidesState: text('slides_state', { enum: ['pending', 'ready', 'none', 'failed'] }),
    slidesOff: boolean('slides_off').notNull().default(false),
    trimStartMs: ms('trim_start_ms'),
    trimEndMs: ms('trim_end_ms'),
    sourceDurationMs: ms('source_duration_ms'),
  },
  (table) => [index('videos_status').on(table.status, table.createdAt), index('videos_owner').on(table.ownerId)],
);

export const lectures = pgTable(
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
    description: text('description').notNull().default(''),
    chapters: text('chapters'),
    createdAt: ms('created_at').notNull().default(now),
    /** When its students were told it is ready (ms): they are told once per lecture, whatever re-transcodes follow. */
    studentsToldAt: ms('students_told_at'),
    dueAt: ms('due_at'),
    remindedAt: ms('reminded_at'),
    noSkip: boolean('no_skip').notNull().default(false),
  },
  (table) => [index('lectures_course').on(table.courseId, table.createdAt), index('lectures_video').on(table.videoId)],
);

export const captions = pgTable(
  'captions',
  {
    id: text('id').primaryKey(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    label: text('label').notNull(),
    vtt: text('vtt').notNull(),
    createdAt: ms('created_at').notNull().default(now),
    updatedAt: ms('updated_at').notNull().default(now),
  },
  (table) => [uniqueIndex('captions_lecture_language').on(table.lectureId, table.language)],
);

export const downloads = pgTable(
  'downloads',
  {
    id: text('id').primaryKey(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    rung: integer('rung').notNull(),
    status: text('status', { enum: ['queued', 'preparing', 'ready', 'failed'] }).notNull(),
    progress: doublePrecision('progress').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
    createdAt: ms('created_at').notNull().default(now),
    finishedAt: ms('finished_at'),
  },
  (table) => [uniqueIndex('downloads_video_rung').on(table.videoId, table.rung)],
);

export const likes = pgTable(
  'likes',
  {
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [primaryKey({ columns: [table.lectureId, table.userId] })],
);

export const viewMarks = pgTable(
  'view_marks',
  {
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    countedAt: ms('counted_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.lectureId, table.userId] })],
);

export const comments = pgTable(
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
    parentId: text('parent_id'),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [index('comments_lecture_created').on(table.lectureId, table.createdAt)],
);

export const watchProgress = pgTable(
  'watch_progress',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    positionSeconds: doublePrecision('position_seconds').notNull(),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    furthestSeconds: doublePrecision('furthest_seconds').notNull(),
    completed: boolean('completed').notNull().default(false),
    updatedAt: ms('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.lectureId] }),
    index('watch_progress_user_updated').on(table.userId, table.updatedAt),
    index('watch_progress_lecture').on(table.lectureId),
  ],
);

export const watchCoverage = pgTable(
  'watch_coverage',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    plays: text('plays').notNull(),
    partial: text('partial').notNull(),
    playedParts: integer('played_parts').notNull().default(0),
    watchedSeconds: doublePrecision('watched_seconds').notNull().default(0),
    firstAt: ms('first_at').notNull(),
    lastAt: ms('last_at').notNull(),
    offlineAt: ms('offline_at'),
    lastReport: text('last_report').notNull().default(''),
    completedAt: ms('completed_at'),
    late: boolean('late').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.lectureId] }),
    index('watch_coverage_lecture').on(table.lectureId),
  ],
);

export const courseCoverage = pgTable(
  'course_coverage',
  {
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parts: integer('parts').notNull().default(0),
    started: integer('started').notNull().default(0),
    done: integer('done').notNull().default(0),
    lastAt: ms('last_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.userId] })],
);

export const lecturePartTotals = pgTable('lecture_part_totals', {
  lectureId: text('lecture_id')
    .primaryKey()
    .references(() => lectures.id, { onDelete: 'cascade' }),
  plays: text('plays').notNull(),
  updatedAt: ms('updated_at').notNull(),
});

export const lectureQuestions = pgTable(
  'lecture_questions',
  {
    id: text('id').primaryKey(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    at: doublePrecision('at').notNull(),
    kind: text('kind', { enum: ['choice', 'truefalse', 'short'] }).notNull(),
    prompt: text('prompt').notNull(),
    choices: text('choices').notNull().default('[]'),
    answerKey: text('answer_key'),
    marked: boolean('marked').notNull().default(false),
    feedback: boolean('feedback').notNull().default(true),
    version: integer('version').notNull().default(0),
    createdAt: ms('created_at').notNull().default(now),
    updatedAt: ms('updated_at').notNull().default(now),
  },
  (table) => [index('lecture_questions_lecture').on(table.lectureId, table.at)],
);

export const questionAnswers = pgTable(
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
    answer: text('answer').notNull(),
    correct: boolean('correct'),
    tries: integer('tries').notNull().default(1),
    version: integer('version').notNull().default(0),
    answeredAt: ms('answered_at').notNull(),
    offline: boolean('offline').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.questionId, table.userId] }),
    index('question_answers_lecture_user').on(table.lectureId, table.userId),
    index('question_answers_user').on(table.userId),
  ],
);

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    subjectId: text('subject_id'),
    state: text('state', { enum: ['queued', 'running', 'done', 'failed', 'cancelled'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    interruptions: integer('interruptions').notNull().default(0),
    resumed: boolean('resumed').notNull().default(false),
    runAfter: ms('run_after').notNull(),
    priority: integer('priority').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: ms('lease_until'),
    heartbeatAt: ms('heartbeat_at'),
    lastError: text('last_error'),
    createdAt: ms('created_at').notNull().default(now),
    finishedAt: ms('finished_at'),
  },
  (table) => [index('jobs_ready').on(table.state, table.runAfter), index('jobs_subject').on(table.subjectId)],
);

export const workers = pgTable('workers', {
  owner: text('owner').primaryKey(),
  beatAt: ms('beat_at').notNull(),
});

/** Rate-limit windows shared by every server process (see schema.ts). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ms('reset_at').notNull(),
  },
  (table) => [index('rate_limits_reset_at').on(table.resetAt)],
);

export const notificationPrefs = pgTable('notification_prefs', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email', { enum: ['every', 'daily', 'none'] }).notNull(),
  lastDigestAt: ms('last_digest_at'),
  updatedAt: ms('updated_at').notNull(),
});

export const classVisits = pgTable(
  'class_visits',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    visitedAt: ms('visited_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.courseId] })],
);

export const notifications = pgTable(
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
    kind: text('kind', {
      enum: ['lecture', 'comment', 'reply', 'teacher_waits', 'teacher_approved', 'teacher_declined', 'due_soon'],
    }).notNull(),
    mail: text('mail', { enum: ['pending', 'digest', 'sent', 'skipped'] }).notNull(),
    createdAt: ms('created_at').notNull().default(now),
    mailedAt: ms('mailed_at'),
  },
  (table) => [
    uniqueIndex('notifications_key').on(table.key),
    index('notifications_user_course').on(table.userId, table.courseId, table.createdAt),
    index('notifications_mail').on(table.mail, table.userId),
    index('notifications_about_user').on(table.aboutUserId),
  ],
);

export const slides = pgTable(
  'slides',
  {
    id: text('id').primaryKey(),
    videoId: text('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    seconds: doublePrecision('seconds').notNull(),
    frameSeconds: doublePrecision('frame_seconds').notNull(),
    text: text('text').notNull().default(''),
    title: text('title'),
    hidden: boolean('hidden').notNull().default(false),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [index('slides_video').on(table.videoId, table.seconds)],
);

export const searchEntries = pgTable(
  'search_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    courseId: text('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['title', 'description', 'caption', 'comment', 'chapter', 'slide'] }).notNull(),
    captionId: text('caption_id').references(() => captions.id, { onDelete: 'cascade' }),
    commentId: text('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    slideId: text('slide_id').references(() => slides.id, { onDelete: 'cascade' }),
    seconds: doublePrecision('seconds'),
    text: text('text').notNull(),
  },
  (table) => [
    index('search_entries_lecture').on(table.lectureId, table.kind),
    index('search_entries_caption').on(table.captionId),
    index('search_entries_comment').on(table.commentId),
    index('search_entries_slide').on(table.slideId),
  ],
);

/** Every table, by the name schema.ts exports it under. */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    deploymentIds: text('deployment_ids').notNull().default('[]'),
    frameOrigins: text('frame_origins').notNull().default('[]'),
    createdAt: ms('created_at').notNull().default(now),
  },
  (table) => [uniqueIndex('lti_platforms_issuer_client').on(table.issuer, table.clientId)],
);

export const ltiToolKeys = pgTable('lti_tool_keys', {
  kid: text('kid').primaryKey(),
  privateJwk: text('private_jwk').notNull(),
  publicJwk: text('public_jwk').notNull(),
  createdAt: ms('created_at').notNull().default(now),
});

export const ltiNonces = pgTable(
  'lti_nonces',
  {
    nonce: text('nonce').notNull(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    expiresAt: ms('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.nonce, table.platformId] }),
    index('lti_nonces_expires').on(table.expiresAt),
  ],
);

export const ltiContexts = pgTable(
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
    membershipsUrl: text('memberships_url'),
    lineitemsUrl: text('lineitems_url'),
    agsScopes: text('ags_scopes').notNull().default('[]'),
    lastRosterSyncAt: ms('last_roster_sync_at'),
  },
  (table) => [
    uniqueIndex('lti_contexts_platform_context').on(table.platformId, table.contextId),
    index('lti_contexts_course').on(table.courseId),
  ],
);

export const ltiResourceLinks = pgTable(
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
    lineitemUrl: text('lineitem_url'),
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

export const ltiScoresSent = pgTable(
  'lti_scores_sent',
  {
    resourceLinkRowId: text('resource_link_row_id')
      .notNull()
      .references(() => ltiResourceLinks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scoreGiven: doublePrecision('score_given').notNull(),
    sentAt: ms('sent_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.resourceLinkRowId, table.userId] }),
    index('lti_scores_sent_user').on(table.userId),
  ],
);

export const pgTables = {
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
