/**
 * What both peers of bench:api do per hot route (bench/bare-peer.ts under Bun, bench/express-peer.cjs under Node):
 * the same SQL, prepared once, on the same file, so only the server around it differs. `db` is a bun:sqlite or a
 * better-sqlite3 database: both have prepare(), get(), all(), run() and transaction(). Each call answers
 * [status, body]. `userOf` reads the session from the bearer token's payload without a signature check (the
 * Express peer); `sessionUser` is for a caller that checked it (the bare peer, as the server does).
 */
const VIEW_WINDOW_MS = 60 * 60 * 1000;

function createPeerWork(db) {
  // The server's own pragmas (src/db/client.ts): WAL is in the file; synchronous is per connection.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA synchronous = NORMAL');
  const q = {
    session: db.prepare(
      'SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id = ? AND sessions.user_id = ? AND sessions.expires_at > ?',
    ),
    courses: db.prepare(
      // With the unread dot (`hasNew`), as the server's class list computes it (src/db/queries/courses.ts).
      'SELECT courses.*, users.username, EXISTS (SELECT 1 FROM notifications LEFT JOIN class_visits ON class_visits.user_id = notifications.user_id AND class_visits.course_id = notifications.course_id WHERE notifications.user_id = ? AND notifications.course_id = courses.id AND (class_visits.visited_at IS NULL OR notifications.created_at > class_visits.visited_at)) AS has_new FROM enrollments JOIN courses ON courses.id = enrollments.course_id JOIN users ON users.id = courses.teacher_id WHERE enrollments.student_id = ? ORDER BY enrollments.joined_at DESC',
    ),
    course: db.prepare('SELECT * FROM courses WHERE id = ?'),
    enrolled: db.prepare('SELECT id FROM enrollments WHERE course_id = ? AND student_id = ?'),
    lectures: db.prepare('SELECT * FROM lectures WHERE course_id = ? ORDER BY created_at'),
    videos: db.prepare('SELECT * FROM videos WHERE id IN (SELECT value FROM json_each(?))'),
    likes: db.prepare(
      'SELECT lecture_id FROM likes WHERE user_id = ? AND lecture_id IN (SELECT value FROM json_each(?))',
    ),
    progress: db.prepare(
      'SELECT * FROM watch_progress WHERE user_id = ? AND lecture_id IN (SELECT value FROM json_each(?))',
    ),
    captions: db.prepare(
      'SELECT id, lecture_id, language, label FROM captions WHERE lecture_id IN (SELECT value FROM json_each(?)) ORDER BY label',
    ),
    lecture: db.prepare('SELECT * FROM lectures WHERE id = ?'),
    comments: db.prepare(
      'SELECT comments.*, users.username, users.avatar_version FROM comments JOIN users ON users.id = comments.user_id WHERE comments.lecture_id = ? ORDER BY comments.created_at DESC, comments.id DESC LIMIT 500',
    ),
    notes: db.prepare('SELECT * FROM notes WHERE course_id = ? AND user_id = ?'),
    saveProgress: db.prepare(
      `INSERT INTO watch_progress (user_id, lecture_id, position_seconds, duration_seconds, furthest_seconds, completed, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, lecture_id) DO UPDATE SET position_seconds = excluded.position_seconds,
         duration_seconds = excluded.duration_seconds, furthest_seconds = max(furthest_seconds, excluded.position_seconds),
         completed = completed OR excluded.completed, updated_at = excluded.updated_at
       RETURNING *`,
    ),
    markView: db.prepare(
      `INSERT INTO view_marks (lecture_id, user_id, counted_at) VALUES (?, ?, ?)
       ON CONFLICT (lecture_id, user_id) DO UPDATE SET counted_at = excluded.counted_at WHERE counted_at <= ? RETURNING *`,
    ),
    addView: db.prepare('UPDATE lectures SET no_of_views = no_of_views + 1 WHERE id = ?'),
    views: db.prepare('SELECT no_of_views FROM lectures WHERE id = ?'),
  };
  const countView = db.transaction((lectureId, userId, now) => {
    const mark = q.markView.get(lectureId, userId, now, now - VIEW_WINDOW_MS);
    if (mark) q.addView.run(lectureId);
    return !!mark;
  });
  const notFound = [404, { error: 'not found' }];

  /** The class if the user teaches it or is enrolled. */
  function readable(user, courseId) {
    const course = q.course.get(courseId);
    if (!course) return null;
    if (course.teacher_id === user.id || q.enrolled.get(courseId, user.id)) return course;
    return null;
  }
  function readableLecture(user, lectureId) {
    const lecture = q.lecture.get(lectureId);
    return lecture && readable(user, lecture.course_id) ? lecture : null;
  }

  return {
    /** The session's user from `Authorization: Bearer <jwt>` (payload: sub, sid), or null. */
    userOf(authorization) {
      const payload = (authorization ?? '').slice(7).split('.')[1];
      if (!payload) return null;
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      return q.session.get(claims.sid, claims.sub, Date.now()) ?? null;
    },
    /** The user of a live session whose token's signature the caller checked, or null. */
    sessionUser: (sessionId, userId) => q.session.get(sessionId, userId, Date.now()) ?? null,
    currentUser: (user) => [200, user],
    courses: (user) => [200, q.courses.all(user.id, user.id)],
    lectureList(user, courseId) {
      const course = readable(user, courseId);
      if (!course) return notFound;
      const rows = q.lectures.all(course.id);
      const ids = JSON.stringify(rows.map((row) => row.id));
      const videos = new Map(q.videos.all(JSON.stringify(rows.map((row) => row.video_id))).map((v) => [v.id, v]));
      const liked = new Set(q.likes.all(user.id, ids).map((row) => row.lecture_id));
      const progress = new Map(q.progress.all(user.id, ids).map((p) => [p.lecture_id, p]));
      const captions = q.captions.all(ids);
      return [
        200,
        rows.map((row) => ({
          ...row,
          video: videos.get(row.video_id) ?? null,
          likedByMe: liked.has(row.id),
          myProgress: progress.get(row.id) ?? null,
          captions: captions.filter((caption) => caption.lecture_id === row.id),
        })),
      ];
    },
    comments(user, lectureId) {
      const lecture = readableLecture(user, lectureId);
      return lecture ? [200, q.comments.all(lecture.id)] : notFound;
    },
    notes(user, courseId) {
      const course = readable(user, courseId);
      return course ? [200, q.notes.get(course.id, user.id) ?? { notes: '' }] : notFound;
    },
    saveProgress(user, lectureId, body) {
      const lecture = readableLecture(user, lectureId);
      if (!lecture) return notFound;
      const position = Math.min(body.position, body.duration);
      const finished = body.duration > 0 && (position >= body.duration - 5 || position / body.duration >= 0.95);
      const row = q.saveProgress.get(
        user.id,
        lecture.id,
        position,
        body.duration,
        position,
        finished ? 1 : 0,
        Date.now(),
      );
      return [
        200,
        {
          position: row.position_seconds,
          duration: row.duration_seconds,
          furthest: row.furthest_seconds,
          completed: !!row.completed,
        },
      ];
    },
    view(user, lectureId) {
      const lecture = readableLecture(user, lectureId);
      if (!lecture) return notFound;
      const counted = countView(lecture.id, user.id, Date.now());
      return [200, { noOfViews: q.views.get(lecture.id).no_of_views, counted }];
    },
  };
}

module.exports = { createPeerWork };
