import {
  confirmationSentMessage,
  forgotPasswordSchema,
  loginSchema,
  messageAnswerSchema,
  profileAnswerSchema,
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
import { route } from '../route-spec.js';
import { regenerateSignedIn } from '../session.js';
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
  router.post(
    '/register',
    route({
      summary: 'Create an account',
      description: 'Answers alike, and after the same time, whether or not the address has an account: the mail sent to it says which. Nobody is signed in by it.',
      tag: 'auth',
      scope: null,
      caller: 'anyone',
      body: registerSchema,
      answers: { 202: messageAnswerSchema },
      errors: { 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { email, password } = req.body;
      const base = links(req);
      afterAnswer(email, 'registration', () => accounts.register(email, password, base));
      res.status(202).json({ message: USER_MESSAGES.accountCreated });
    },
  );

  router.post(
    '/verify-email',
    route({
      summary: 'Confirm the signed-in account’s e-mail address',
      description: 'With the token of the confirmation mail’s link, which must be this account’s.',
      tag: 'auth',
      scope: null,
      caller: 'account',
      receive: [signedIn],
      body: verifyEmailSchema,
      answers: { 200: profileAnswerSchema },
      errors: { 400: ['INVALID_TOKEN'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { token } = req.body;
      try {
        const { user, already } = await accounts.confirmEmail(req.user!, token);
        res.json({ message: already ? USER_MESSAGES.emailAlreadyConfirmed : USER_MESSAGES.emailConfirmed, user: await profiles.profile(user) });
      } catch (err) {
        if (err instanceof InvalidConfirmationTokenError) throw new HttpError(400, 'INVALID_TOKEN', USER_MESSAGES.invalidConfirmationLink);
        throw err;
      }
    },
  );

  router.post(
    '/resend-verification',
    route({
      summary: 'Send a new confirmation link',
      description: 'To the signed-in account’s address while it is not confirmed; older links stop working.',
      tag: 'auth',
      scope: null,
      caller: 'account',
      answers: { 200: messageAnswerSchema },
      errors: { 409: ['CONFLICT'], 429: ['RATE_LIMITED'] },
    }),
    signedIn,
    async (req, res) => {
      try {
        await accounts.resendConfirmation(req.user!, links(req));
      } catch (err) {
        if (err instanceof AlreadyConfirmedError) throw new HttpError(409, 'CONFLICT', USER_MESSAGES.emailAlreadyConfirmed);
        throw err;
      }
      res.json({ message: confirmationSentMessage(req.user!.email) });
    },
  );

  // Passport reads the parsed body (the address trimmed and lower-cased) that validate leaves in req.body.
  router.post(
    '/login',
    route({
      summary: 'Sign in',
      description: 'Starts a session (its cookie); the anonymous visitor’s uploads move to the account.',
      tag: 'auth',
      scope: null,
      caller: 'anyone',
      body: loginSchema,
      answers: { 200: profileAnswerSchema },
      errors: { 401: ['INVALID_CREDENTIALS'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
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
    },
  );

  router.post(
    '/logout',
    route({ summary: 'Sign out', description: 'Ends the session, signed in or not.', tag: 'auth', scope: null, caller: 'anyone', answers: { 200: messageAnswerSchema } }),
    async (req, res) => {
      await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
      res.clearCookie('rsid');
      res.json({ message: 'Signed out' });
    },
  );

  router.post(
    '/forgot-password',
    route({
      summary: 'Ask for a password reset link',
      description: 'Answers alike, and after the same time, whether or not the address has an account.',
      tag: 'auth',
      scope: null,
      caller: 'anyone',
      body: forgotPasswordSchema,
      answers: { 200: messageAnswerSchema },
      errors: { 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
      const { email } = req.body;
      const base = links(req);
      afterAnswer(email, 'password reset mail', () => accounts.requestPasswordReset(email, base));
      res.json({ message: 'If an account exists for that e-mail, a link to reset its password is on its way.' });
    },
  );

  router.post(
    '/reset-password',
    route({
      summary: 'Choose a new password with a reset link',
      tag: 'auth',
      scope: null,
      caller: 'anyone',
      body: resetPasswordSchema,
      answers: { 200: messageAnswerSchema },
      errors: { 400: ['INVALID_TOKEN'], 429: ['RATE_LIMITED'] },
    }),
    async (req, res) => {
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
    },
  );

  return router;
}
