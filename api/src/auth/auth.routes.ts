import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  USER_MESSAGES,
} from '@receipts/common';
import type { Logger, UserRow } from '@receipts/infra';
import { Router, type Request } from 'express';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { HttpError, parseBody } from '../http-error.js';
import { AccountService, EmailTakenError, InvalidResetTokenError } from './account.service.js';
import type { ProfileService } from './profile.service.js';

const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', USER_MESSAGES.invalidCredentials);

/**
 * Signs `user` in: a new session id (no fixation), the user id in it, and the anonymous
 * visitor's uploads moved to the account.
 */
async function signIn(req: Request, accounts: AccountService, user: UserRow): Promise<void> {
  const { anonId } = req.owner;
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.userId = user.id;
  if (anonId) await accounts.claimAnonymousUploads(anonId, user.id);
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function authRoutes(accounts: AccountService, profiles: ProfileService, log: Logger): Router {
  const router = Router();
  const strategy = new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
    accounts.authenticate(email, password).then((user) => done(null, user ?? false), done);
  });
  const verify = (req: Request) =>
    new Promise<UserRow | null>((resolve, reject) => {
      passport.authenticate(strategy, { session: false }, (err: unknown, user: UserRow | false) =>
        err ? reject(err) : resolve(user || null),
      )(req, req.res!, reject);
    });

  router.post('/register', async (req, res) => {
    const { email, password } = parseBody(registerSchema, req.body);
    let user: UserRow;
    try {
      user = await accounts.register(email, password);
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      // Someone re-registering with their own password is simply signed in; anything else gets
      // an answer that does not say the address has an account.
      const existing = await accounts.authenticate(email, password);
      if (!existing) {
        throw new HttpError(400, 'REGISTRATION_FAILED', 'Failed to create account. Please try again.');
      }
      user = existing;
    }
    await signIn(req, accounts, user);
    res.status(201).json({ message: 'Account created successfully!', user: await profiles.profile(user) });
  });

  router.post('/login', async (req, res) => {
    req.body = parseBody(loginSchema, req.body);
    const user = await verify(req);
    if (!user) throw invalidCredentials();
    await signIn(req, accounts, user);
    res.json({ message: 'Welcome back!', user: await profiles.profile(user) });
  });

  router.post('/logout', async (req, res) => {
    await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    res.clearCookie('rsid');
    res.json({ message: 'Signed out' });
  });

  // Reset requests are worked through after the answer, one at a time in the order asked (a newer
  // link must come after an older one): the answer takes the same time whether or not the address
  // has an account, so its timing tells nobody which addresses do.
  let resetRequests = Promise.resolve();
  router.post('/forgot-password', async (req, res) => {
    const { email } = parseBody(forgotPasswordSchema, req.body);
    resetRequests = resetRequests.then(() => accounts.requestPasswordReset(email).catch((err: unknown) => log.error({ err }, 'password reset mail failed')));
    res.json({ message: 'If an account exists for that e-mail, a link to reset its password is on its way.' });
  });

  router.post('/reset-password', async (req, res) => {
    const { token, password } = parseBody(resetPasswordSchema, req.body);
    try {
      await accounts.resetPassword(token, password);
    } catch (err) {
      if (err instanceof InvalidResetTokenError) {
        throw new HttpError(400, 'INVALID_TOKEN', USER_MESSAGES.invalidResetLink);
      }
      throw err;
    }
    res.json({ message: USER_MESSAGES.passwordResetSuccessful });
  });

  return router;
}
