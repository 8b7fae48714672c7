/**
 * The ceiling for bench:api and bench:engines: a bare Bun.serve on the same SQLite file doing the same work per hot
 * route (bench/peer-work.cjs, shared with the Express peer), with no framework, but with what every request of the
 * server pays too: the token's signature checked (src/auth/tokens.ts, cached as the server does), the session row
 * read, a request id sent back, and the same pino request line on stdout (src/http/request-log.ts).
 * Usage: JWT_SECRET=… bun bench/bare-peer.ts <database file>; prints its port, then the log.
 */
import { Database } from 'bun:sqlite';
import { readToken } from '../src/auth/tokens';
import { loggedPath } from '../src/http/request-log';
import { newId } from '../src/lib/ids';
import { createLogger, requestLineLogger } from '../src/lib/log';
import { VERSION } from '../src/lib/version';
import { createPeerWork } from './peer-work.cjs';

const work = createPeerWork(new Database(process.argv[2] ?? ''));
const secret = new TextEncoder().encode(process.env.JWT_SECRET ?? '');
// The same logger, stream and request line as the server (src/http/request-log.ts).
const log = requestLineLogger(createLogger({ level: 'info', format: 'json' }));

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    const started = performance.now();
    const reqId = newId();
    const path = new URL(request.url).pathname;
    // The liveness answer, as the server's: no token, no table, the same request line.
    if (path === '/api/health/live') {
      const response = Response.json(
        { ok: true, version: VERSION, role: 'all' },
        { headers: { 'x-request-id': reqId } },
      );
      const line = { method: request.method, path: loggedPath(path), status: 200, durationMs: elapsed(started) };
      log.info({ reqId, ...line }, 'request');
      return response;
    }
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    const claims = token ? await readToken(secret, token) : undefined;
    const user = claims ? work.sessionUser(claims.sessionId, claims.userId) : null;
    let answer: [number, unknown] = [401, { error: 'unauthorized' }];
    if (user) {
      const [, , resource = '', id = '', sub = ''] = path.split('/');
      answer = [404, { error: 'not found' }];
      if (resource === 'users') answer = work.currentUser(user);
      else if (resource === 'courses') answer = work.courses(user);
      else if (resource === 'lectures' && id === 'course') answer = work.lectureList(user, sub);
      else if (resource === 'lectures' && sub === 'comments') answer = work.comments(user, id);
      else if (resource === 'lectures' && sub === 'progress')
        answer = work.saveProgress(user, id, await request.json());
      else if (resource === 'lectures' && sub === 'view') answer = work.view(user, id);
      else if (resource === 'enrollments' && sub === 'notes') answer = work.notes(user, id);
    }
    const response = Response.json(answer[1], { status: answer[0], headers: { 'x-request-id': reqId } });
    const line = {
      method: request.method,
      path: loggedPath(path),
      status: answer[0],
      durationMs: elapsed(started),
      userId: user?.id,
    };
    log.info({ reqId, ...line }, 'request');
    return response;
  },
});
console.log(server.port);
