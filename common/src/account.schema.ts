import { z } from 'zod';
import { AUTH_MESSAGES, strongPasswordSchema } from './auth.schema.js';

/** Messages of the account page, said by the api and shown by the web. */
export const ACCOUNT_MESSAGES = {
  currentPasswordRequired: 'Enter your current password.',
  wrongPassword: 'The current password is not correct.',
  passwordChanged: 'Your password has been changed. Other devices have been signed out.',
  emailTaken: 'That e-mail address cannot be used. Choose another one.',
  emailUnchanged: 'That is already your e-mail address.',
  emailChanged: 'Your e-mail address has been changed. Follow the link we sent to it to confirm it.',
} as const;

const currentPassword = z.string({ message: ACCOUNT_MESSAGES.currentPasswordRequired }).min(1, ACCOUNT_MESSAGES.currentPasswordRequired);

/** POST /api/user/password: the current password, then the new one twice (the register rules). */
export const changePasswordSchema = z
  .object({ currentPassword, password: strongPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** POST /api/user/email: the new address and the current password. */
export const changeEmailSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email(AUTH_MESSAGES.invalidEmail)),
  currentPassword,
});
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;
