import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import * as sessions from '../auth/sessions';
import type { AppEnv } from '../deps';
import { handleError } from '../errors';
import { apiClient, type Harness, startHarness } from '../test/harness';
import { type ClassScenario, classScenario } from '../test/scenario';
import { expectRefused } from '../test/tables';
import { captionsRoutes } from './captions';
import { commentsRoutes } from './comments';
import { progressRoutes } from './progress';
import { reactionsRoutes } from './reactions';

// Likes and views, comments, progress and captions are routers of their own, mounted inside the lectures routes.
// Each asks for a signed-in user itself: mounted anywhere, alone, a route without a session is refused.

let h: Harness;
let cast: ClassScenario;
let courseId: string;
let lectureId: string;
let commentId: string;
let captionId: string;
const servers: ReturnType<typeof Bun.serve>[] = [];

const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello\n';
const captionForm = () => {
  const form = new FormData();
  form.append('file', new File([VTT], 'en.vtt', { type: 'text/vtt' }));
  form.append('language', 'en');
  form.append('label', 'English');
  return form;
};

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  cast = await classScenario(h, { courseName: 'Mounted alone' });
  courseId = cast.course?.id ?? '';
  const lecture = await h.api('POST', '/api/lectures', {
    as: cast.teacher.token,
    body: { courseId, nameOfTopic: 'Alone', videoLink: null },
  });
  if (lecture.status !== 201) throw new Error(`setup: creating the lecture failed: ${lecture.text}`);
  lectureId = lecture.json._id;
  const comment = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
    as: cast.student.token,
    body: { text: 'First!' },
  });
  if (comment.status !== 201) throw new Error(`setup: commenting failed: ${comment.text}`);
  commentId = comment.json._id;
  const caption = await h.api('POST', `/api/lectures/${lectureId}/captions`, {
    as: cast.teacher.token,
    body: captionForm(),
  });
  if (caption.status !== 201) throw new Error(`setup: adding captions failed: ${caption.text}`);
  captionId = caption.json._id ?? caption.json.id;
  if (!captionId) throw new Error(`setup: the captions answer names no id: ${caption.text}`);
});
afterAll(async () => {
  for (const server of servers) await server.stop(true);
  await h?.close();
});

type Route = { method: string; path: () => string; body?: () => unknown; as: 'student' | 'teacher' };
const subApps: { name: string; routes: typeof reactionsRoutes; calls: Route[] }[] = [
  {
    name: 'reactions',
    routes: reactionsRoutes,
    calls: [
      { method: 'PATCH', path: () => `/${lectureId}/view`, as: 'student' },
      { method: 'PATCH', path: () => `/${lectureId}/like`, as: 'student' },
      { method: 'DELETE', path: () => `/${lectureId}/like`, as: 'student' },
    ],
  },
  {
    name: 'comments',
    routes: commentsRoutes,
    calls: [
      { method: 'GET', path: () => `/${lectureId}/comments`, as: 'student' },
      { method: 'POST', path: () => `/${lectureId}/comments`, body: () => ({ text: 'Hello' }), as: 'student' },
      { method: 'DELETE', path: () => `/${lectureId}/comments/${commentId}`, as: 'student' },
    ],
  },
  {
    name: 'progress',
    routes: progressRoutes,
    calls: [
      {
        method: 'PUT',
        path: () => `/${lectureId}/progress`,
        body: () => ({ position: 1, duration: 10 }),
        as: 'student',
      },
      { method: 'GET', path: () => `/course/${courseId}/progress`, as: 'teacher' },
    ],
  },
  {
    name: 'captions',
    routes: captionsRoutes,
    calls: [
      { method: 'GET', path: () => `/${lectureId}/captions/${captionId}.vtt`, as: 'student' },
      { method: 'POST', path: () => `/${lectureId}/captions`, body: captionForm, as: 'teacher' },
      { method: 'DELETE', path: () => `/${lectureId}/captions/${captionId}`, as: 'teacher' },
    ],
  },
];

describe.each(subApps)('the $name routes mounted on their own', ({ routes, calls }) => {
  test('refuse every route without a session (401, nothing changed), and serve a signed-in user', async () => {
    // The router alone, with only what every app has (a request id, our error answers): no lectures router
    // around it to authenticate for it.
    const alone = new Hono<AppEnv>().use(requestId()).route('/api/lectures', routes(h.deps)).onError(handleError);
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: alone.fetch });
    servers.push(server);
    const api = apiClient(`http://127.0.0.1:${server.port}`);
    for (const call of calls) {
      const before = h.snapshot();
      const refused = await api(call.method, `/api/lectures${call.path()}`, { body: call.body?.() });
      expect({ call: `${call.method} ${call.path()}`, status: refused.status, code: refused.json?.code }).toEqual({
        call: `${call.method} ${call.path()}`,
        status: 401,
        code: 'unauthorized',
      });
      expect(h.snapshot()).toEqual(before);
      const expired = await api(call.method, `/api/lectures${call.path()}`, { as: 'not-a-token', body: call.body?.() });
      expect(expired.status).toBe(401);
      expect(h.snapshot()).toEqual(before);
    }
    // Reads answer alone exactly what they answer inside the whole app.
    for (const call of calls.filter((one) => one.method === 'GET')) {
      const as = cast[call.as].token;
      const mine = await api('GET', `/api/lectures${call.path()}`, { as });
      const app = await h.api('GET', `/api/lectures${call.path()}`, { as });
      expect(mine.status).toBe(200);
      expect({ status: mine.status, text: mine.text }).toEqual({ status: app.status, text: app.text });
    }
  });
});

describe('the same routes inside the whole app', () => {
  test('are refused without a session, and nothing changes', async () => {
    for (const { calls } of subApps) {
      for (const call of calls) {
        await expectRefused(h, {
          name: `${call.method} ${call.path()} without a session`,
          method: call.method,
          path: `/api/lectures${call.path()}`,
          body: call.body?.(),
          status: 401,
          code: 'unauthorized',
        });
      }
    }
  });

  test('a signed-in call to a sub-app route checks the session once, as before', async () => {
    // The lectures router authenticates its own routes after mounting the sub-apps: their routes are not checked
    // twice, and the lectures' own routes still are.
    const lookups = spyOn(sessions, 'sessionUser');
    try {
      const comments = await h.api('GET', `/api/lectures/${lectureId}/comments`, { as: cast.student.token });
      expect(comments.status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
      const lecture = await h.api('GET', `/api/lectures/${lectureId}`, { as: cast.student.token });
      expect(lecture.status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(2);
      expect((await h.api('GET', `/api/lectures/${lectureId}`)).status).toBe(401);
    } finally {
      lookups.mockRestore();
    }
  });
});
