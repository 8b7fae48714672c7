import { asc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAdmin, requireUser } from '../auth/middleware';
import { platformBody, platformJson, platformPatch, toolUrlsJson, toPlatformJson } from '../contract/lti';
import { messageJson } from '../contract/users';
import { isUniqueViolation } from '../db/dialect';
import { ltiPlatforms } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfRequest, translate } from '../i18n/translate';
import { newId } from '../lib/ids';
import { newRegistrationKey } from '../lti/registration';

const registrationUrlJson = z.object({ url: z.string(), expiresAt: z.iso.datetime() });

const platformTaken = () => new ApiError(409, 'lti_platform_exists', 'errors.ltiPlatformExists');
const platformMissing = () => notFound('lti_platform_not_found', 'errors.ltiPlatformNotFound');

/** `/api/admin/lti`: the LMSs this server is an LTI tool for (docs/lti.md). Administrators only. */
export function ltiAdminRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const toolBase = (url: string) => config.publicUrl ?? new URL(url).origin;
  const byId = async (id: string) => (await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id)).limit(1))[0];
  return new Hono<AppEnv>()
    .use(requireUser(deps), requireAdmin)
    .get('/tool', answers({ 200: toolUrlsJson }), (c) => {
      const base = toolBase(c.req.url);
      return c.json({
        loginUrl: `${base}/api/lti/login`,
        launchUrl: `${base}/api/lti/launch`,
        jwksUrl: `${base}/api/lti/jwks`,
        deepLinkUrl: `${base}/api/lti/launch`,
        registrationUrl: `${base}/api/lti/register`,
      });
    })
    .post('/registration-url', answers({ 201: registrationUrlJson }), async (c) => {
      const { key, expiresAt } = await newRegistrationKey(config.jwtSecret, c.get('user').id);
      const url = `${toolBase(c.req.url)}/api/lti/register?key=${encodeURIComponent(key)}`;
      return c.json({ url, expiresAt: new Date(expiresAt).toISOString() }, 201);
    })
    .get('/platforms', answers({ 200: z.array(platformJson) }), async (c) => {
      const rows = await db.select().from(ltiPlatforms).orderBy(asc(ltiPlatforms.name), asc(ltiPlatforms.id));
      return c.json(rows.map(toPlatformJson));
    })
    .post('/platforms', answers({ 201: platformJson }), validate('json', platformBody), async (c) => {
      const body = c.req.valid('json');
      try {
        const [row] = await db
          .insert(ltiPlatforms)
          .values({ id: newId(), ...body, deploymentIds: JSON.stringify(body.deploymentIds), createdAt: Date.now() })
          .returning();
        return c.json(toPlatformJson(row), 201);
      } catch (error) {
        if (isUniqueViolation(error)) throw platformTaken();
        throw error;
      }
    })
    .patch(
      '/platforms/:id',
      answers({ 200: platformJson }),
      validate('param', idParam),
      validate('json', platformPatch),
      async (c) => {
        const { deploymentIds, ...rest } = c.req.valid('json');
        if (!(await byId(c.req.valid('param').id))) throw platformMissing();
        try {
          const [row] = await db
            .update(ltiPlatforms)
            .set({ ...rest, ...(deploymentIds && { deploymentIds: JSON.stringify(deploymentIds) }) })
            .where(eq(ltiPlatforms.id, c.req.valid('param').id))
            .returning();
          return c.json(toPlatformJson(row), 200);
        } catch (error) {
          if (isUniqueViolation(error)) throw platformTaken();
          throw error;
        }
      },
    )
    .delete('/platforms/:id', answers({ 200: messageJson }), validate('param', idParam), async (c) => {
      const removed = await db
        .delete(ltiPlatforms)
        .where(eq(ltiPlatforms.id, c.req.valid('param').id))
        .returning();
      if (removed.length === 0) throw platformMissing();
      return c.json({ message: translate(localeOfRequest(c), 'lti.platformRemoved') });
    });
}
