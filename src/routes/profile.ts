import { Hono } from 'hono';
import { hasPassword } from '../auth/federated';
import { requireUser } from '../auth/middleware';
import { hashPassword, verifyPassword } from '../auth/password';
import { clearReauthCookie, requireReauth } from '../auth/reauth';
import { clearTokenCookie, endSessions, setTokenCookie } from '../auth/sessions';
import { signToken } from '../auth/tokens';
import { LIMITS } from '../contract/limits';
import {
  deleteAccountBody,
  messageJson,
  passwordBody,
  passwordChangedJson,
  privateUserJson,
  profileBody,
  toPrivateUser,
} from '../contract/users';
import { deleteAccount } from '../db/queries/admin';
import { administrators, avatarVersionOf, bumpAvatarVersion, updateUser } from '../db/queries/users';
import type { User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, forbidden, notFound } from '../errors';
import { smallFileForm } from '../http/form-file';
import { answers, multipartBody } from '../http/openapi';
import { idParam, invalidInput, validate } from '../http/validation';
import type { MessageKey } from '../i18n/translate';
import { toAvatar } from '../images/avatar';
import { removeVideoFiles } from '../media/videos';
import { avatarKey, tempDir } from '../storage/keys';

/** A password account without its password: the 400 the spec's strict schema gave. */
const passwordMissing = (field: string, message: MessageKey) => invalidInput([{ message, path: [field] }], field);
const picture = smallFileForm({
  field: 'profilePicture',
  maxBytes: LIMITS.avatarMaxBytes,
  tooLarge: () =>
    new ApiError(413, 'too_large', 'errors.pictureTooLarge', {}, { mb: LIMITS.avatarMaxBytes / 1024 ** 2 }),
  missing: 'fields.choosePicture',
  badForm: 'errors.sendPictureAsForm',
});

/**
 * The last administrator who can sign in may not delete their own account: the server would be left with nobody
 * to approve teachers or run it. The admin console has no way to make another administrator, so the message
 * names the ways there are (ADMIN_EMAIL at start, the set-admin-password command).
 */
const lastAdmin = () => new ApiError(409, 'last_admin', 'errors.lastAdmin');

/** The signed-in user's own name, password and picture, and everyone's pictures. */
export function profileRoutes(deps: AppDeps) {
  const { db, config, storage } = deps;
  const ensureSelf = (caller: User, id: string) => {
    if (caller.id !== id) throw forbidden('errors.onlyOwnAccount');
  };

  // Per route, not `.use()`: this app shares /api/users with the public sign-up routes.
  const auth = requireUser(deps);
  return new Hono<AppEnv>()
    .post(
      '/profile-picture',
      answers(
        { 200: privateUserJson },
        { summary: 'Replace your profile picture', requestBody: multipartBody('profilePicture') },
      ),
      auth,
      picture.limit,
      async (c) => {
        const { file } = await picture.read(c);
        const avatar = await toAvatar(config, tempDir(config.scratchDir), new Uint8Array(await file.arrayBuffer()));
        const caller = c.get('user');
        await storage.put(avatarKey(caller.id), avatar);
        return c.json(toPrivateUser(await bumpAvatarVersion(db, caller.id)));
      },
    )

    .get(
      '/:id/avatar',
      answers({ 200: { media: 'image/webp', description: 'The picture.' } }),
      auth,
      validate('param', idParam),
      async (c) => {
        const { id } = c.req.valid('param');
        const version = await avatarVersionOf(db, id);
        const file = version ? await storage.get(avatarKey(id)) : undefined;
        if (!file) throw notFound('avatar_not_found', 'errors.pictureNotFound');
        return new Response(file, {
          headers: {
            'Content-Type': 'image/webp',
            'Cache-Control': 'private, max-age=31536000, immutable',
          },
        });
      },
    )

    .patch(
      '/:id/password',
      answers({ 200: passwordChangedJson }),
      auth,
      validate('param', idParam),
      validate('json', passwordBody),
      async (c) => {
        const caller = c.get('user');
        ensureSelf(caller, c.req.valid('param').id);
        const body = c.req.valid('json');
        const first = !hasPassword(caller);
        if (first) {
          // A school-only account chooses its first password: only where passwords are a way in.
          if (!config.passwordSignin) {
            throw forbidden('errors.noPasswordsHere');
          }
          await requireReauth(c, config.jwtSecret, { userId: caller.id, sessionId: c.get('sessionId') });
        } else {
          if (!body.currentPassword) throw passwordMissing('currentPassword', 'fields.currentPasswordRequired');
          if (!(await verifyPassword(body.currentPassword, caller.passwordHash))) {
            throw badRequest('wrong_password', 'errors.wrongCurrentPassword', {
              fields: { currentPassword: 'errors.wrongCurrentPassword' },
            });
          }
        }
        await updateUser(db, caller.id, { passwordHash: await hashPassword(body.newPassword) });
        if (first) clearReauthCookie(c);
        // Every other device is signed out; this one goes on, with a fresh token in the answer and the cookie.
        await endSessions(db, caller.id, c.get('sessionId'));
        const token = await signToken(config.jwtSecret, { userId: caller.id, sessionId: c.get('sessionId') });
        setTokenCookie(c, token);
        c.get('log').info(
          { event: first ? 'password_chosen' : 'password_changed', userId: caller.id },
          first ? 'first password chosen; other sessions ended' : 'password changed; other sessions ended',
        );
        return c.json({ message: 'Password updated successfully', token });
      },
    )

    .delete(
      '/:id',
      answers({ 200: messageJson }),
      auth,
      validate('param', idParam),
      validate('json', deleteAccountBody),
      async (c) => {
        const caller = c.get('user');
        ensureSelf(caller, c.req.valid('param').id);
        const { password } = c.req.valid('json');
        if (!hasPassword(caller)) {
          await requireReauth(c, config.jwtSecret, { userId: caller.id, sessionId: c.get('sessionId') });
        } else if (!password) {
          throw passwordMissing('password', 'fields.passwordRequired');
        } else if (!(await verifyPassword(password, caller.passwordHash))) {
          throw badRequest('wrong_password', 'errors.wrongPassword', { fields: { password: 'errors.wrongPassword' } });
        }
        if (caller.isAdmin) {
          const others = (await administrators(db)).filter((admin) => admin.id !== caller.id && !admin.disabledAt);
          if (others.length === 0) throw lastAdmin();
        }
        const videoIds = await deleteAccount(db, caller.id);
        for (const id of videoIds) await removeVideoFiles(deps, id);
        await storage.delete(avatarKey(caller.id));
        clearTokenCookie(c);
        clearReauthCookie(c);
        c.get('log').info({ event: 'account_deleted', userId: caller.id }, 'account deleted by its owner');
        return c.json({ message: 'Account deleted' });
      },
    )

    .patch(
      '/:id',
      answers({ 200: privateUserJson }),
      auth,
      validate('param', idParam),
      validate('json', profileBody),
      async (c) => {
        const caller = c.get('user');
        ensureSelf(caller, c.req.valid('param').id);
        const body = c.req.valid('json');
        // A language the school does not offer (LOCALES) is refused, and nothing is changed.
        if (body.locale && !config.locales.includes(body.locale)) {
          throw badRequest('locale_not_offered', 'errors.localeNotOffered', {
            fields: { locale: 'errors.localeNotOffered' },
          });
        }
        const changes = {
          ...(body.username !== undefined ? { username: body.username } : {}),
          // null: follow the browser's language again.
          ...(body.locale !== undefined ? { locale: body.locale } : {}),
        };
        return c.json(toPrivateUser(await updateUser(db, caller.id, changes)));
      },
    );
}
