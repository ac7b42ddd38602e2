import { MEMBERSHIP_MESSAGES } from '@receipts/common';
import type { UserRow, WorkspaceRepository } from '@receipts/infra';
import type { AccountService } from '../auth/account.service.js';
import type { BillingService } from '../billing/billing.service.js';
import { HttpError } from '../http-error.js';
import type { IdempotencyService } from '../idempotency.service.js';
import type { UploadService } from '../uploads/upload.service.js';

/** Deleting an account: its Stripe customer, its running jobs, its rows, then its original files (and the exports its Idempotency-Keys kept). */
export class AccountDeletionService {
  constructor(
    private readonly accounts: AccountService,
    private readonly billing: BillingService,
    private readonly uploads: UploadService,
    private readonly idempotency: IdempotencyService,
    private readonly workspaces: Pick<WorkspaceRepository, 'ownedTeams'>,
  ) {}

  /**
   * The password is asked again, so a session left open on a shared computer cannot delete the
   * account. A team workspace the account owns goes with it, so one that has other members must
   * be handed over (or deleted) first. Stripe goes first: if it cannot be reached, nothing is deleted.
   */
  async delete(user: UserRow, password: string): Promise<void> {
    if (!(await this.accounts.authenticate(user.email, password))) {
      throw new HttpError(403, 'INVALID_CREDENTIALS', 'The password is not correct, so your account was not deleted.');
    }
    const teams = await this.workspaces.ownedTeams(user.id);
    if (teams.some((team) => team.members > 1)) throw new HttpError(409, 'CONFLICT', MEMBERSHIP_MESSAGES.ownerMustTransfer);
    await this.billing.closeCustomer(user);
    await this.uploads.stopAll({ userId: user.id, anonId: null });
    for (const team of teams) await this.uploads.stopAll({ userId: user.id, anonId: null, workspace: { id: team.id, role: 'owner', personal: false } });
    const uploadIds = await this.accounts.deleteAccount(user.id);
    await this.uploads.deleteOriginals(uploadIds);
    await this.idempotency.forgetOwner({ userId: user.id, anonId: null });
  }
}
