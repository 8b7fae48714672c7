/**
 * The peer a school might run instead, for bench:api: Express 5 + better-sqlite3 under Node on the same SQLite file,
 * doing the same work per hot route as the bare peer (bench/peer-work.cjs). Installed on first use by bench:api into
 * node_modules/.cache/bench-express (better-sqlite3 is built from source there: about a minute).
 * Usage: node bench/express-peer.cjs <modules folder> <database file>; prints its port.
 */
const { createRequire } = require('node:module');
const path = require('node:path');
const { createPeerWork } = require('./peer-work.cjs');

const load = createRequire(path.join(process.argv[2], 'index.js'));
const express = load('express');
const Database = load('better-sqlite3');
const work = createPeerWork(new Database(process.argv[3]));

const app = express();
const send = (res, [status, body]) => res.status(status).json(body);
app.get('/api/health/live', (_req, res) => res.json({ ok: true, version: '1', role: 'all' }));
app.use('/api', (req, res, next) => {
  req.user = work.userOf(req.get('authorization'));
  if (!req.user) return res.status(401).json({ error: 'unauthorized' });
  next();
});
app.get('/api/users', (req, res) => send(res, work.currentUser(req.user)));
app.get('/api/courses', (req, res) => send(res, work.courses(req.user)));
app.get('/api/lectures/course/:id', (req, res) => send(res, work.lectureList(req.user, req.params.id)));
app.get('/api/lectures/:id/comments', (req, res) => send(res, work.comments(req.user, req.params.id)));
app.put('/api/lectures/:id/progress', express.json(), (req, res) =>
  send(res, work.saveProgress(req.user, req.params.id, req.body)),
);
app.patch('/api/lectures/:id/view', (req, res) => send(res, work.view(req.user, req.params.id)));
app.get('/api/enrollments/:courseId/notes', (req, res) => send(res, work.notes(req.user, req.params.courseId)));
const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port));
