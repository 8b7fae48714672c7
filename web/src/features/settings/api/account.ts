import { answer, api } from '@api/client';
import type { Locale } from '@contract/locales';
import type { PrivateUserJson } from '@contract/users';
import { storeToken } from '@lib/token-cookie';
import { useMutation } from '@tanstack/react-query';

/** The account's own changes from Settings (name, language, picture, password, sessions, deletion): not on the sign-in page. */
export const uploadProfilePicture = async (file: File, onProgress: (percent: number) => void = () => {}) => {
  const form = new FormData();
  form.append('profilePicture', file);
  // Loaded when used: this module is on the sign-in page, the XHR upload is not.
  const { uploadWithProgress } = await import('@lib/upload-progress');
  return uploadWithProgress<PrivateUserJson>('/users/profile-picture', form, onProgress);
};

/** `currentPassword` is left out by an account without one (after confirming with the school account). */
export const changePassword = (userId: string, currentPassword: string | undefined, newPassword: string) =>
  answer(api.users[':id'].password.$patch({ param: { id: userId }, json: { currentPassword, newPassword } }));

/** Ends every session of the account, this one included. */
export const logoutEverywhere = () => answer(api.users['logout-all'].$post());

/** `password` is left out by an account without one: its proof is the `reauth` cookie of a school confirmation. */
export const deleteAccount = (userId: string, password?: string) =>
  answer(api.users[':id'].$delete({ param: { id: userId }, json: { password } }));

export const changeName = (userId: string, username: string) =>
  answer(api.users[':id'].$patch({ param: { id: userId }, json: { username } }));

/** The account's language (Settings → Language): a code the school offers, or null to follow the browser. */
export const changeLocale = (userId: string, locale: Locale | null) =>
  answer(api.users[':id'].$patch({ param: { id: userId }, json: { locale } }));

/** The signed-in user's language (the caller puts the answer in the session, then shows the app in it). */
export function useChangeLocale() {
  return useMutation({
    mutationFn: ({ id, locale }: { id: string; locale: Locale | null }) => changeLocale(id, locale),
    meta: { quiet: true },
  });
}

/** The signed-in user's new name (the caller puts the answer in the session). Failures reach the form's toast. */
export function useChangeName() {
  return useMutation({
    mutationFn: ({ id, username }: { id: string; username: string }) => changeName(id, username),
    meta: { quiet: true },
  });
}

/** A new password ends other sessions; this device continues with the token in the answer. */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ id, current, next }: { id: string; current?: string; next: string }) =>
      changePassword(id, current, next),
    meta: { quiet: true },
    onSuccess: (answer) => storeToken(answer.token),
  });
}

export function useUploadProfilePicture() {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (percent: number) => void }) =>
      uploadProfilePicture(file, onProgress),
    meta: { quiet: true },
  });
}
