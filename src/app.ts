import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { createAccountLimits } from './auth/limits';
import type { Config } from './config';
import type { AppDeps, AppEnv } from './deps';
import { errorBody, handleError } from './errors';
import { compressJson } from './http/compress-json';
import { openApiDocument } from './http/openapi';
import { logRequests } from './http/request-log';
import { createWebHandler } from './http/web-assets';
import { newId } from './lib/ids';
import { ltiFrameOrigins } from './lti/frame';
import { accountsRoutes } from './routes/accounts';
import { adminRoutes } from './routes/admin';
import { appInfoRoutes } from './routes/app-info';
import { coursesRoutes } from './routes/courses';
import { enrollmentsRoutes, invitesRoutes } from './routes/enrollments';
import { healthRoutes } from './routes/health';
import { historyRoutes } from './routes/history';
import { insightRoutes, todoRoutes } from './routes/insight';
import { lecturesRoutes } from './routes/lectures';
import { ltiRoutes } from './routes/lti';
import { ltiAdminRoutes } from './routes/lti-admin';
import { ltiServicesRoutes } from './routes/lti-services';
import { mediaRoutes } from './routes/media';
import { notificationPrefsRoutes, notificationsRoutes } from './routes/notifications';
import { profileRoutes } from './routes/profile';
import { answersRoutes } from './routes/questions';
import { resumableUploadRoutes } from './routes/resumable-uploads';
import { schoolSignInRoutes, signInMethodsRoutes } from './routes/school-sign-in';
import { searchRoutes } from './routes/search';
import { uploadRoutes } from './routes/upload';
import { videosRoutes } from './routes/videos';
import { wireConsequences } from './wiring';

/** Largest body of any request but a video upload (a 5 MB picture plus its form). */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

/**
 * Bun's own cap is lifted: every route that reads a body caps it itself (the small-body limit, the upload routes
 * from the declared length and while streaming), so an over-size request always gets our JSON 413, never Bun's
 * bare one.
 */
export const maxRequestBodySize = (_config: Pick<Config, 'maxUploadBytes'>) => Number.MAX_SAFE_INTEGER;

/** Composes the whole HTTP app from its dependencies; no port, no process state. */
export function createApp(appDeps: AppDeps, limits = createAccountLimits(appDeps.db)) {
  // The writes below emit events: what follows them is subscribed first.
  wireConsequences();
  // The account limits live as long as the app: one set per process (tests pass theirs to age them).
  const deps = { ...appDeps, limits };
  const app = new Hono<AppEnv>();
  // The school's languages, for answers in the person's language (src/i18n/translate.ts).
  const school = { locales: deps.config.locales, defaultLocale: deps.config.defaultLocale };
  const web = createWebHandler(deps.config.webDir, school);
  // Every answer, hashed assets included, carries its request id (X-Request-Id), the key to its line in the log.
  // 16 characters, not a 36-character UUID: it rides on every answer, each asset of the first page included.
  app.use(requestId({ generator: newId }), logRequests(deps.log));
  app.use((c, next) => {
    c.set('school', school);
    return next();
  });
  const documentPolicy = {
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
  const documentHeaders = secureHeaders({ contentSecurityPolicy: documentPolicy, crossOriginEmbedderPolicy: false });
  // The page an LTI launch opens (`?lti=1`) may be framed by the registered LMSs, and by no one else.
  const ltiDocumentHeaders = createMiddleware(async (c, next) => {
    const frameAncestors = ["'self'", ...(await ltiFrameOrigins(deps.db))];
    const headers = secureHeaders({
      contentSecurityPolicy: { ...documentPolicy, frameAncestors },
      crossOriginEmbedderPolicy: false,
      xFrameOptions: false,
    });
    return headers(c, next);
  });
  // Hashed scripts and styles are not documents: a page's policies (CSP, framing, referrer...) mean nothing on
  // them and cost ~450 bytes each on the sign-in page's dozen requests. They keep nosniff and CORP (web-assets.ts).
  // API answers and media are not documents either: they get what matters for them, never sniffed into something
  // else, never embedded by another site, never a referrer: three headers instead of twelve (about 450 bytes less
  // on every answer and segment).
  const dataHeaders = createMiddleware(async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  });
  const isData = (path: string) => (path.startsWith('/api/') && path !== '/api/docs') || path.startsWith('/media/');
  app.use((c, next) => {
    if (c.req.path.startsWith('/assets/')) return next();
    if (isData(c.req.path)) return dataHeaders(c, next);
    return c.req.query('lti') === '1' ? ltiDocumentHeaders(c, next) : documentHeaders(c, next);
  });

  // Every body but a video upload is small: refuse big ones before reading them.
  const smallBodies = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(errorBody(c, 'too_large', 'errors.requestTooLarge'), 413),
  });
  // Video bytes (the one-shot upload and tus chunks) are capped by their own routes.
  const videoBytes = (path: string) =>
    path === '/api/upload' || path === '/api/uploads' || path.startsWith('/api/uploads/');
  app.use('/api/*', (c, next) => (videoBytes(c.req.path) ? next() : smallBodies(c, next)));
  // JSON answers of 1 KB or more gzipped when the client takes it.
  app.use('/api/*', compressJson);

  // One chained expression, so its type (AppType) carries every route: the web's typed client (hc) is made from it.
  const routes = app
    .route('/api/health', healthRoutes(deps))
    .route('/api/app', appInfoRoutes(deps))
    .route('/api/auth', schoolSignInRoutes(deps))
    .route('/api/users/sign-in-methods', signInMethodsRoutes(deps))
    .route('/api/users/notifications', notificationPrefsRoutes(deps))
    .route('/api/notifications', notificationsRoutes(deps))
    .route('/api/users', accountsRoutes(deps))
    .route('/api/users', profileRoutes(deps))
    .route('/api/courses', coursesRoutes(deps))
    .route('/api/courses', insightRoutes(deps))
    .route('/api/courses', ltiServicesRoutes(deps))
    .route('/api/todo', todoRoutes(deps))
    .route('/api/enrollments', enrollmentsRoutes(deps))
    .route('/api/invites', invitesRoutes(deps))
    .route('/api/lectures', lecturesRoutes(deps))
    .route('/api/questions', answersRoutes(deps))
    .route('/api/upload', uploadRoutes(deps))
    .route('/api/uploads', resumableUploadRoutes(deps))
    .route('/api/videos', videosRoutes(deps))
    .route('/api/history', historyRoutes(deps))
    .route('/api/search', searchRoutes(deps))
    .route('/api/admin/lti', ltiAdminRoutes(deps))
    .route('/api/admin', adminRoutes(deps))
    .route('/api/lti', ltiRoutes(deps))
    .route('/media', mediaRoutes(deps));
  app.get('/api/openapi.json', openApiDocument(app));
  app.get('/api/docs', (c) => web(c, '/api-docs/index.html'));

  app.all('/api/*', (c) => c.json(errorBody(c, 'not_found', 'errors.noApiRoute'), 404));
  app.all('/media/*', (c) => c.json(errorBody(c, 'not_found', 'errors.notFound'), 404));
  app.get('*', (c) => web(c));
  app.notFound((c) => c.json(errorBody(c, 'not_found', 'errors.notFound'), 404));
  app.onError(handleError);
  return routes;
}

/** Every route of the API, paths, inputs and answers: what the web's `hc<AppType>` client is typed by. */
export type AppType = ReturnType<typeof createApp>;
