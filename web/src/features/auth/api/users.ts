import { useMutation } from '@tanstack/react-query';
import type { PrivateUserJson, Role } from '../../../../../src/contract/users';
import { answer, api } from '../../../api/client';
import { storeToken } from '../../../lib/token-cookie';

export type { PrivateUserJson as User, Role, SignInJson as LoginAnswer } from '../../../../../src/contract/users';

export const login = (email: string, password: string) => answer(api.users.login.$post({ json: { email, password } }));

export const register = (body: { username: string; email: string; password: string; role: Role }) =>
  answer(api.users.register.$post({ json: body }));

export const getCurrentUser = () => answer(api.users.$get());

/** `password`: chosen with the code when the server asks for one (`requiresPassword`: another browser signed up). */
export const verifyOtp = (email: string, otp: string, password?: string) =>
  answer(api.users['verify-otp'].$post({ json: password === undefined ? { email, otp } : { email, otp, password } }));

export const resendOtp = (email: string) => answer(api.users['resend-otp'].$post({ json: { email } }));

export const uploadProfilePicture = async (file: File, onProgress: (percent: number) => void = () => {}) => {
  const form = new FormData();
  form.append('profilePicture', file);
  // Loaded when used: this module is on the sign-in page, the XHR upload is not.
  const { uploadWithProgress } = await import('../../../lib/upload-progress');
  return uploadWithProgress<PrivateUserJson>('/users/profile-picture', form, onProgress);
};

/** `currentPassword` is left out by an account without one (after confirming with the school account). */
export const changePassword = (userId: string, currentPassword: string | undefined, newPassword: string) =>
  answer(api.users[':id'].password.$patch({ param: { id: userId }, json: { currentPassword, newPassword } }));

export const forgotPassword = (email: string) => answer(api.users['forgot-password'].$post({ json: { email } }));

export const resetPassword = (email: string, otp: string, newPassword: string) =>
  answer(api.users['reset-password'].$post({ json: { email, otp, newPassword } }));

/** Ends this device's session on the server; `endSessionUrl`: the school's provider signs out there too. */
export const logout = () => answer(api.users.logout.$post());

/** Ends every session of the account, this one included. */
export const logoutEverywhere = () => answer(api.users['logout-all'].$post());

/** `password` is left out by an account without one: its proof is the `reauth` cookie of a school confirmation. */
export const deleteAccount = (userId: string, password?: string) =>
  answer(api.users[':id'].$delete({ param: { id: userId }, json: { password } }));

export const changeName = (userId: string, username: string) =>
  answer(api.users[':id'].$patch({ param: { id: userId }, json: { username } }));

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
