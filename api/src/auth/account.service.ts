import { createHash, randomBytes } from 'node:crypto';
import { schema, type Database, type Mailer, type UserRow } from '@receipts/infra';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { DUMMY_HASH, hashPassword, verifyPassword } from './password.js';

const { users, uploads, passwordResetTokens, sessions, quotaUsage } = schema;

const RESET_TOKEN_TTL_MS = 3600_000;

export class EmailTakenError extends Error {}
export class InvalidResetTokenError extends Error {}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Accounts: creation, credentials, password reset, and taking over an anonymous visitor's uploads. */
export class AccountService {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly adminEmails: string[],
  ) {}

  async register(email: string, password: string): Promise<UserRow> {
    const passwordHash = await hashPassword(password);
    const [user] = await this.db
      .insert(users)
      .values({ email, username: email.split('@')[0]!, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) throw new EmailTakenError();
    return user;
  }

  /** The user for these credentials, or null; as slow for an unknown e-mail as for a wrong password. */
  async authenticate(email: string, password: string): Promise<UserRow | null> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    return user && ok ? user : null;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.select().from(users).where(eq(users.id, id)).then(([u]) => u);
  }

  isAdmin(user: UserRow): boolean {
    return user.userType === 'admin' || this.adminEmails.includes(user.email);
  }

  /** Moves an anonymous visitor's uploads to the account they just signed in to. */
  async claimAnonymousUploads(anonId: string, userId: string): Promise<number> {
    const moved = await this.db
      .update(uploads)
      .set({ userId, anonId: null, updatedAt: new Date() })
      .where(and(eq(uploads.anonId, anonId), isNull(uploads.userId)))
      .returning({ id: uploads.id });
    return moved.length;
  }

  /**
   * Deletes an account and everything of it in one transaction: uploads, receipts and their
   * history, subscription and invoices (by cascade), sessions and quota counters. Returns the
   * ids of the uploads, whose original files the caller deletes.
   */
  async deleteAccount(userId: string): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const owned = await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, userId));
      await tx.delete(users).where(eq(users.id, userId));
      await tx.delete(sessions).where(sql`${sessions.sess}->>'userId' = ${userId}`);
      await tx.delete(quotaUsage).where(eq(quotaUsage.subject, `user:${userId}`));
      return owned.map((u) => u.id);
    });
  }

  /** Sends a reset link when the address has an account; the caller answers the same either way. */
  async requestPasswordReset(email: string): Promise<void> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.db.insert(passwordResetTokens).values({
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const link = `${this.publicUrl}/reset-password?token=${token}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of your Receipts account.\n\nChoose a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
    });
  }

  /** Sets a new password with a valid token, uses the token up and signs the user out everywhere. */
  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const [used] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(token)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date()),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (!used) throw new InvalidResetTokenError();
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, used.userId));
      await tx.delete(sessions).where(sql`${sessions.sess}->>'userId' = ${used.userId}`);
    });
  }
}
