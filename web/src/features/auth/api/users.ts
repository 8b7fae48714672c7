import { answer, api } from '@api/client';
import type { Role } from '@contract/users';

export type { PrivateUserJson as User, Role, SignInJson as LoginAnswer } from '@contract/users';

export const login = (email: string, password: string) => answer(api.users.login.$post({ json: { email, password } }));

export const register = (body: { username: string; email: string; password: string; role: Role }) =>
  answer(api.users.register.$post({ json: body }));

/** `chosen`: the password, name and role sent with the code when the server asks (`requiresPassword`). */
export const verifyOtp = (email: string, otp: string, chosen?: { password: string; username: string; role: Role }) =>
  answer(api.users['verify-otp'].$post({ json: { email, otp, ...chosen } }));

export const resendOtp = (email: string) => answer(api.users['resend-otp'].$post({ json: { email } }));

export const forgotPassword = (email: string) => answer(api.users['forgot-password'].$post({ json: { email } }));

export const resetPassword = (email: string, otp: string, newPassword: string) =>
  answer(api.users['reset-password'].$post({ json: { email, otp, newPassword } }));

/** Ends this device's session on the server; `endSessionUrl`: the school's provider signs out there too. */
export const logout = () => answer(api.users.logout.$post());
