import type { AccountFacts, IntakeRefusal, WorkspaceRole } from '@receipts/common';
import { and, eq } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { intakeAddresses, intakeMessages, users, workspaceMembers } from './db/schema.js';

/** E-mail intake: each account's intake token, and the messages already received (each processed once). */
export class IntakeRepository {
  constructor(private readonly db: Database) {}

  async tokenOf(userId: string, workspaceId: string): Promise<string | null> {
    const [row] = await this.db.select({ token: intakeAddresses.token }).from(intakeAddresses).where(and(eq(intakeAddresses.userId, userId), eq(intakeAddresses.workspaceId, workspaceId)));
    return row?.token ?? null;
  }

  /**
   * The member a token belongs to, with the workspace its mail goes to and what decides the
   * account's standing; null for a token never issued, since replaced or turned off, or of
   * someone no longer in the workspace.
   */
  async accountOf(token: string): Promise<(AccountFacts & { userId: string; workspaceId: string; role: WorkspaceRole }) | null> {
    const [row] = await this.db
      .select({
        userId: users.id,
        workspaceId: workspaceMembers.workspaceId,
        role: workspaceMembers.role,
        email: users.email,
        userType: users.userType,
        emailVerifiedAt: users.emailVerifiedAt,
        createdBeforeVerification: users.createdBeforeVerification,
      })
      .from(intakeAddresses)
      .innerJoin(users, eq(users.id, intakeAddresses.userId))
      .innerJoin(workspaceMembers, and(eq(workspaceMembers.userId, intakeAddresses.userId), eq(workspaceMembers.workspaceId, intakeAddresses.workspaceId)))
      .where(eq(intakeAddresses.token, token));
    return row ?? null;
  }

  /** Gives the member this token into the workspace, replacing any earlier one (which stops working at once). */
  async replace(userId: string, workspaceId: string, token: string): Promise<void> {
    await this.db
      .insert(intakeAddresses)
      .values({ userId, workspaceId, token })
      .onConflictDoUpdate({ target: [intakeAddresses.userId, intakeAddresses.workspaceId], set: { token, createdAt: new Date() } });
  }

  async revoke(userId: string, workspaceId: string): Promise<void> {
    await this.db.delete(intakeAddresses).where(and(eq(intakeAddresses.userId, userId), eq(intakeAddresses.workspaceId, workspaceId)));
  }

  /** Records that the account received this message; false when it had already. */
  async claimMessage(userId: string, messageKey: string): Promise<boolean> {
    const claimed = await this.db.insert(intakeMessages).values({ userId, messageKey }).onConflictDoNothing().returning({ userId: intakeMessages.userId });
    return claimed.length > 0;
  }

  /** What the message became. */
  async recordMessage(userId: string, messageKey: string, outcome: { uploads: number; refusals: Array<{ part: string; refusal: IntakeRefusal }> }): Promise<void> {
    await this.db
      .update(intakeMessages)
      .set(outcome)
      .where(and(eq(intakeMessages.userId, userId), eq(intakeMessages.messageKey, messageKey)));
  }

  /** Forgets a claim whose uploads could not be written, so the message is taken when it comes again. */
  async releaseMessage(userId: string, messageKey: string): Promise<void> {
    await this.db.delete(intakeMessages).where(and(eq(intakeMessages.userId, userId), eq(intakeMessages.messageKey, messageKey)));
  }
}
