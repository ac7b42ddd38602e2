import { isAdmin, isEmailVerified, USER_MESSAGES } from '@receipts/common';
import type { Mailer, UploadRepository, UserRepository, UserRow } from '@receipts/infra';
import { linkTokenHash, newLinkToken } from './link-token.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.js';

const RESET_TOKEN_TTL_MS = 3600_000;
const CONFIRMATION_TOKEN_TTL_MS = 24 * 3600_000;

export class InvalidResetTokenError extends Error {}
export class InvalidConfirmationTokenError extends Error {}
export class AlreadyConfirmedError extends Error {}

/**
 * Accounts: creation, address confirmation, credentials, password reset, and taking over an
 * anonymous visitor's uploads. The methods that mail take `links`, what the mail's links start
 * with (linkBase of the request that caused it).
 */
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly uploads: UploadRepository,
    private readonly mailer: Mailer,
    private readonly adminEmails: string[],
  ) {}

  /**
   * Works a registration through (after the registrant has had their answer): a new address
   * gets an unconfirmed account and a confirmation link; an address that has an account gets a
   * mail saying so. Only the mailbox's owner learns which.
   */
  async register(email: string, password: string, links: string): Promise<void> {
    // Hashed for a known address too: the work takes as long either way.
    const passwordHash = await hashPassword(password);
    const user = await this.users.insert({ email, username: email.split('@')[0]!, passwordHash });
    if (user) await this.sendConfirmation(user, links);
    else await this.sendAlreadyRegistered(email, links);
  }

  /** Mails a confirmation link to the account's address (after sign-up, a resend, or a new address). */
  async sendConfirmation(user: UserRow, links: string): Promise<void> {
    const { token, tokenHash } = newLinkToken();
    await this.users.addMailToken('email-verification', { tokenHash, userId: user.id, email: user.email, expiresAt: new Date(Date.now() + CONFIRMATION_TOKEN_TTL_MS) });
    await this.mailer.send({
      to: user.email,
      subject: 'Confirm your e-mail address',
      text: `Welcome to Receipts.\n\nConfirm that this address is yours: open this link and sign in with the password you chose (the link works once, for 24 hours):\n${links}/verify-email?token=${token}\n\n${USER_MESSAGES.unconfirmedAllowance}\n\nIf you did not sign up, ignore this e-mail: without the password chosen at sign-up nobody can confirm the account.`,
    });
  }

  /**
   * Tells an account's (old) address that its password or address was changed: the owner of a
   * mailbox learns at once if someone else did it, and how to take the account back.
   */
  async sendChangeNotice(to: string, change: { kind: 'password' } | { kind: 'email'; newEmail: string }, links: string): Promise<void> {
    const what = change.kind === 'password' ? 'The password of your Receipts account was changed.' : `The e-mail address of your Receipts account was changed to ${change.newEmail}.`;
    await this.mailer.send({
      to,
      subject: change.kind === 'password' ? 'Your password was changed' : 'Your e-mail address was changed',
      text: `${what} Every other session of the account was signed out.\n\nIf it was you, there is nothing to do.\n\nIf it was not you, choose a new password here straight away${change.kind === 'email' ? ' (the link goes to the new address, so write to support if you cannot reach it)' : ''}:\n${links}/forgot-password`,
    });
  }

  private async sendAlreadyRegistered(email: string, links: string): Promise<void> {
    await this.mailer.send({
      to: email,
      subject: 'You already have a Receipts account',
      text: `Someone, hopefully you, tried to sign up for Receipts with this address. It already has an account, so nothing was created or changed.\n\nSign in here:\n${links}/login\n\nForgot your password? Choose a new one here:\n${links}/forgot-password\n\nIf it was not you, ignore this e-mail.`,
    });
  }

  /** A new confirmation link for a signed-in account whose address is not confirmed; older links stop working. */
  async resendConfirmation(user: UserRow, links: string): Promise<void> {
    if (this.isEmailVerified(user)) throw new AlreadyConfirmedError();
    await this.sendConfirmation(user, links);
  }

  /**
   * Confirms the signed-in account's address with a link's token. The token must be that
   * account's: following the link takes the mailbox and the password chosen at sign-up, so no
   * one confirms an address for an account someone else registered with it.
   */
  async confirmEmail(user: UserRow, token: string): Promise<{ user: UserRow; already: boolean }> {
    if (this.isEmailVerified(user)) return { user, already: true };
    if (!(await this.users.confirmEmail(linkTokenHash(token), user.id))) throw new InvalidConfirmationTokenError();
    return { user: (await this.users.byId(user.id)) ?? user, already: false };
  }

  /** The user for these credentials, or null; as slow for an unknown e-mail as for a wrong password. */
  async authenticate(email: string, password: string): Promise<UserRow | null> {
    const user = await this.users.byEmail(email);
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    return user && ok ? user : null;
  }

  async findById(id: string): Promise<UserRow | undefined> {
    return (await this.users.byId(id)) ?? undefined;
  }

  isAdmin(user: UserRow): boolean {
    return isAdmin(user, this.adminEmails);
  }

  isEmailVerified(user: UserRow): boolean {
    return isEmailVerified(user, this.adminEmails);
  }

  /** Notes a sign-in to `user` (as read before it); whether the account had signed in before. */
  async recordSignIn(user: UserRow): Promise<boolean> {
    await this.users.recordSignIn(user.id);
    return user.lastSignedInAt !== null;
  }

  /** Moves an anonymous visitor's uploads to the account they just signed in to. */
  claimAnonymousUploads(anonId: string, userId: string): Promise<number> {
    return this.uploads.claimAnonymous(anonId, userId);
  }

  /**
   * Deletes an account and everything of it in one transaction (users.deleteWithData). Returns
   * the ids of the uploads, whose original files the caller deletes.
   */
  deleteAccount(userId: string): Promise<string[]> {
    return this.users.deleteWithData(userId);
  }

  /** Sends a reset link when the address has an account; the caller answers the same either way. */
  async requestPasswordReset(email: string, links: string): Promise<void> {
    const user = await this.users.byEmail(email);
    if (!user) return;
    const { token, tokenHash } = newLinkToken();
    await this.users.addMailToken('password-reset', { tokenHash, userId: user.id, email: user.email, expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS) });
    const link = `${links}/reset-password?token=${token}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of your Receipts account.\n\nChoose a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
    });
  }

  /**
   * Sets a new password with a valid token, uses the token up and signs the user out everywhere;
   * the address counts as confirmed from then on (the link came by mail).
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const tokenHash = linkTokenHash(token);
    // The token first: a bogus one must not cost a password hash (300 of them slowed every sign-in).
    // Looked up by its SHA-256, so the lookup's timing says nothing about any stored token.
    if (!(await this.users.isResetTokenValid(tokenHash))) throw new InvalidResetTokenError();
    const passwordHash = await hashPassword(password);
    if (!(await this.users.resetPassword(tokenHash, passwordHash))) throw new InvalidResetTokenError();
  }
}
