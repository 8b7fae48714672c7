import { and, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { startSession } from '../auth/sessions';
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens';
import { LIMITS } from '../contract/limits';
import { isLocale, type Locale } from '../contract/locales';
import { deepLinkBody, platformUrl } from '../contract/lti';
import {
  type ContextServices,
  classesWithLectures,
  contextOf,
  enrollLearner,
  lectureInCourse,
  mapContext,
  recordResourceLink,
  refreshContext,
  rememberFrameOrigin,
} from '../db/queries/lti';
import { recordLogin } from '../db/queries/users';
import { courses, type LtiContext, type LtiPlatform, lectures, ltiPlatforms, users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { answers } from '../http/openapi';
import { localeOfRequest, translate } from '../i18n/translate';
import { CLAIM, classRoleOf } from '../lti/claims';
import { signDeepLinkingResponse } from '../lti/deep-linking';
import { toolJwks } from '../lti/keys';
import {
  autoPostPage,
  type HtmlPage,
  handoverPage,
  pickerPage,
  refusalPage,
  registeredPage,
  registrationFailedPage,
  storagePutPage,
} from '../lti/pages';
import { lmsAccount } from '../lti/people';
import { RegistrationFailed, readRegistrationKey, registerWithPlatform } from '../lti/registration';
import { newLoginState, readLoginState, STATE_LIFETIME_S, stateCookieName } from '../lti/state';
import { type LaunchProblem, LaunchRefused, verifyIdToken } from '../lti/verify';

/** What a verified launch says, carried from the launch to the class choice (signed, short-lived). */
type LaunchFacts = {
  platformId: string;
  userId: string;
  role: 'teacher' | 'student';
  contextId: string;
  services: ContextServices;
  resourceLinkId?: string;
  lineitemUrl?: string;
  customLectureId?: string;
  deepLink?: { returnUrl: string; data?: string; deploymentId: string };
  /** The login had no cookie: the app gets the session only once Platform Storage confirms the state. */
  storageCheck?: { target: string; origin: string; key: string; value: string };
};

const PENDING_AUDIENCE = 'lti-pending';
const DEEP_LINK_AUDIENCE = 'lti-deep-link';
/** How long a teacher may take to pick a class or a lecture. */
const PICKER_LIFETIME = '1h';

const loginParams = z.object({
  iss: z.string().min(1).max(2000),
  login_hint: z.string().min(1).max(2000),
  target_link_uri: z.string().min(1).max(2000),
  lti_message_hint: z.string().max(4000).optional(),
  client_id: z.string().max(255).optional(),
  lti_deployment_id: z.string().max(255).optional(),
  lti_storage_target: z.string().max(255).optional(),
});

const registerQuery = z.object({
  openid_configuration: platformUrl,
  registration_token: z.string().max(8000).optional(),
  key: z.string().max(2000).optional(),
});

const page = (description: string) => ({ media: 'text/html', description });
const refusals = {
  400: page('Refused: a page saying why, in the person’s language.'),
  401: page('Refused: the launch could not be checked.'),
  403: page('Refused: role, deployment or class.'),
};
const launchAnswers = {
  200: page('A hand-over page that signs the app in and opens the lecture, or a picker.'),
  ...refusals,
};
const loginAnswers = {
  200: page('With lti_storage_target: a page that keeps the state in Platform Storage, then goes on.'),
  302: 'To the LMS’s authentication URL.',
  400: page('An LMS that is not registered.'),
};
const LOGIN_WORDS =
  'LTI third-party initiated login (iss, login_hint, target_link_uri, client_id, lti_storage_target...).';
const keySetJson = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const record = (value: unknown) =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** LTI 1.3 as a tool (docs/lti.md): our key set, login initiation, launch, deep linking, dynamic registration. */
export function ltiRoutes(deps: Pick<AppDeps, 'db' | 'config' | 'log'>) {
  const { db, config } = deps;
  const secret = config.jwtSecret;
  const toolBase = (c: Context) => config.publicUrl ?? new URL(c.req.url).origin;
  const send = (c: Context, answer: HtmlPage, status: 200 | 400 | 401 | 403 = 200) =>
    c.html(answer.html, status, answer.headers);
  const refuse = (c: Context<AppEnv>, problem: LaunchProblem, detail: string) => {
    c.get('log').warn({ event: 'lti_refused', problem, detail }, `LTI launch refused: ${problem}`);
    const status = problemStatus[problem];
    return send(c, refusalPage(localeOfRequest(c), problem), status);
  };
  /** A new class is named after the LMS course. */
  const classNameOf = (facts: LaunchFacts) =>
    (facts.services.title ?? translate(config.defaultLocale, 'lti.defaultClassName')).slice(0, LIMITS.courseNameMax);
  const platformById = async (id: string) =>
    (await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).limit(1))[0];

  /** Maps the context (or lets the teacher pick the class), then ends the launch as its message asks. */
  /** Once a launch knows the person, their own language (Settings) wins over the browser's, as on every page. */
  async function localeOfPerson(c: Context<AppEnv>, userId: string): Promise<Locale> {
    const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
    const offered = (c.get('school') as { locales: readonly string[] } | undefined)?.locales ?? [];
    return row && isLocale(row.locale) && offered.includes(row.locale) ? row.locale : localeOfRequest(c);
  }

  async function afterAccount(c: Context<AppEnv>, facts: LaunchFacts, locale: Locale) {
    const context = await contextOf(db, facts.platformId, facts.contextId);
    if (context) return finish(c, facts, context, locale);
    if (facts.role === 'student') throw new LaunchRefused('not_set_up', `context ${facts.contextId} not mapped`);
    const classes = await classesWithLectures(db, facts.userId);
    if (classes.length === 0) {
      const created = await mapContext(
        db,
        { ...ids(facts), teacherId: facts.userId, courseId: 'new', className: classNameOf(facts) },
        facts.services,
      );
      return finish(c, facts, created, locale);
    }
    const pending = await sign(facts as unknown as Record<string, unknown>, PENDING_AUDIENCE, '15m');
    return send(
      c,
      pickerPage(locale, {
        action: '/api/lti/context',
        request: pending,
        heading: 'lti.picker.whichClass',
        classes,
        offerNew: true,
      }),
    );
  }

  async function finish(c: Context<AppEnv>, facts: LaunchFacts, context: LtiContext, locale: Locale) {
    const [course] = await db.select().from(courses).where(eq(courses.id, context.courseId)).limit(1);
    if (facts.role === 'teacher' && course.teacherId !== facts.userId) {
      throw new LaunchRefused('other_teacher', `class ${course.id} has another teacher`);
    }
    if (facts.role === 'student') await enrollLearner(db, course.id, facts.userId);
    await refreshContext(db, context.id, facts.services);
    if (facts.deepLink) {
      if (facts.role !== 'teacher') throw new LaunchRefused('role_refused', 'a learner cannot add content');
      const request = await sign(
        { pid: facts.platformId, uid: facts.userId, ...facts.deepLink },
        DEEP_LINK_AUDIENCE,
        PICKER_LIFETIME,
      );
      const classes = await classesWithLectures(db, facts.userId);
      // The class of this LMS course first: it is what the teacher most likely adds from.
      classes.sort((a, b) => Number(b.id === course.id) - Number(a.id === course.id));
      return send(
        c,
        pickerPage(locale, {
          action: '/api/lti/deep-link',
          request,
          heading: 'lti.picker.add',
          classes,
          offerNew: false,
        }),
      );
    }
    let lectureId: string | undefined;
    if (facts.resourceLinkId) {
      const link = await recordResourceLink(db, {
        ...ids(facts),
        resourceLinkId: facts.resourceLinkId,
        courseId: course.id,
        lectureId: facts.customLectureId,
        lineitemUrl: facts.lineitemUrl,
      });
      lectureId = link?.lectureId ?? undefined;
    }
    if (!lectureId && facts.customLectureId) lectureId = await lectureInCourse(db, course.id, facts.customLectureId);
    await recordLogin(db, facts.userId);
    // How the launch was bound to this browser: what an operator looks at when Safari users cannot get in.
    const binding = facts.storageCheck ? 'platform-storage' : 'cookie';
    c.get('log').info({ event: 'lti_launch', binding, role: facts.role, courseId: course.id }, 'LTI launch');
    const session = await startSession(c, db, secret, facts.userId, facts.storageCheck ? 'none' : 'frame');
    const destination = `/classroom/${encodeURIComponent(course.id)}?${lectureId ? `lecture=${encodeURIComponent(lectureId)}&` : ''}lti=1`;
    return send(
      c,
      handoverPage(locale, {
        token: session.token,
        maxAgeSeconds: TOKEN_LIFETIME_SECONDS,
        destination,
        check: facts.storageCheck,
      }),
    );
  }

  const sign = (claims: Record<string, unknown>, audience: string, expiresIn: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(audience)
      .setExpirationTime(expiresIn)
      .sign(secret);
  const readSigned = async (token: string, audience: string) => {
    try {
      return (await jwtVerify(token, secret, { audience, algorithms: ['HS256'] })).payload;
    } catch {
      return undefined;
    }
  };

  async function login(c: Context<AppEnv>, input: Record<string, unknown>) {
    const parsed = loginParams.safeParse(input);
    if (!parsed.success) return refuse(c, 'bad_message', 'login without iss, login_hint or target_link_uri');
    const params = parsed.data;
    const candidates = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, params.iss));
    const platform = params.client_id
      ? candidates.find((row) => row.clientId === params.client_id)
      : candidates.length === 1
        ? candidates[0]
        : undefined;
    if (!platform) return refuse(c, 'unknown_platform', `login from ${params.iss}`);
    const { state, token } = await newLoginState(secret, platform.id, params.lti_storage_target);
    // Partitioned and SameSite=None: it must come back with the LMS's form post, inside the LMS's frame.
    setCookie(c, stateCookieName(state.sid), '1', {
      path: '/api/lti',
      httpOnly: true,
      secure: true,
      sameSite: 'None',
      partitioned: true,
      maxAge: STATE_LIFETIME_S,
    });
    const auth = new URL(platform.authLoginUrl);
    const query = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: `${toolBase(c)}/api/lti/launch`,
      login_hint: params.login_hint,
      state: token,
      nonce: state.nonce,
      ...(params.lti_message_hint !== undefined && { lti_message_hint: params.lti_message_hint }),
    };
    for (const [name, value] of Object.entries(query)) auth.searchParams.set(name, value);
    if (!params.lti_storage_target) return c.redirect(auth.href, 302);
    return send(
      c,
      storagePutPage(
        localeOfRequest(c),
        { target: params.lti_storage_target, origin: auth.origin, key: `state_${state.sid}`, value: state.sid },
        auth.href,
      ),
    );
  }

  return new Hono<AppEnv>()
    .get('/jwks', answers({ 200: keySetJson }), async (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      // Platforms fetch it from their own servers: readable from anywhere.
      c.header('Access-Control-Allow-Origin', '*');
      return c.json(await toolJwks(db));
    })
    .get('/login', answers(loginAnswers, { description: LOGIN_WORDS }), (c) => login(c, c.req.query()))
    .post('/login', answers(loginAnswers, { description: LOGIN_WORDS }), async (c) => login(c, await c.req.parseBody()))
    .post(
      '/launch',
      answers(launchAnswers, { description: 'LTI launch: a form post of id_token and state.' }),
      async (c) => {
        const form = await c.req.parseBody();
        try {
          const stateToken = str(form.state);
          if (!stateToken) throw new LaunchRefused('no_state', 'launch without state');
          const state = await readLoginState(secret, stateToken);
          if (!state) throw new LaunchRefused('bad_state', 'state not ours or too old');
          const idToken = str(form.id_token);
          if (!idToken) throw new LaunchRefused('bad_token', 'no id_token');
          const hasCookie = getCookie(c, stateCookieName(state.sid)) === '1';
          if (!hasCookie && !state.storageTarget) throw new LaunchRefused('no_cookie', 'no state cookie, no storage');
          const platform = await platformById(state.platformId);
          if (!platform) throw new LaunchRefused('unknown_platform', 'platform removed since login');
          const claims = await verifyIdToken(db, platform, idToken, state.nonce);
          deleteCookie(c, stateCookieName(state.sid), {
            path: '/api/lti',
            secure: true,
            sameSite: 'None',
            partitioned: true,
          });
          const facts = await factsOf(platform, claims, state, hasCookie);
          return await afterAccount(c, facts, await localeOfPerson(c, facts.userId));
        } catch (error) {
          if (error instanceof LaunchRefused) return refuse(c, error.problem, error.detail);
          throw error;
        }
      },
    )
    .post(
      '/context',
      answers(launchAnswers, { description: 'The class a first launch maps the LMS course to.' }),
      async (c) => {
        const form = await c.req.parseBody();
        try {
          const facts = (await readSigned(String(form.request ?? ''), PENDING_AUDIENCE)) as unknown as
            | LaunchFacts
            | undefined;
          if (!facts?.userId) throw new LaunchRefused('bad_state', 'class choice without a live launch');
          const pick = String(form.pick ?? '');
          const owned = await db
            .select({ id: courses.id })
            .from(courses)
            .where(and(eq(courses.id, pick), eq(courses.teacherId, facts.userId)))
            .limit(1);
          if (pick !== 'new' && owned.length === 0) throw new LaunchRefused('other_teacher', `picked ${pick}`);
          const context = await mapContext(
            db,
            { ...ids(facts), teacherId: facts.userId, courseId: pick, className: classNameOf(facts) },
            facts.services,
          );
          return await finish(c, facts, context, await localeOfPerson(c, facts.userId));
        } catch (error) {
          if (error instanceof LaunchRefused) return refuse(c, error.problem, error.detail);
          throw error;
        }
      },
    )
    .post(
      '/deep-link',
      answers(
        { 200: page('A form auto-posting the signed LtiDeepLinkingResponse (JWT) to the LMS.'), ...refusals },
        { description: 'The teacher’s pick in the deep-linking picker (form fields request, pick).' },
      ),
      async (c) => {
        const form = await c.req.parseBody();
        const [courseId, lectureId] = String(form.pick ?? '').split('/');
        const parsed = deepLinkBody.safeParse({ request: form.request, courseId, lectureId });
        try {
          if (!parsed.success) throw new LaunchRefused('bad_message', 'deep link pick unreadable');
          const request = await readSigned(parsed.data.request, DEEP_LINK_AUDIENCE);
          if (!request || typeof request.uid !== 'string' || typeof request.pid !== 'string') {
            throw new LaunchRefused('bad_state', 'deep link request not ours or too old');
          }
          const [course] = await db
            .select()
            .from(courses)
            .where(and(eq(courses.id, parsed.data.courseId), eq(courses.teacherId, request.uid)))
            .limit(1);
          if (!course) throw new LaunchRefused('other_teacher', 'picked a class that is not theirs');
          const [lecture] = parsed.data.lectureId
            ? await db
                .select()
                .from(lectures)
                .where(and(eq(lectures.id, parsed.data.lectureId), eq(lectures.courseId, course.id)))
                .limit(1)
            : [];
          if (parsed.data.lectureId && !lecture) throw new LaunchRefused('bad_message', 'lecture not in the class');
          const platform = await platformById(request.pid);
          if (!platform) throw new LaunchRefused('unknown_platform', 'platform removed');
          const jwt = await signDeepLinkingResponse(db, platform, {
            deploymentId: String(request.deploymentId),
            data: typeof request.data === 'string' ? request.data : undefined,
            launchUrl: `${toolBase(c)}/api/lti/launch`,
            course: { id: course.id, name: course.courseName },
            lecture: lecture ? { id: lecture.id, title: lecture.nameOfTopic } : undefined,
          });
          return send(c, autoPostPage(localeOfRequest(c), String(request.returnUrl), { JWT: jwt }));
        } catch (error) {
          if (error instanceof LaunchRefused) return refuse(c, error.problem, error.detail);
          throw error;
        }
      },
    )
    .get(
      '/register',
      answers(
        {
          200: page('Registered: the page tells the LMS to close it (org.imsglobal.lti.close).'),
          400: page('The LMS refused, or sent no configuration.'),
          403: page('No live registration key.'),
        },
        { description: 'LTI Dynamic Registration (docs/lti.md); `key` is a registration key from the console.' },
      ),
      async (c) => {
        const locale = localeOfRequest(c);
        const parsed = registerQuery.safeParse(c.req.query());
        if (!parsed.success) return send(c, registrationFailedPage(locale, 'lti.registrationFailed.badRequest'), 400);
        const admin = await readRegistrationKey(db, secret, parsed.data.key);
        if (!admin) return send(c, registrationFailedPage(locale, 'lti.registrationFailed.badKey'), 403);
        try {
          const platform = await registerWithPlatform(db, {
            toolBase: toolBase(c),
            configurationUrl: parsed.data.openid_configuration,
            registrationToken: parsed.data.registration_token,
            keyId: admin.keyId,
            keyExpiresAt: admin.expiresAt,
          });
          c.get('log').info(
            { event: 'lti_registered', platformId: platform.id, by: admin.userId },
            'LTI platform registered',
          );
          return send(c, registeredPage(locale, platform.name));
        } catch (error) {
          if (!(error instanceof RegistrationFailed)) throw error;
          c.get('log').warn({ event: 'lti_registration_failed', detail: error.message }, 'LTI registration failed');
          return send(c, registrationFailedPage(locale, error.reason), 400);
        }
      },
    );

  /** The person (by issuer and sub, never email) and what the launch asks, from checked claims. */
  async function factsOf(
    platform: LtiPlatform,
    claims: Record<string, unknown>,
    state: { sid: string; storageTarget?: string },
    hasCookie: boolean,
  ): Promise<LaunchFacts> {
    const roles = Array.isArray(claims[CLAIM.roles]) ? (claims[CLAIM.roles] as unknown[]).map(String) : [];
    const role = classRoleOf(roles);
    if (!role) throw new LaunchRefused('role_refused', `roles ${roles.join(' ')}`);
    const context = record(claims[CLAIM.context]);
    const contextId = str(context?.id);
    if (!contextId) throw new LaunchRefused('not_set_up', 'launch without a course (context)');
    const user = await accountOf(platform, claims, role);
    if (role === 'teacher' && user.role !== 'teacher') {
      throw new LaunchRefused('role_refused', 'an Instructor whose account here is a student account');
    }
    const nrps = record(claims[CLAIM.nrps]);
    const ags = record(claims[CLAIM.ags]);
    const deepLinking = record(claims[CLAIM.deepLinkingSettings]);
    const custom = record(claims[CLAIM.custom]);
    const resourceLink = record(claims[CLAIM.resourceLink]);
    const isDeepLinking = claims[CLAIM.messageType] === 'LtiDeepLinkingRequest';
    const returnUrl = str(deepLinking?.deep_link_return_url);
    if (isDeepLinking && !returnUrl) throw new LaunchRefused('bad_message', 'deep linking without a return URL');
    // The LMS page that frames us is where it asks to be returned to: a signed claim, so its origin may frame us.
    const framedFrom = originOf(returnUrl ?? str(record(claims[CLAIM.launchPresentation])?.return_url));
    if (framedFrom) await rememberFrameOrigin(db, platform.id, framedFrom);
    return {
      platformId: platform.id,
      userId: user.id,
      role,
      contextId,
      services: {
        title: str(context?.title) ?? str(context?.label),
        membershipsUrl: str(nrps?.context_memberships_url),
        lineitemsUrl: str(ags?.lineitems),
        agsScopes: Array.isArray(ags?.scope) ? (ags.scope as unknown[]).map(String) : undefined,
      },
      resourceLinkId: isDeepLinking ? undefined : str(resourceLink?.id),
      lineitemUrl: str(ags?.lineitem),
      customLectureId: str(custom?.lecture_id),
      deepLink:
        isDeepLinking && returnUrl
          ? { returnUrl, data: str(deepLinking?.data), deploymentId: String(claims[CLAIM.deploymentId]) }
          : undefined,
      storageCheck:
        hasCookie || !state.storageTarget
          ? undefined
          : {
              target: state.storageTarget,
              origin: new URL(platform.authLoginUrl).origin,
              key: `state_${state.sid}`,
              value: state.sid,
            },
    };
  }

  /** The account of an LMS person (src/lti/people.ts: keyed by (issuer, sub), never by email; docs/lti.md). */
  async function accountOf(platform: LtiPlatform, claims: Record<string, unknown>, role: 'teacher' | 'student') {
    const name =
      str(claims.name) ?? ([str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ') || undefined);
    const result = await lmsAccount(db, config, {
      issuer: platform.issuer,
      subject: str(claims.sub) as string,
      name,
      email: str(claims.email),
      teaches: role === 'teacher',
    });
    if (result.kind === 'refused') throw new LaunchRefused('account_refused', result.problem);
    return result.user;
  }
}

const problemStatus: Record<LaunchProblem, 400 | 401 | 403> = {
  no_state: 400,
  bad_state: 400,
  no_cookie: 401,
  unknown_platform: 400,
  bad_token: 401,
  bad_signature: 401,
  wrong_audience: 401,
  expired: 401,
  bad_nonce: 401,
  replayed_nonce: 401,
  unknown_deployment: 403,
  bad_message: 400,
  role_refused: 403,
  not_set_up: 403,
  account_refused: 403,
  other_teacher: 403,
};

const ids = (facts: LaunchFacts) => ({ platformId: facts.platformId, contextId: facts.contextId });

/** The http(s) origin of a URL, or undefined. */
function originOf(url: string | undefined) {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
