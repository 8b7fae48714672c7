/**
 * The peer a school might run instead, for bench:api: Express 5 + better-sqlite3 under Node on the same SQLite file,
 * doing what bench/bare-peer.ts does per hot route, writes included (the same queries, prepared once; the session looked up from the
 * bearer token's payload without a signature check, as the bare peer does). Installed on first use by bench:api into
 * node_modules/.cache/bench-express (better-sqlite3 is built from source there: about a minute).
 * Usage: node bench/express-peer.cjs <modules folder> <database file>; prints its port.
 */
const { createRequire } = require('node:module');
const path = require('node:path');

const load = createRequire(path.join(process.argv[2], 'index.js'));
const express = load('express');
const Database = load('better-sqlite3');

const db = new Database(process.argv[3]);
// The server's own pragmas (src/db/client.ts): WAL is in the file; synchronous is per connection.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const q = {
  session: db.prepare(
    'SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id = ? AND sessions.user_id = ? AND sessions.expires_at > ?',
  ),
  courses: db.prepare(
    'SELECT courses.*, users.username FROM enrollments JOIN courses ON courses.id = enrollments.course_id JOIN users ON users.id = courses.teacher_id WHERE enrollments.student_id = ? ORDER BY enrollments.joined_at DESC',
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
  progressSave: db.prepare(
    `INSERT INTO watch_progress (user_id, lecture_id, position_seconds, duration_seconds, furthest_seconds, completed, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, lecture_id) DO UPDATE SET position_seconds = excluded.position_seconds,
       duration_seconds = excluded.duration_seconds, furthest_seconds = max(furthest_seconds, excluded.position_seconds),
       completed = completed OR excluded.completed, updated_at = excluded.updated_at
     RETURNING *`,
  ),
  viewMark: db.prepare(
    `INSERT INTO view_marks (lecture_id, user_id, counted_at) VALUES (?, ?, ?)
     ON CONFLICT (lecture_id, user_id) DO UPDATE SET counted_at = excluded.counted_at WHERE counted_at <= ? RETURNING *`,
  ),
  viewCount: db.prepare('UPDATE lectures SET no_of_views = no_of_views + 1 WHERE id = ?'),
  views: db.prepare('SELECT no_of_views FROM lectures WHERE id = ?'),
};
const countView = db.transaction((lectureId, userId, now) => {
  const mark = q.viewMark.get(lectureId, userId, now, now - 3600_000);
  if (mark) q.viewCount.run(lectureId);
  return !!mark;
});

function readable(user, courseId) {
  const course = q.course.get(courseId);
  if (!course) return null;
  if (course.teacher_id === user.id || q.enrolled.get(courseId, user.id)) return course;
  return null;
}

const app = express();
app.use('/api', (req, res, next) => {
  const payload = (req.get('authorization') ?? '').slice(7).split('.')[1];
  const claims = payload ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null;
  const user = claims ? q.session.get(claims.sid, claims.sub, Date.now()) : null;
  if (!user) return res.status(401).json({ error: 'unauthorized' });
  req.user = user;
  next();
});
app.get('/api/users', (req, res) => res.json(req.user));
app.get('/api/courses', (req, res) => res.json(q.courses.all(req.user.id)));
app.get('/api/lectures/course/:id', (req, res) => {
  const course = readable(req.user, req.params.id);
  if (!course) return res.status(404).json({ error: 'not found' });
  const rows = q.lectures.all(course.id);
  const ids = JSON.stringify(rows.map((row) => row.id));
  const videos = new Map(q.videos.all(JSON.stringify(rows.map((row) => row.video_id))).map((v) => [v.id, v]));
  const liked = new Set(q.likes.all(req.user.id, ids).map((row) => row.lecture_id));
  const progress = new Map(q.progress.all(req.user.id, ids).map((p) => [p.lecture_id, p]));
  const captions = q.captions.all(ids);
  res.json(
    rows.map((row) => ({
      ...row,
      video: videos.get(row.video_id) ?? null,
      likedByMe: liked.has(row.id),
      myProgress: progress.get(row.id) ?? null,
      captions: captions.filter((caption) => caption.lecture_id === row.id),
    })),
  );
});
app.get('/api/lectures/:id/comments', (req, res) => {
  const lecture = q.lecture.get(req.params.id);
  if (!lecture || !readable(req.user, lecture.course_id)) return res.status(404).json({ error: 'not found' });
  res.json(q.comments.all(lecture.id));
});
app.put('/api/lectures/:id/progress', express.json(), (req, res) => {
  const lecture = q.lecture.get(req.params.id);
  if (!lecture || !readable(req.user, lecture.course_id)) return res.status(404).json({ error: 'not found' });
  const { duration } = req.body;
  const position = Math.min(req.body.position, duration);
  const finished = duration > 0 && (position >= duration - 5 || position / duration >= 0.95);
  const row = q.progressSave.get(req.user.id, lecture.id, position, duration, position, finished ? 1 : 0, Date.now());
  res.json({
    position: row.position_seconds,
    duration: row.duration_seconds,
    furthest: row.furthest_seconds,
    completed: !!row.completed,
  });
});
app.patch('/api/lectures/:id/view', (req, res) => {
  const lecture = q.lecture.get(req.params.id);
  if (!lecture || !readable(req.user, lecture.course_id)) return res.status(404).json({ error: 'not found' });
  const counted = countView(lecture.id, req.user.id, Date.now());
  res.json({ noOfViews: q.views.get(lecture.id).no_of_views, counted });
});
app.get('/api/enrollments/:courseId/notes', (req, res) => {
  const course = readable(req.user, req.params.courseId);
  if (!course) return res.status(404).json({ error: 'not found' });
  res.json(q.notes.get(course.id, req.user.id) ?? { notes: '' });
});
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
