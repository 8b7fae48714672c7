import { eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { readableCourse } from '../auth/access';
import { requireUser } from '../auth/middleware';
import type { Locale } from '../contract/locales';
import { emailChoiceJson, messageJson } from '../contract/users';
import { users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { badRequest } from '../errors';
import { escapeHtml, page } from '../http/html-page';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfAccount, localeOfRequest, translatorFor } from '../i18n/translate';
import { EMAIL_CHOICES, emailChoiceOf, recordVisit, setEmailChoice } from '../notifications/notifications';
import { readUnsubscribeToken } from '../notifications/unsubscribe-token';

const choiceBody = z.object({
  email: z.enum(EMAIL_CHOICES, { error: 'fields.emailChoice' }),
});

/** `GET`/`PUT /api/users/notifications`: the signed-in person's choice of notification email. */
export function notificationPrefsRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get('/', answers({ 200: emailChoiceJson }), async (c) =>
      c.json({ email: await emailChoiceOf(db, c.get('user').id) }),
    )
    .put('/', answers({ 200: emailChoiceJson }), validate('json', choiceBody), async (c) => {
      const { email } = c.req.valid('json');
      await setEmailChoice(db, c.get('user').id, email);
      return c.json({ email });
    });
}

const tokenQuery = z.object({ token: z.string().min(1).max(200) });

/** A message for the page, escaped, then a link to the app's Settings (sign-in comes first there). */
const withSettingsLink = (t: ReturnType<typeof translatorFor>, text: string) =>
  `${escapeHtml(text)}</p><p><a href="/settings">${escapeHtml(t('unsubscribe.openSettings'))}</a>`;

/**
 * `/api/notifications`: the one-click unsubscribe of RFC 8058 (no session: the signed token is the proof) and the
 * record of a class visit (the unread dot).
 */
export function notificationsRoutes(deps: AppDeps) {
  const { db, config } = deps;
  /** The page's language: the account's own choice when the link names one, else the browser's. */
  const pageLocale = async (c: Context, userId: string | undefined) => {
    const [account] = userId
      ? await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1)
      : [];
    return account?.locale ? localeOfAccount(account, config) : localeOfRequest(c);
  };
  const invalidPage = (locale: Locale) => {
    const t = translatorFor(locale);
    const title = escapeHtml(t('unsubscribe.invalid.title'));
    return page(locale, title, `<h1>${title}</h1><p>${withSettingsLink(t, t('errors.invalidUnsubscribeLink'))}</p>`);
  };
  const htmlHeaders = {
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    'Cache-Control': 'no-store',
  };
  return (
    new Hono<AppEnv>()
      // Opening the link shows a button; only its POST (or the mail client's one-click POST) changes anything.
      .get(
        '/unsubscribe',
        answers({ 200: { media: 'text/html', description: 'A page with the Unsubscribe button.' } }),
        async (c) => {
          const parsed = tokenQuery.safeParse(c.req.query());
          const userId = parsed.success ? readUnsubscribeToken(config.jwtSecret, parsed.data.token) : undefined;
          const locale = await pageLocale(c, userId);
          if (!userId || !parsed.success) return c.html(invalidPage(locale), 400, htmlHeaders);
          const t = translatorFor(locale);
          const action = `/api/notifications/unsubscribe?token=${encodeURIComponent(parsed.data.token)}`;
          const button = escapeHtml(t('mail.notification.unsubscribe'));
          return c.html(
            page(
              locale,
              button,
              `<h1>${escapeHtml(t('unsubscribe.confirm.heading'))}</h1><p>${withSettingsLink(t, t('unsubscribe.confirm.body'))}</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${button}</button></form>`,
            ),
            200,
            htmlHeaders,
          );
        },
      )
      .post(
        '/unsubscribe',
        answers(
          { 200: messageJson },
          { description: 'One-click unsubscribe (RFC 8058); a page instead when the client accepts text/html.' },
        ),
        async (c) => {
          const parsed = tokenQuery.safeParse(c.req.query());
          const userId = parsed.success ? readUnsubscribeToken(config.jwtSecret, parsed.data.token) : undefined;
          const wantsHtml = (c.req.header('accept') ?? '').includes('text/html');
          const locale = await pageLocale(c, userId);
          if (!userId) {
            if (wantsHtml) return c.html(invalidPage(locale), 400, htmlHeaders);
            throw badRequest('invalid_unsubscribe_link', 'errors.invalidUnsubscribeLink');
          }
          // A deleted account's link sets nothing (the foreign key refuses a row for no one).
          const [exists] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
          if (exists) await setEmailChoice(db, userId, 'none');
          const t = translatorFor(locale);
          const message = t('unsubscribe.done.body');
          if (wantsHtml) {
            const title = escapeHtml(t('unsubscribe.done.title'));
            return c.html(
              page(locale, title, `<h1>${title}</h1><p>${withSettingsLink(t, message)}</p>`),
              200,
              htmlHeaders,
            );
          }
          return c.json({ message });
        },
      )
      // The class page calls this when opened: what came before is no longer new.
      .post('/visits/:id', answers({ 200: messageJson }), requireUser(deps), validate('param', idParam), async (c) => {
        const { course } = await readableCourse(db, c.get('user'), c.req.valid('param').id);
        await recordVisit(db, c.get('user').id, course.id);
        return c.json({ message: 'Visit recorded' });
      })
  );
}
