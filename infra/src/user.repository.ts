import { dailyPeriod, workspaceSubject } from '@receipts/common';
import { and, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { hasSqlState } from './error-chain.js';
import { apiTokens, intakeAddresses, merchantRules, quotaUsage, sessions, subscriptions, uploads, users, webhookEndpoints, workspaceMembers, workspaces, type MailTokenPurpose, type UserRow } from './db/schema.js';
import { createPersonalWorkspace } from './workspace.repository.js';
import { consumeMailToken, expireMailTokens, isMailTokenUsable, issueMailToken, type MailToken } from './mail-token.repository.js';

/** Sessions of one account, found inside express-session's stored JSON. */
const sessionsOf = (userId: string) => sql`${sessions.sess}->>'userId' = ${userId}`;

/** PostgreSQL's unique_violation. */
const isUniqueViolation = (err: unknown): boolean => hasSqlState(err, '23505');

/** The address is proven now, unless it was before. */
const provenAt = (now: Date) => sql`coalesce(${users.emailVerifiedAt}, ${now})`;

/** Accounts: credentials, password reset and address confirmation tokens, roles, and deleting an account with its data. */
export class UserRepository {
  constructor(private readonly db: Database) {}

  /** A new account with its personal workspace, its address not yet confirmed; null when the address already has one. */
  async insert(user: { email: string; username: string; passwordHash: string }): Promise<UserRow | null> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
      if (created) await createPersonalWorkspace(tx, created);
      return created ?? null;
    });
  }

  async byId(id: string): Promise<UserRow | null> {
    const [user] = await this.db.select().from(users).where(eq(users.id, id));
    return user ?? null;
  }

  async byEmail(email: string): Promise<UserRow | null> {
    const [user] = await this.db.select().from(users).where(eq(users.email, email));
    return user ?? null;
  }

  /** Notes that the account signed in now (not a change of the account: `updated_at` stays). */
  async recordSignIn(id: string): Promise<void> {
    await this.db.update(users).set({ lastSignedInAt: sql`now()` }).where(eq(users.id, id));
  }

  /** Sets a user's role; null when there is no such user. */
  async setUserType(id: string, userType: 'admin' | 'user') {
    const [user] = await this.db
      .update(users)
      .set({ userType, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning({ id: users.id, email: users.email, userType: users.userType });
    return user ?? null;
  }

  /** The admin screen's page of users, newest first, with plan, upload counts and quota used. */
  adminPage(search: string | undefined, page: number, pageSize: number, now = new Date()) {
    const filter: SQL | undefined = search ? or(ilike(users.email, `%${search}%`), ilike(users.username, `%${search}%`)) : undefined;
    const today = dailyPeriod(now).key;
    return this.db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        userType: users.userType,
        emailVerifiedAt: users.emailVerifiedAt,
        createdBeforeVerification: users.createdBeforeVerification,
        createdAt: users.createdAt,
        plan: subscriptions.planId,
        status: subscriptions.status,
        uploads: sql<number>`(SELECT count(*)::int FROM ${uploads} WHERE ${uploads.userId} = ${users.id})`,
        failed: sql<number>`(SELECT count(*)::int FROM ${uploads} WHERE ${uploads.userId} = ${users.id} AND ${uploads.status} = 'failed')`,
        usedToday: sql<number>`coalesce((SELECT ${quotaUsage.used} FROM ${quotaUsage} WHERE ${quotaUsage.subject} = 'user:' || ${users.id} AND ${quotaUsage.period} = ${today}), 0)`,
        // The plan of the account's own workspace (whose id is the account's), counted under that workspace.
        usedThisPeriod: sql<number>`coalesce((SELECT ${quotaUsage.used} FROM ${quotaUsage} WHERE ${quotaUsage.subject} = 'workspace:' || ${users.id} AND ${quotaUsage.period} = 'month:' || to_char(${subscriptions.currentPeriodStart} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), 0)`,
      })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.workspaceId, users.id))
      .where(filter)
      .orderBy(desc(users.createdAt))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  }

  /**
   * Deletes an account and everything of it in one transaction: the workspaces it owns with their
   * uploads, receipts and history, subscription and invoices (by cascade), sessions and quota
   * counters. What it uploaded into others' workspaces stays theirs. Returns the ids of the
   * deleted uploads, whose original files the caller deletes.
   */
  async deleteWithData(userId: string): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const ownedWorkspaces = tx.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, 'owner')));
      const owned = await tx.select({ id: uploads.id }).from(uploads).where(inArray(uploads.workspaceId, ownedWorkspaces));
      const gone = await tx.delete(workspaces).where(inArray(workspaces.id, ownedWorkspaces)).returning({ id: workspaces.id });
      await tx.delete(users).where(eq(users.id, userId));
      await tx.delete(sessions).where(sessionsOf(userId));
      await tx.delete(quotaUsage).where(or(eq(quotaUsage.subject, `user:${userId}`), inArray(quotaUsage.subject, gone.map((w) => workspaceSubject(w.id))))!);
      return owned.map((u) => u.id);
    });
  }

  /**
   * Sets a new password and signs the account out everywhere but the session `keepSid` (the one
   * that asked), in one transaction. Unused reset links die with the old password.
   */
  async changePassword(userId: string, passwordHash: string, keepSid: string, now = new Date()): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await tx.delete(sessions).where(and(sessionsOf(userId), ne(sessions.sid, keepSid)));
      await expireMailTokens(tx, userId, 'password-reset');
    });
  }

  /**
   * Moves the account to another e-mail address; false when that address has an account (the
   * unique index decides, so two accounts asking at once cannot both get it). In the same
   * transaction: reset and confirmation links sent to the old address stop working, and every
   * session but `keepSid` (the one that asked) is signed out; the account needs the new address
   * confirmed.
   */
  async changeEmail(userId: string, email: string, keepSid: string, now = new Date()): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
        if (taken) return false;
        // The new address is not proven yet: the account is unconfirmed until a link to it is followed
        // (an admin address gives no rights before that).
        await tx.update(users).set({ email, emailVerifiedAt: null, createdBeforeVerification: false, updatedAt: now }).where(eq(users.id, userId));
        await expireMailTokens(tx, userId);
        await tx.delete(sessions).where(and(sessionsOf(userId), ne(sessions.sid, keepSid)));
        return true;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** A new mailed link of `purpose`; every older unused one of the account for that purpose stops working (only the newest mail counts). */
  async addMailToken(purpose: MailTokenPurpose, token: MailToken): Promise<void> {
    await this.db.transaction((tx) => issueMailToken(tx, purpose, token));
  }

  /** Whether a reset token is unused and unexpired: checked before the costly password hashing. */
  isResetTokenValid(tokenHash: string, now = new Date()): Promise<boolean> {
    return isMailTokenUsable(this.db, 'password-reset', tokenHash, now);
  }

  /**
   * Uses up a valid reset token (unused, not expired), sets the new password and signs the user
   * out everywhere, in one transaction; false when the token is not valid. An account whose
   * address was not yet proven loses its intake address, learned rules and DATEV settings: the
   * reset proves the mailbox, and whoever set those up before may not have been its owner.
   */
  async resetPassword(tokenHash: string, passwordHash: string, now = new Date()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const userId = await consumeMailToken(tx, 'password-reset', tokenHash, now);
      if (!userId) return false;
      const [before] = await tx
        .select({ emailVerifiedAt: users.emailVerifiedAt, createdBeforeVerification: users.createdBeforeVerification })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (before && !before.emailVerifiedAt && !before.createdBeforeVerification) {
        // The mailbox's owner takes back an account someone registered with their address: what that
        // someone set up (a way to mail receipts in, rules that rename and file them, the DATEV
        // accounts, endpoints the receipts' events are sent to) goes, so none of it works for them or against the owner.
        await tx.delete(intakeAddresses).where(eq(intakeAddresses.userId, userId));
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
        // An unconfirmed account has only its personal workspace: invitations need a confirmed address.
        await tx.delete(merchantRules).where(eq(merchantRules.workspaceId, userId));
        await tx.update(workspaces).set({ datevSettings: null }).where(eq(workspaces.personalOf, userId));
      }
      // Every other link sent to the account dies with this reset, confirmation links too.
      await expireMailTokens(tx, userId);
      // The link came by mail and whoever followed it now holds the password: the address is proven.
      await tx.update(users).set({ passwordHash, emailVerifiedAt: provenAt(now), updatedAt: now }).where(eq(users.id, userId));
      await tx.delete(sessions).where(sessionsOf(userId));
      // Signed out everywhere means scripts too: whoever had the account may have left a token behind.
      await tx.update(apiTokens).set({ revokedAt: now }).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
      return true;
    });
  }

  /**
   * Uses up a valid confirmation token of `userId` and marks the address proven, in one
   * transaction; false when the token is not valid for that account (unknown, used, expired,
   * another account's) or was mailed to another address than the account's now. The account's
   * row is locked first, so an address change cannot commit between the comparison and the
   * confirmation: a link confirms only the mailbox it reached.
   */
  async confirmEmail(tokenHash: string, userId: string, now = new Date()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
      if (!user) return false;
      if (!(await consumeMailToken(tx, 'email-verification', tokenHash, now, { userId, email: user.email }))) return false;
      await expireMailTokens(tx, userId, 'email-verification');
      await tx.update(users).set({ emailVerifiedAt: provenAt(now), updatedAt: now }).where(eq(users.id, userId));
      return true;
    });
  }
}
