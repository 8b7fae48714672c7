/**
 * The ceiling for bench:api: a bare Bun.serve on the same SQLite file doing the same work per hot route, with no
 * framework: read the bearer token's session id (no signature check: that is the ceiling), look the session and
 * its user up, run the route's queries as bun:sqlite prepared statements and answer the rows as JSON. The two
 * writes a player makes (progress every few seconds, a view when a lecture opens) write the same rows.
 * Usage: bun bench/bare-peer.ts <database file>; prints its port.
 */
import { Database } from 'bun:sqlite';

const db = new Database(process.argv[2] ?? '');
// The server's own pragmas (src/db/client.ts): WAL is in the file; synchronous is per connection.
db.exec('PRAGMA busy_timeout = 5000');
db.exec('PRAGMA synchronous = NORMAL');
const q = {
  session: db.query(
    'SELECT users.* FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id = ? AND sessions.user_id = ? AND sessions.expires_at > ?',
  ),
  courses: db.query(
    'SELECT courses.*, users.username FROM enrollments JOIN courses ON courses.id = enrollments.course_id JOIN users ON users.id = courses.teacher_id WHERE enrollments.student_id = ? ORDER BY enrollments.joined_at DESC',
  ),
  course: db.query('SELECT * FROM courses WHERE id = ?'),
  enrolled: db.query('SELECT id FROM enrollments WHERE course_id = ? AND student_id = ?'),
  lectures: db.query('SELECT * FROM lectures WHERE course_id = ? ORDER BY created_at'),
  videos: db.query('SELECT * FROM videos WHERE id IN (SELECT value FROM json_each(?))'),
  likes: db.query('SELECT lecture_id FROM likes WHERE user_id = ? AND lecture_id IN (SELECT value FROM json_each(?))'),
  progress: db.query(
    'SELECT * FROM watch_progress WHERE user_id = ? AND lecture_id IN (SELECT value FROM json_each(?))',
  ),
  captions: db.query(
    'SELECT id, lecture_id, language, label FROM captions WHERE lecture_id IN (SELECT value FROM json_each(?)) ORDER BY label',
  ),
  lecture: db.query('SELECT * FROM lectures WHERE id = ?'),
  comments: db.query(
    'SELECT comments.*, users.username, users.avatar_version FROM comments JOIN users ON users.id = comments.user_id WHERE comments.lecture_id = ? ORDER BY comments.created_at DESC, comments.id DESC LIMIT 500',
  ),
  notes: db.query('SELECT * FROM notes WHERE course_id = ? AND user_id = ?'),
  progress_save: db.query(
    `INSERT INTO watch_progress (user_id, lecture_id, position_seconds, duration_seconds, furthest_seconds, completed, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, lecture_id) DO UPDATE SET position_seconds = excluded.position_seconds,
       duration_seconds = excluded.duration_seconds, furthest_seconds = max(furthest_seconds, excluded.position_seconds),
       completed = completed OR excluded.completed, updated_at = excluded.updated_at
     RETURNING *`,
  ),
  view_mark: db.query(
    `INSERT INTO view_marks (lecture_id, user_id, counted_at) VALUES (?, ?, ?)
     ON CONFLICT (lecture_id, user_id) DO UPDATE SET counted_at = excluded.counted_at WHERE counted_at <= ? RETURNING *`,
  ),
  view_count: db.query('UPDATE lectures SET no_of_views = no_of_views + 1 WHERE id = ?'),
  views: db.query('SELECT no_of_views FROM lectures WHERE id = ?'),
};
const countView = db.transaction((lectureId: string, userId: string, now: number) => {
  const mark = q.view_mark.get(lectureId, userId, now, now - 3600_000);
  if (mark) q.view_count.run(lectureId);
  return !!mark;
});

type Row = Record<string, unknown>;
const json = (body: unknown, status = 200) => Response.json(body, { status });

/** The session's user, from the JWT's payload (base64url JSON: sub, sid). */
function userOf(request: Request): Row | null {
  const token = request.headers.get('authorization')?.slice(7) ?? '';
  const payload = token.split('.')[1];
  if (!payload) return null;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string; sid: string };
  return (q.session.get(claims.sid, claims.sub, Date.now()) as Row | null) ?? null;
}

/** The class if the user teaches it or is enrolled. */
function readable(user: Row, courseId: string): Row | null {
  const course = q.course.get(courseId) as Row | null;
  if (!course) return null;
  if (course.teacher_id === user.id || q.enrolled.get(courseId, user.id as string)) return course;
  return null;
}

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const user = userOf(request);
    if (!user) return json({ error: 'unauthorized' }, 401);
    const path = new URL(request.url).pathname.split('/');
    // /api/users
    if (path[2] === 'users') return json(user);
    // /api/courses
    if (path[2] === 'courses') return json(q.courses.all(user.id as string));
    // /api/lectures/course/:id
    if (path[2] === 'lectures' && path[3] === 'course') {
      const course = readable(user, path[4] ?? '');
      if (!course) return json({ error: 'not found' }, 404);
      const rows = q.lectures.all(course.id as string) as Row[];
      const ids = JSON.stringify(rows.map((row) => row.id));
      const videos = new Map(
        (q.videos.all(JSON.stringify(rows.map((row) => row.video_id))) as Row[]).map((v) => [v.id, v]),
      );
      const liked = new Set((q.likes.all(user.id as string, ids) as Row[]).map((row) => row.lecture_id));
      const progress = new Map((q.progress.all(user.id as string, ids) as Row[]).map((p) => [p.lecture_id, p]));
      const captions = q.captions.all(ids) as Row[];
      return json(
        rows.map((row) => ({
          ...row,
          video: videos.get(row.video_id) ?? null,
          likedByMe: liked.has(row.id),
          myProgress: progress.get(row.id) ?? null,
          captions: captions.filter((caption) => caption.lecture_id === row.id),
        })),
      );
    }
    // /api/lectures/:id/comments
    if (path[2] === 'lectures' && path[4] === 'comments') {
      const lecture = q.lecture.get(path[3] ?? '') as Row | null;
      if (!lecture || !readable(user, lecture.course_id as string)) return json({ error: 'not found' }, 404);
      return json(q.comments.all(lecture.id as string));
    }
    // PUT /api/lectures/:id/progress, PATCH /api/lectures/:id/view
    if (path[2] === 'lectures' && (path[4] === 'progress' || path[4] === 'view')) {
      const lecture = q.lecture.get(path[3] ?? '') as Row | null;
      if (!lecture || !readable(user, lecture.course_id as string)) return json({ error: 'not found' }, 404);
      if (path[4] === 'view') {
        const counted = countView(lecture.id as string, user.id as string, Date.now());
        return json({ noOfViews: (q.views.get(lecture.id as string) as Row).no_of_views, counted });
      }
      const body = (await request.json()) as { position: number; duration: number };
      const position = Math.min(body.position, body.duration);
      const finished = body.duration > 0 && (position >= body.duration - 5 || position / body.duration >= 0.95);
      const row = q.progress_save.get(
        user.id as string,
        lecture.id as string,
        position,
        body.duration,
        position,
        finished ? 1 : 0,
        Date.now(),
      ) as Row;
      return json({
        position: row.position_seconds,
        duration: row.duration_seconds,
        furthest: row.furthest_seconds,
        completed: !!row.completed,
      });
    }
    // /api/enrollments/:courseId/notes
    if (path[2] === 'enrollments' && path[4] === 'notes') {
      const course = readable(user, path[3] ?? '');
      if (!course) return json({ error: 'not found' }, 404);
      return json(q.notes.get(course.id as string, user.id as string) ?? { notes: '' });
    }
    return json({ error: 'not found' }, 404);
  },
});
console.log(server.port);
