/**
 * The ceiling for bench:api: a bare Bun.serve on the same SQLite file doing the same work per hot route
 * (bench/peer-work.cjs, shared with the Express peer), with no framework: no log, no headers, no validation.
 * Usage: bun bench/bare-peer.ts <database file>; prints its port.
 */
import { Database } from 'bun:sqlite';
import { createPeerWork } from './peer-work.cjs';

const work = createPeerWork(new Database(process.argv[2] ?? ''));

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const user = work.userOf(request.headers.get('authorization'));
    if (!user) return Response.json({ error: 'unauthorized' }, { status: 401 });
    const path = new URL(request.url).pathname.split('/');
    const [, , resource = '', id = '', sub = ''] = path;
    let answer: [number, unknown] = [404, { error: 'not found' }];
    if (resource === 'users') answer = work.currentUser(user);
    else if (resource === 'courses') answer = work.courses(user);
    else if (resource === 'lectures' && id === 'course') answer = work.lectureList(user, sub);
    else if (resource === 'lectures' && sub === 'comments') answer = work.comments(user, id);
    else if (resource === 'lectures' && sub === 'progress') answer = work.saveProgress(user, id, await request.json());
    else if (resource === 'lectures' && sub === 'view') answer = work.view(user, id);
    else if (resource === 'enrollments' && sub === 'notes') answer = work.notes(user, id);
    return Response.json(answer[1], { status: answer[0] });
  },
});
console.log(server.port);
