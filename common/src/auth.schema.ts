import { z } from 'zod';

/** The spec §5 form messages, character for character. */
export const AUTH_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooWeak: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordsDontMatch: "Passwords don't match",
  tokenMissing: 'Password reset token is missing',
} as const;

export const PASSWORD_MIN_LENGTH = 6;

// Trimmed and lower-cased as normalizeEmail does (account-standing.rule.ts), then checked.
/** An e-mail address as accounts store it: trimmed and lower-cased, then checked. */
export const emailAddressSchema = z.string().trim().toLowerCase().pipe(z.email(AUTH_MESSAGES.invalidEmail));
const email = emailAddressSchema;
const loginPassword = z.string().min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort);
/** Register and reset: six or more characters with an upper-case letter, a lower-case letter and a digit. */
export const strongPasswordSchema = loginPassword
  .max(200, 'Password must be at most 200 characters')
  .regex(/[A-Z]/, AUTH_MESSAGES.passwordTooWeak)
  .regex(/[a-z]/, AUTH_MESSAGES.passwordTooWeak)
  .regex(/\d/, AUTH_MESSAGES.passwordTooWeak);

export const loginSchema = z.object({ email, password: loginPassword });
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({ email, password: strongPasswordSchema });
export type RegisterInput = z.infer<typeof registerSchema>;

/** The register form also confirms the password; the confirmation is not sent. */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    password: strongPasswordSchema,
    confirmPassword: z.string(),
    token: z.string({ error: AUTH_MESSAGES.tokenMissing }).min(1, AUTH_MESSAGES.tokenMissing),
  })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });

/** The token of a confirmation link (POST /api/auth/verify-email). */
export const verifyEmailSchema = z.object({
  token: z.string({ error: 'The confirmation link has no token.' }).min(1, 'The confirmation link has no token.').max(200, 'The confirmation link is not one of ours.'),
});
