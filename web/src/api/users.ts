import { request, uploadWithProgress } from './client';

export type Role = 'teacher' | 'student';

export type User = {
  _id: string;
  username: string;
  email: string;
  role: Role;
  profilePictureImageLink: string;
  isVerified: boolean;
  createdAt: string;
};

export type LoginAnswer = { token: string; user: User; message: string };

export const login = (email: string, password: string) =>
  request<LoginAnswer>('POST', '/users/login', { body: { email, password } });

export const register = (body: { username: string; email: string; password: string; role: Role }) =>
  request<{ requiresVerification?: boolean; message: string }>('POST', '/users/register', { body });

export const getCurrentUser = () => request<User>('GET', '/users');

export const verifyOtp = (email: string, otp: string) =>
  request<{ token: string; user: User; message: string }>('POST', '/users/verify-otp', { body: { email, otp } });

export const resendOtp = (email: string) =>
  request<{ message: string }>('POST', '/users/resend-otp', { body: { email } });

export const uploadProfilePicture = (file: File, onProgress: (percent: number) => void = () => {}) => {
  const form = new FormData();
  form.append('profilePicture', file);
  return uploadWithProgress<User>('/users/profile-picture', form, onProgress);
};

export const changePassword = (userId: string, currentPassword: string, newPassword: string) =>
  request<{ message: string; token: string }>('PATCH', `/users/${userId}/password`, {
    body: { currentPassword, newPassword },
  });

export const changeName = (userId: string, username: string) =>
  request<User>('PATCH', `/users/${userId}`, { body: { username } });
