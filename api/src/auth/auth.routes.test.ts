import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema, USER_MESSAGES, verifyEmailSchema } from '@receipts/common';
import { UserRepository } from '@receipts/infra';
import { describe, expect, it } from 'vitest';
import { invalid, withRouteApi, ROUTE_TEST_PASSWORD } from '../../../tests/support/route-api.js';
import { until } from '../../../tests/support/until.js';

// /api/auth over HTTP on the real api and database: what each route takes, refuses and answers.
describe('/api/auth routes', () => {
  const api = withRouteApi();

  it('registers an account after answering, whoever asks', async () => {
    const email = `new-${Date.now()}@example.test`;
    const visitor = api.anonymous();
    expect(await visitor.post('/api/auth/register', { email: ` ${email.toUpperCase()} `, password: 'Strong-password-1' })).toEqual(
      expect.objectContaining({ status: 202, body: { message: USER_MESSAGES.accountCreated } }),
    );
    const users = new UserRepository(api.runtime.db);
    await until(() => users.byEmail(email), (row) => row !== null, 'the account of the registration');
    // Nobody is signed in by registering.
    expect((await visitor.get('/api/user/profile')).status).toBe(401);
  });

  it.each([{}, { email: 'nobody', password: 'Strong-password-1' }, { email: 'a@example.test', password: 'short' }])('refuses to register %j', async (body) => {
    expect(await api.anonymous().post('/api/auth/register', body)).toEqual(expect.objectContaining(invalid(registerSchema, body)));
  });

  it('signs in with the password, the address as typed, and out again', async () => {
    const user = await api.signedIn();
    const again = api.anonymous();
    expect(await again.post('/api/auth/login', { email: ` ${user.email!.toUpperCase()}`, password: ROUTE_TEST_PASSWORD })).toMatchObject({
      status: 200,
      body: { message: USER_MESSAGES.welcomeBack, user: { email: user.email } },
    });
    expect((await again.get('/api/user/profile')).status).toBe(200);
    expect(await again.post('/api/auth/logout')).toMatchObject({ status: 200, body: { message: 'Signed out' } });
    expect((await again.get('/api/user/profile')).status).toBe(401);
  });

  it('refuses a wrong password, and a form without one', async () => {
    const user = await api.signedIn();
    expect(await api.anonymous().post('/api/auth/login', { email: user.email, password: 'Wrong-password-1' })).toEqual(
      expect.objectContaining({ status: 401, body: { error: 'INVALID_CREDENTIALS', message: USER_MESSAGES.invalidCredentials } }),
    );
    for (const body of [{}, { email: user.email }]) {
      expect(await api.anonymous().post('/api/auth/login', body)).toEqual(expect.objectContaining(invalid(loginSchema, body)));
    }
  });

  it('confirms an address for the signed-in caller only, with a link of theirs', async () => {
    expect(await api.anonymous().post('/api/auth/verify-email', { token: 'x' })).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
    const user = await api.signedIn('unconfirmed');
    for (const body of [{}, { token: 'x'.repeat(201) }]) {
      expect(await user.post('/api/auth/verify-email', body)).toEqual(expect.objectContaining(invalid(verifyEmailSchema, body)));
    }
    expect(await user.post('/api/auth/verify-email', { token: 'not-a-token-of-ours' })).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'INVALID_TOKEN', message: USER_MESSAGES.invalidConfirmationLink } }),
    );
  });

  it('sends a new confirmation to an unconfirmed address only', async () => {
    expect((await api.anonymous().post('/api/auth/resend-verification')).status).toBe(401);
    expect((await (await api.signedIn('unconfirmed')).post('/api/auth/resend-verification')).status).toBe(200);
    expect(await (await api.signedIn('user')).post('/api/auth/resend-verification')).toMatchObject({
      status: 409,
      body: { error: 'CONFLICT', message: USER_MESSAGES.emailAlreadyConfirmed },
    });
  });

  it('answers a reset request alike whether or not the address has an account', async () => {
    const user = await api.signedIn();
    const known = await api.anonymous().post('/api/auth/forgot-password', { email: user.email });
    const unknown = await api.anonymous().post('/api/auth/forgot-password', { email: 'nobody@example.test' });
    expect(known).toMatchObject({ status: 200 });
    expect(unknown.body).toEqual(known.body);
    expect(await api.anonymous().post('/api/auth/forgot-password', {})).toEqual(expect.objectContaining(invalid(forgotPasswordSchema, {})));
  });

  it('resets a password only with a whole form and a link of ours', async () => {
    for (const body of [{}, { token: 't', password: 'Strong-password-1', confirmPassword: 'Other-password-1' }, { password: 'Strong-password-1', confirmPassword: 'Strong-password-1' }]) {
      expect(await api.anonymous().post('/api/auth/reset-password', body)).toEqual(expect.objectContaining(invalid(resetPasswordSchema, body)));
    }
    expect(await api.anonymous().post('/api/auth/reset-password', { token: 'not-ours', password: 'Strong-password-1', confirmPassword: 'Strong-password-1' })).toEqual(
      expect.objectContaining({ status: 400, body: { error: 'INVALID_TOKEN', message: USER_MESSAGES.invalidResetLink } }),
    );
  });
});
