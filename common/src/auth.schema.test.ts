import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, loginSchema, registerFormSchema, registerSchema, resetPasswordSchema } from './auth.schema.js';

const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) => r.error?.issues[0]?.message;

describe('auth schemas', () => {
  it.each([
    [{ email: 'nope', password: 'secret1' }, AUTH_MESSAGES.invalidEmail],
    [{ email: 'a@b.co', password: '12345' }, AUTH_MESSAGES.passwordTooShort],
  ])('login %j → %s', (input, message) => {
    expect(firstMessage(loginSchema.safeParse(input))).toBe(message);
  });

  it('lower-cases and trims the e-mail', () => {
    expect(loginSchema.parse({ email: '  Ann@Example.COM ', password: 'whatever' }).email).toBe('ann@example.com');
  });

  it.each([
    ['Ab1', AUTH_MESSAGES.passwordTooShort],
    ['abcdef1', AUTH_MESSAGES.passwordTooWeak],
    ['ABCDEF1', AUTH_MESSAGES.passwordTooWeak],
    ['Abcdefg', AUTH_MESSAGES.passwordTooWeak],
  ])('register password %s → %s', (password, message) => {
    expect(firstMessage(registerSchema.safeParse({ email: 'a@b.co', password }))).toBe(message);
  });

  it('accepts a strong password', () => {
    expect(registerSchema.safeParse({ email: 'a@b.co', password: 'Abcdef1' }).success).toBe(true);
  });

  it('puts a mismatch on the confirmation field', () => {
    const result = registerFormSchema.safeParse({ email: 'a@b.co', password: 'Abcdef1', confirmPassword: 'Abcdef2' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['confirmPassword'], message: AUTH_MESSAGES.passwordsDontMatch });
  });

  it('needs a reset token', () => {
    expect(firstMessage(resetPasswordSchema.safeParse({ password: 'Abcdef1', confirmPassword: 'Abcdef1' }))).toBe(
      AUTH_MESSAGES.tokenMissing,
    );
    expect(firstMessage(resetPasswordSchema.safeParse({ password: 'Abcdef1', confirmPassword: 'Abcdef1', token: '' }))).toBe(
      AUTH_MESSAGES.tokenMissing,
    );
  });
});
