import {
  confirmationSentMessage,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  USER_MESSAGES,
  verifyEmailSchema,
} from '@receipts/common';
import type { Logger, UserRepository, UserRow } from '@receipts/infra';
import { Router, type Request } from 'express';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { HttpError } from '../http-error.js';
import { clientNetwork } from '../client-network.js';
import { currentUser } from '../owner.middleware.js';
import { tooManyAttempts } from '../security.js';
import { regenerateSignedIn } from '../session.js';
import { validate } from '../validate.middleware.js';
import { AccountService, AlreadyConfirmedError, InvalidConfirmationTokenError, InvalidResetTokenError } from './account.service.js';
import type { ProfileService } from './profile.service.js';
import type { KnownDevices, SignInLimiter } from './sign-in.limiter.js';

const invalidCredentials = () => new HttpError(401, 'INVALID_CREDENTIALS', USER_MESSAGES.invalidCredentials);

/**
 * Signs `user` in: a new session id (no fixation), the user id in it, and the anonymous
 * visitor's uploads moved to the account.
 */
async function signIn(req: Request, accounts: AccountService, user: UserRow): Promise<void> {
  const { anonId } = req.owner;
  await regenerateSignedIn(req);
  req.session.userId = user.id;
  if (anonId) await accounts.claimAnonymousUploads(anonId, user.id);
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export interface SignInGuards {
  limiter: SignInLimiter;
  devices: KnownDevices;
}

/** `links`: what links in the mails a request causes start with (linkBase). */
export function authRoutes(
  accounts: AccountService,
  profiles: ProfileService,
  users: UserRepository,
  log: Logger,
  signIns: SignInGuards,
  links: (req: Request) => string,
): Router {
  const router = Router();
  const signedIn = currentUser(users);
  const strategy = new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (email, password, done) => {
    accounts.authenticate(email, password).then((user) => done(null, user ?? false), done);
  });
  const verify = (req: Request) =>
    new Promise<UserRow | null>((resolve, reject) => {
      passport.authenticate(strategy, { session: false }, (err: unknown, user: UserRow | false) =>
        err ? reject(err) : resolve(user || null),
      )(req, req.res!, reject);
    });

  // Requests that look an address up (register, forgot-password) are worked through after the
  // answer, so the answer is the same, and takes the same time, whether or not the address has an
  // account. Those for one address run one at a time in the order asked (a newer link must come
  // after an older one); those for different addresses do not wait for each other, so how long
  // one address's work takes never shows in when another's mail arrives.
  const addressWork = new Map<string, Promise<void>>();
  const afterAnswer = (email: string, what: string, work: () => Promise<void>) => {
    const done = (addressWork.get(email) ?? Promise.resolve()).then(() => work().catch((err: unknown) => log.error({ err }, `${what} failed`)));
    addressWork.set(email, done);
    void done.then(() => {
      if (addressWork.get(email) === done) addressWork.delete(email);
    });
  };

  // Nobody is signed in here: a session for a new account, and none for a known address, would
  // tell on the next request what the answer does not. The new account signs in by /login.
  router.post('/register', validate({ body: registerSchema }), async (req, res) => {
    const { email, password } = req.body;
    const base = links(req);
    afterAnswer(email, 'registration', () => accounts.register(email, password, base));
    res.status(202).json({ message: USER_MESSAGES.accountCreated });
  });

  router.post('/verify-email', signedIn, validate({ body: verifyEmailSchema }), async (req, res) => {
    const { token } = req.body;
    try {
      const { user, already } = await accounts.confirmEmail(req.user!, token);
      res.json({ message: already ? USER_MESSAGES.emailAlreadyConfirmed : USER_MESSAGES.emailConfirmed, user: await profiles.profile(user) });
    } catch (err) {
      if (err instanceof InvalidConfirmationTokenError) throw new HttpError(400, 'INVALID_TOKEN', USER_MESSAGES.invalidConfirmationLink);
      throw err;
    }
  });

  router.post('/resend-verification', signedIn, async (req, res) => {
    try {
      await accounts.resendConfirmation(req.user!, links(req));
    } catch (err) {
      if (err instanceof AlreadyConfirmedError) throw new HttpError(409, 'CONFLICT', USER_MESSAGES.emailAlreadyConfirmed);
      throw err;
    }
    res.json({ message: confirmationSentMessage(req.user!.email) });
  });

  // Passport reads the parsed body (the address trimmed and lower-cased) that validate leaves in req.body.
  router.post('/login', validate({ body: loginSchema }), async (req, res) => {
    const { email } = req.body;
    const device = signIns.devices.recognize(req.headers.cookie, email);
    const admission = await signIns.limiter.admit({ source: clientNetwork(req.ip ?? 'unknown'), email, device });
    if (!admission.admitted) throw tooManyAttempts(res, admission.retryAfterMs);
    const user = await verify(req);
    await admission.settle(user !== null);
    if (!user) throw invalidCredentials();
    await signIn(req, accounts, user);
    signIns.devices.remember(res, email, device);
    const returning = await accounts.recordSignIn(user);
    res.json({ message: returning ? USER_MESSAGES.welcomeBack : USER_MESSAGES.welcome, user: await profiles.profile(user) });
  });

  router.post('/logout', async (req, res) => {
    await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    res.clearCookie('rsid');
    res.json({ message: 'Signed out' });
  });

  router.post('/forgot-password', validate({ body: forgotPasswordSchema }), async (req, res) => {
    const { email } = req.body;
    const base = links(req);
    afterAnswer(email, 'password reset mail', () => accounts.requestPasswordReset(email, base));
    res.json({ message: 'If an account exists for that e-mail, a link to reset its password is on its way.' });
  });

  router.post('/reset-password', validate({ body: resetPasswordSchema }), async (req, res) => {
    const { token, password } = req.body;
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
