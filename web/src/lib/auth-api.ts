import type { forgotPasswordSchema, LoginInput, MessageAnswer, ProfileAnswer, RegisterInput, resetPasswordSchema } from '@receipts/common';
import type { z } from 'zod';
import { apiPost } from './api.js';

/** `message`: the welcome, which the server words by whether the account signed in before. */
export const login = (input: LoginInput) => apiPost<ProfileAnswer>('/api/auth/login', input);
export const register = (input: RegisterInput) => apiPost('/api/auth/register', input);
export const forgotPassword = (input: z.infer<typeof forgotPasswordSchema>) => apiPost('/api/auth/forgot-password', input);
export const signOut = () => apiPost('/api/auth/logout');
export const resetPassword = (input: z.infer<typeof resetPasswordSchema>) => apiPost('/api/auth/reset-password', input);
export const verifyEmail = (token: string) => apiPost<ProfileAnswer>('/api/auth/verify-email', { token });
export const resendVerification = () => apiPost<MessageAnswer>('/api/auth/resend-verification');
