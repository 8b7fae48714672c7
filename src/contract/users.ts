import type { User } from '../db/schema';

export const PLACEHOLDER_AVATAR = '/placeholder-avatar.svg';

export function avatarUrl(user: Pick<User, 'id' | 'avatarVersion'>): string {
  return user.avatarVersion > 0 ? `/api/users/${user.id}/avatar?v=${user.avatarVersion}` : PLACEHOLDER_AVATAR;
}

/** The current user as the client sees it: never the hash or the token version. */
export function toPrivateUser(user: User) {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    profilePictureImageLink: avatarUrl(user),
    isVerified: user.emailVerifiedAt !== null,
    /** Beyond the spec: the administrator of this server. */
    isAdmin: user.isAdmin,
    /** Beyond the spec: for teachers, whether the administrator approved them (`pending` can't create classes). */
    teacherStatus: user.teacherStatus,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** Another user, as shown beside a comment or in the teacher's progress table. */
export function toPublicUser(user: Pick<User, 'id' | 'username' | 'avatarVersion'>) {
  return { _id: user.id, username: user.username, profilePictureImageLink: avatarUrl(user) };
}

export type PrivateUserJson = ReturnType<typeof toPrivateUser>;
export type PublicUserJson = ReturnType<typeof toPublicUser>;
export type Role = User['role'];
/** What login and verify-otp answer. */
export type SignInJson = { token: string; user: PrivateUserJson; message: string };
