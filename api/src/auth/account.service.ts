import { createHash, randomBytes } from 'node:crypto';
import type { Mailer, UploadRepository, UserRepository, UserRow } from '@receipts/infra';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.js';

const RESET_TOKEN_TTL_MS = 3600_000;

export class EmailTakenError extends Error {}
export class InvalidResetTokenError extends Error {}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Accounts: creation, credentials, password reset, and taking over an anonymous visitor's uploads. */
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly uploads: UploadRepository,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly adminEmails: string[],
  ) {}

  async register(email: string, password: string): Promise<UserRow> {
    const passwordHash = await hashPassword(password);
    const user = await this.users.insert({ email, username: email.split('@')[0]!, passwordHash });
    if (!user) throw new EmailTakenError();
    return user;
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
    return user.userType === 'admin' || this.adminEmails.includes(user.email);
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
  async requestPasswordReset(email: string): Promise<void> {
    const user = await this.users.byEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.users.addResetToken({ tokenHash: sha256(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS) });
    const link = `${this.publicUrl}/reset-password?token=${token}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of your Receipts account.\n\nChoose a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
    });
  }

  /** Sets a new password with a valid token, uses the token up and signs the user out everywhere. */
  async resetPassword(token: string, password: string): Promise<void> {
    const tokenHash = sha256(token);
    // The token first: a bogus one must not cost a password hash (300 of them slowed every sign-in).
    // Looked up by its SHA-256, so the lookup's timing says nothing about any stored token.
    if (!(await this.users.isResetTokenValid(tokenHash))) throw new InvalidResetTokenError();
    const passwordHash = await hashPassword(password);
    if (!(await this.users.resetPassword(tokenHash, passwordHash))) throw new InvalidResetTokenError();
  }
}
